/**
 * The embedded run's server in a worker thread of its own (`serverThread: "worker"`):
 * it answers while the runner's thread is busy, it ends with the run's scope, and a start error
 * is typed. The reference server resolves to its build here, whose worker these runs start.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { connects, statusWhileBlocked } from "../../../packages/reference-server/test/threads.js"
import * as Embedded from "../src/Embedded.js"

/** The target of the run, as its first progress line names it. */
const targetOf = (line: string): string | undefined => / against (http:\/\/\S+)$/.exec(line)?.[1]

const options = {
  seed: 1,
  examples: 2,
  operations: ["GetResource"],
  serverThread: "worker"
} as const

describe("the embedded server", () => {
  it.effect("answers while the runner's thread is blocked, and ends with the run's scope", () =>
    Effect.gen(function* () {
      let url: string | undefined
      let status: number | "no answer" | undefined
      const report = yield* Embedded.run({
        ...options,
        // Called in the runner's thread: the first line names the server, asked from it while the runner waits.
        progress: (line) => {
          if (url !== undefined) return
          url = targetOf(line)
          if (url !== undefined)
            status = statusWhileBlocked(
              `${url}/core.v1.NoSuchService/NoSuchMethod`,
              { "content-type": "application/json" },
              "{}"
            )
        }
      }).pipe(Effect.scoped)
      expect(report.findings).toEqual([])
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(status).toBe(404)
      expect(yield* connects(url!)).toBe(false)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.effect("fails with a typed start error", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        Embedded.run({ ...options, server: { latitude: ["no-such-switch" as never] } }).pipe(
          Effect.scoped
        )
      )
      expect(error._tag).toBe("StartError")
      expect(error._tag === "StartError" ? error.reason : undefined).toBe("Latitude")
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
