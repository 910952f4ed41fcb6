/**
 * The proxy's metrics in the Prometheus text exposition format (prom-client, one registry per
 * proxy): exchanges relayed and judged, findings by side, rule and operation (each occurrence),
 * bodies not judged and why, and the latency the proxy adds as a histogram. Summed over replicas
 * by Prometheus (`sum by (side, rule) (increase(contract_proxy_findings_total[1w]))`).
 */
import * as Prometheus from "prom-client"
import type { Tally } from "../judge/types.js"

/** The metrics of one proxy. */
export interface Metrics {
  /** The text exposition of every metric. */
  readonly text: () => Promise<string>
  readonly contentType: string
  /** One exchange relayed (answered or not), with the milliseconds the proxy added to it. */
  readonly relayed: (addedMillis: number) => void
  /** Exchanges judged (in the judging thread), as it sums them. */
  readonly judged: (tally: Tally) => void
}

/** Seconds: from a tenth of a millisecond to a second. */
const BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1
]

/** A registry of its own for one proxy (two proxies in one process do not share counts). */
export const make = (): Metrics => {
  const registry = new Prometheus.Registry()
  const relayed = new Prometheus.Counter({
    name: "contract_proxy_exchanges_relayed_total",
    help: "Exchanges relayed to the target (answered or not)",
    registers: [registry]
  })
  const judged = new Prometheus.Counter({
    name: "contract_proxy_exchanges_judged_total",
    help: "Exchanges judged by the contract's oracles",
    registers: [registry]
  })
  const findings = new Prometheus.Counter({
    name: "contract_proxy_findings_total",
    help: "Exchanges breaking a rule of the contract, by the side blamed, the rule and the operation (every occurrence, not only new findings)",
    labelNames: ["side", "rule", "operation"] as const,
    registers: [registry]
  })
  const unread = new Prometheus.Counter({
    name: "contract_proxy_bodies_not_judged_total",
    help: "Exchanges whose body was relayed and not judged, by reason: binary-codec, encoding (not decompressible), not-kept (longer than the checking limit or not received whole)",
    labelNames: ["reason"] as const,
    registers: [registry]
  })
  const added = new Prometheus.Histogram({
    name: "contract_proxy_added_latency_seconds",
    help: "Time the proxy adds to an exchange: from the request's arrival to its sending on, and from the answer's arrival to its relay",
    buckets: BUCKETS,
    registers: [registry]
  })
  for (const reason of ["binary-codec", "encoding", "not-kept"]) unread.inc({ reason }, 0)
  return {
    text: () => registry.metrics(),
    contentType: registry.contentType,
    relayed: (addedMillis) => {
      relayed.inc()
      added.observe(Math.max(0, addedMillis) / 1000)
    },
    judged: (t) => {
      judged.inc(t.judged)
      for (const [reason, n] of Object.entries(t.unread)) unread.inc({ reason }, n)
      for (const [k, n] of Object.entries(t.findings)) {
        const [side, rule, operation] = k.split("\u0000") as [string, string, string]
        findings.inc({ side, rule, operation }, n)
      }
    }
  }
}
