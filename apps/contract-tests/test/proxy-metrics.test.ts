// GET /__contract/metrics: the proxy's counts in the Prometheus text format, read back with a
// Prometheus text parser; two proxies (a fleet's replicas) keep their own counts, and their sum is
// the traffic of both.
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import parsePrometheus from "parse-prometheus-text-format"
import { ReferenceServer } from "@data-access/reference-server"
import * as Proxy from "../src/Proxy.js"

const KEY = ReferenceServer.DEFAULT_API_KEY

const post = (
  base: string,
  path: string,
  body: string | Uint8Array,
  headers: Record<string, string> = {}
) =>
  Effect.promise(() =>
    fetch(base + path, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-api-key": KEY,
        "connect-protocol-version": "1",
        ...headers
      },
      body
    }).then((r) => r.arrayBuffer())
  )

const scrape = (base: string) =>
  Effect.promise(async () => {
    const res = await fetch(base + Proxy.METRICS_PATH)
    return {
      contentType: res.headers.get("content-type"),
      families: parsePrometheus(await res.text())
    }
  })

type Families = ReturnType<typeof parsePrometheus>

/** The value of a counter's sample with these labels (0 when absent). */
const counter = (families: Families, name: string, labels: Record<string, string> = {}) => {
  const family = families.find((f) => f.name === name)
  expect(family?.type, name).toBe("COUNTER")
  const sample = family!.metrics.find((m) =>
    Object.entries(labels).every(([k, v]) => m.labels?.[k] === v)
  )
  return Number(sample?.value ?? 0)
}

describe("the proxy's metrics", () => {
  it.scoped(
    "exchanges relayed and judged, findings by side, rule and operation, bodies not judged by reason, the added latency as a histogram",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({
          faults: { rules: [{ fault: { _tag: "Violation", name: "wrong-status-for-code" } }] }
        })
        const proxy = yield* Proxy.start({ target: server.url })
        const list = "/core.v1.SatelliteService/ListSatellites"
        yield* post(proxy.url, list, JSON.stringify({ limit: 2 }))
        yield* post(proxy.url, list, JSON.stringify({ limit: 2 }))
        yield* post(proxy.url, list, JSON.stringify({ limit: 501 }))
        yield* post(proxy.url, list, JSON.stringify({ limit: 501 }))
        yield* post(proxy.url, list, new Uint8Array([8, 2]), {
          "content-type": "application/proto"
        })
        const report = yield* proxy.report
        const { contentType, families } = yield* scrape(proxy.url)
        expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/)

        expect(counter(families, "contract_proxy_exchanges_relayed_total")).toBe(5)
        expect(counter(families, "contract_proxy_exchanges_judged_total")).toBe(5)
        // Every occurrence counts: the report's findings (by cause), their occurrences summed by side,
        // rule and operation, are the counters.
        expect(report.findings.length).toBeGreaterThan(1)
        const expected = new Map<string, number>()
        for (const f of report.findings)
          expected.set(
            JSON.stringify({ side: f.side, rule: f.rule, operation: f.operation }),
            (expected.get(JSON.stringify({ side: f.side, rule: f.rule, operation: f.operation })) ??
              0) + f.occurrences
          )
        for (const [labels, n] of expected)
          expect(
            counter(
              families,
              "contract_proxy_findings_total",
              JSON.parse(labels) as Record<string, string>
            ),
            labels
          ).toBe(n)
        const findings = families.find((f) => f.name === "contract_proxy_findings_total")!
        expect(findings.metrics.reduce((n, m) => n + Number(m.value), 0)).toBe(
          report.findings.reduce((n, f) => n + f.occurrences, 0)
        )
        expect(
          counter(families, "contract_proxy_findings_total", {
            side: "client",
            rule: "lists.limit-range",
            operation: "ListSatellites (client)"
          })
        ).toBe(2)
        expect(
          counter(families, "contract_proxy_bodies_not_judged_total", { reason: "binary-codec" })
        ).toBe(1)
        expect(
          counter(families, "contract_proxy_bodies_not_judged_total", { reason: "encoding" })
        ).toBe(0)

        const latency = families.find((f) => f.name === "contract_proxy_added_latency_seconds")!
        expect(latency.type).toBe("HISTOGRAM")
        const histogram = latency.metrics[0]!
        expect(Number(histogram.count)).toBe(5)
        expect(Number(histogram.buckets!["+Inf"])).toBe(5)
        expect(Number(histogram.sum)).toBeGreaterThan(0)
        // The metrics endpoint is the proxy's own: never relayed, never judged.
        expect((yield* proxy.report).requests).toBe(5)
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "two replicas in front of one deployment count apart; their sum is the traffic of both",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start()
        const a = yield* Proxy.start({ target: server.url })
        const b = yield* Proxy.start({ target: server.url })
        const list = "/core.v1.SatelliteService/ListSatellites"
        yield* post(a.url, list, JSON.stringify({ limit: 501 }))
        yield* post(b.url, list, JSON.stringify({ limit: 501 }))
        yield* post(b.url, list, JSON.stringify({ limit: 0 }))
        yield* post(b.url, list, JSON.stringify({ limit: 3 }))
        const [ma, mb] = [(yield* scrape(a.url)).families, (yield* scrape(b.url)).families]
        expect(counter(ma, "contract_proxy_exchanges_relayed_total")).toBe(1)
        expect(counter(mb, "contract_proxy_exchanges_relayed_total")).toBe(3)
        const labels = {
          side: "client",
          rule: "lists.limit-range",
          operation: "ListSatellites (client)"
        }
        // sum by (side, rule) (contract_proxy_findings_total) over both replicas
        expect(
          counter(ma, "contract_proxy_findings_total", labels) +
            counter(mb, "contract_proxy_findings_total", labels)
        ).toBe(3)
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
