import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { ReferenceServer } from "@data-access/reference-server"
import * as Proxy from "../src/Proxy.js"

const KEY = "annotate-key-0918273645"

/** A Connect JSON call through `base`, its answer's `X-Contract-Findings` header. */
const call = (base: string, path: string, body: unknown) =>
  Effect.promise(() =>
    fetch(base + path, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": KEY },
      body: JSON.stringify(body)
    }).then(async (r) => {
      await r.arrayBuffer()
      return r.headers.get("x-contract-findings")
    })
  )

describe("the proxy's --annotate", () => {
  it.scoped(
    "each answer names the findings of its exchange, judged before it is relayed; none without the option",
    () =>
      Effect.gen(function* () {
        const faulty = yield* ReferenceServer.start({
          apiKeys: [KEY],
          faults: { rules: [{ fault: { _tag: "Violation", name: "success-content-type" } }] }
        })
        const faithful = yield* ReferenceServer.start({ apiKeys: [KEY] })
        const annotated = yield* Proxy.start({ target: faulty.url, annotate: true })
        const server = yield* call(annotated.url, "/core.v1.SatelliteService/ListSatellites", {
          limit: 1
        })
        expect(server).toContain("server wire.success")
        const onFaithful = yield* Proxy.start({ target: faithful.url, annotate: true })
        expect(
          yield* call(onFaithful.url, "/core.v1.SatelliteService/ListSatellites", { limit: 1 })
        ).toBe("none")
        const client = yield* call(onFaithful.url, "/core.v1.SatelliteService/ListSatellites", {
          limit: 0
        })
        expect(client).toMatch(/^client [a-z]+\.[a-z-]+/)
        // The live findings agree with the header.
        const findings = yield* annotated.findings
        expect(findings.map((f) => `${f.side} ${f.rule}`)).toContain("server wire.success")
        const plain = yield* Proxy.start({ target: faulty.url })
        expect(
          yield* call(plain.url, "/core.v1.SatelliteService/ListSatellites", { limit: 1 })
        ).toBe(null)
      })
  )
})
