/**
 * A worker thread of a run (`--workers`): its share of the suites, run as the caller's thread
 * would with the options it was given, its report posted back (`workers.ts`).
 */
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { parentPort, workerData } from "node:worker_threads"
import { undiciLayer } from "../http.js"
import { run } from "./run.js"
import type { WorkerInit, WorkerMessage } from "./workers.js"

const init = workerData as WorkerInit
const post = (m: WorkerMessage) => parentPort!.postMessage(m)

const program = run({
  ...init.options,
  apiKey: Redacted.make(init.apiKey),
  headers:
    init.headers === undefined
      ? undefined
      : Object.fromEntries(Object.entries(init.headers).map(([k, v]) => [k, Redacted.make(v)])),
  progress: init.progress ? (line) => post({ _tag: "Progress", line }) : undefined,
  onHarEntry: init.har ? (entry) => post({ _tag: "Har", entry }) : undefined,
  worker: init.part
}).pipe(Effect.scoped, Effect.provide(undiciLayer), Effect.either)

Effect.runPromise(program).then(
  (r) =>
    post(
      r._tag === "Right"
        ? { _tag: "Done", report: r.right }
        : { _tag: "Failed", reason: r.left.reason, message: r.left.message }
    ),
  (e: unknown) => post({ _tag: "Failed", reason: "Unreachable", message: String(e) })
)
