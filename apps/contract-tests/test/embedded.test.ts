/**
 * The embedded run's server runs in a worker thread of its own (`ReferenceServer.startInWorker`):
 * it answers while the runner's thread is busy, it ends with the run's scope, and a start error
 * is typed. The reference server resolves to its build here, whose worker these runs start.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { execFileSync } from "node:child_process"
import * as Net from "node:net"
import * as Embedded from "../src/Embedded.js"

/** The target of the run, as its first progress line names it. */
const targetOf = (line: string): string | undefined => / against (http:\/\/\S+)$/.exec(line)?.[1]

/**
 * The status of an unknown route, asked from another process while this thread waits for it
 * without running its event loop: a server in this thread could not answer it.
 */
const statusWhileBlocked = (url: string): string => {
  const script = `
    fetch(process.argv[1] + "/core.v1.NoSuchService/NoSuchMethod", { method: "POST", headers: { "content-type": "application/json" }, body: "{}", signal: AbortSignal.timeout(20000) })
      .then((r) => console.log(r.status), (e) => console.log(String(e)))`
  return execFileSync(process.execPath, ["-e", script, url], { encoding: "utf8", timeout: 40_000 }).trim()
}

const connects = (url: string) =>
  Effect.async<boolean>((resume) => {
    const { hostname, port } = new URL(url)
    const socket = Net.connect(Number(port), hostname)
    socket.once("connect", () => {
      socket.destroy()
      resume(Effect.succeed(true))
    })
    socket.once("error", () => resume(Effect.succeed(false)))
  })

const options = { seed: 1, examples: 2, operations: ["GetResource"] }

describe("the embedded server", () => {
  it.effect("answers while the runner's thread is blocked, and ends with the run's scope", () =>
    Effect.gen(function* () {
      let url: string | undefined
      let status: string | undefined
      const report = yield* Embedded.run({
        ...options,
        // Called in the runner's thread: the first line names the server, asked from it while the runner waits.
        progress: (line) => {
          if (url !== undefined) return
          url = targetOf(line)
          if (url !== undefined) status = statusWhileBlocked(url)
        }
      }).pipe(Effect.scoped)
      expect(report.findings).toEqual([])
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(status).toBe("404")
      expect(yield* connects(url!)).toBe(false)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.effect("fails with a typed start error", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Embedded.run({ ...options, server: { latitude: ["no-such-switch" as never] } }).pipe(Effect.scoped))
      expect(error._tag).toBe("StartError")
      expect(error._tag === "StartError" ? error.reason : undefined).toBe("Latitude")
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
