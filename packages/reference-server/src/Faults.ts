/**
 * Fault injection: latency, transient errors, proxy answers, dropped connections and a catalogue
 * of contract violations, switchable per method and deterministic under a seed.
 *
 * @since 0.1.0
 */
export * from "./internal/faults.js"
