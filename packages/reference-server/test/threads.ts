/**
 * Probes of a server that runs in another thread than the test's: a request answered while the
 * test's thread is blocked, and whether its port still takes connections. Used by the reference
 * server's worker tests and the contract tests' embedded run.
 */
import * as Effect from "effect/Effect"
import * as Net from "node:net"
import { Worker } from "node:worker_threads"

/**
 * The status of a POST to `url`, sent from another thread while this one waits for it without
 * running its event loop (`Atomics.wait`): only a server in a third thread can answer it. `-1`
 * when the request failed, `"no answer"` when none came within 20 s.
 */
export const statusWhileBlocked = (
  url: string,
  headers: Record<string, string>,
  body: string
): number | "no answer" => {
  const shared = new Int32Array(new SharedArrayBuffer(8))
  const asker = new Worker(
    `const { workerData: { url, headers, body, shared } } = require("node:worker_threads")
    fetch(url, { method: "POST", headers, body }).then((r) => r.status, () => -1).then((status) => {
      Atomics.store(shared, 1, status)
      Atomics.store(shared, 0, 1)
      Atomics.notify(shared, 0)
    })`,
    { eval: true, workerData: { url, headers, body, shared } }
  )
  const woke = Atomics.wait(shared, 0, 0, 20_000)
  void asker.terminate()
  return woke === "timed-out" ? "no answer" : Atomics.load(shared, 1)
}

/** Whether a TCP connection to the host and port of `url` is accepted. */
export const connects = (url: string) =>
  Effect.async<boolean>((resume) => {
    const { hostname, port } = new URL(url)
    const socket = Net.connect(Number(port), hostname)
    socket.once("connect", () => {
      socket.destroy()
      resume(Effect.succeed(true))
    })
    socket.once("error", () => resume(Effect.succeed(false)))
  })
