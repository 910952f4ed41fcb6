/**
 * Known findings: a run's findings written to a file (`--write-baseline`), and read back
 * (`--baseline`) so that a team can adopt the contract tests on a service with known deviations.
 * A finding of the baseline is reported as known and does not fail the run; a new one fails it;
 * a baseline entry that no longer reproduces is reported as fixed.
 *
 * @since 0.2.0
 */
export * from "./internal/baseline.js"
