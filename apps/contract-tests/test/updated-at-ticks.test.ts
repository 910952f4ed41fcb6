// A server's clock ticks in steps (here 50 ms, written with three digits): two updates within one
// tick share an `updatedAt`, which is no finding; an update sent once the tick has passed moves it.
import { ReferenceServer } from "@data-access/reference-server"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as ContractTests from "../src/ContractTests.js"
import { forward, front } from "./front.js"

const KEY = ReferenceServer.DEFAULT_API_KEY
const TICK = 50

describe("a server whose clock ticks in steps", () => {
  it.scoped(
    "two updates within one tick may share updatedAt: no finding; a server that never moves it is one",
    () =>
      Effect.gen(function* () {
        /** Answers of UpdateSatellite with `updatedAt` from a clock that moves every TICK ms (or never). */
        const ticking = (frozen: boolean) =>
          Effect.gen(function* () {
            const inner = yield* ReferenceServer.start({})
            const last = new Map<string, string>()
            const counts = { ties: 0, updates: 0 }
            const stamp = () =>
              new Date(
                frozen ? Date.UTC(2030, 0, 1, 0, 0, 0, 120) : Math.ceil(Date.now() / TICK) * TICK
              ).toISOString()
            // Every answer shows a satellite's stamp as its last update gave it.
            const restamp = (value: unknown): unknown => {
              if (Array.isArray(value)) return value.map(restamp)
              if (value === null || typeof value !== "object") return value
              const object = Object.fromEntries(
                Object.entries(value).map(([k, v]) => [k, restamp(v)])
              ) as Record<string, unknown>
              const at = typeof object.id === "string" ? last.get(object.id) : undefined
              return at !== undefined && "updatedAt" in object
                ? { ...object, updatedAt: at }
                : object
            }
            const url = yield* front(inner.url, (req) =>
              forward({
                reply: (text, status) => {
                  if (status !== 200) return text
                  const json = JSON.parse(text) as { satellite?: { id?: string } }
                  const id = json.satellite?.id
                  if (req.url.endsWith("/UpdateSatellite") && id !== undefined) {
                    const at = stamp()
                    counts.updates++
                    if (last.get(id) === at) counts.ties++
                    last.set(id, at)
                  }
                  return JSON.stringify(restamp(json))
                }
              })
            )
            const report = yield* ContractTests.run({
              baseUrl: url,
              apiKey: Redacted.make(KEY),
              fixtures: inner.knownIds,
              seed: 4,
              examples: 60,
              shrinkBudget: 0,
              operations: ["UpdateSatellite"],
              checks: ["update-semantics"]
            })
            return { findings: report.findings.map((f) => `${f.rule}: ${f.message}`), ...counts }
          }).pipe(Effect.scoped)
        const faithful = yield* ticking(false)
        expect(faithful.ties).toBeGreaterThan(0)
        expect(faithful.findings).toEqual([])
        const frozen = yield* ticking(true)
        expect(frozen.findings).toEqual([
          "updates.updated-at: updatedAt went from 2030-01-01T00:00:00.120Z to 2030-01-01T00:00:00.120Z"
        ])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
