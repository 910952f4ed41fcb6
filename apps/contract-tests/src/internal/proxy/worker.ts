/**
 * The judging thread of a running proxy (a `node:worker_threads` Worker started by `state.ts`): it
 * keeps the proxy's store (findings, cells, keys, the HAR entries) and judges the exchanges the
 * relay posts, one batch at a time, off the relay's event loop. A check that fails on an exchange
 * (a defect) is reported to the relay's thread, which logs it, and the next exchange is judged.
 */
import * as Either from "effect/Either"
import { parentPort, workerData } from "node:worker_threads"
import { Secrets } from "@data-access/schema"
import type * as Har from "../recording/model.js"
import { make as makeHar } from "../recording/write.js"
import type { Answers, FromJudge, Init, ToJudge } from "./threadMessages.js"
import { addToTally, emptyTally, entryOfJob, makeStore } from "../judge/store.js"
import type { Finding, Tally } from "../judge/types.js"

const port = parentPort
if (port === null)
  throw new Error("contract-tests: the proxy's judging module runs in a worker thread")
const init = workerData as Init
const post = (message: FromJudge) => port.postMessage(message)

const entries: Array<Har.Entry> = []
let found: Array<Finding> = []
let tally: Tally = emptyTally()
const store = makeStore({
  ...init,
  onFinding: init.live ? (f) => found.push(f) : undefined,
  onJudged:
    !init.har && !init.metrics
      ? undefined
      : (job, judgement, keys) => {
          if (init.metrics) addToTally(tally, judgement)
          if (init.har) entries.push(entryOfJob(init.target, init.limit, job, judgement, keys))
        }
})

const hold = init.hold
/** Waits while the test's hold is on. */
const held = () => {
  if (hold !== undefined) while (Atomics.load(hold, 0) === 1) Atomics.wait(hold, 0, 1)
}

const answer = (what: keyof Answers, notes: ReadonlyArray<string>): Answers[keyof Answers] => {
  switch (what) {
    case "settled":
      return undefined
    case "findings":
      return store.currentFindings()
    case "report":
      return store.report(store.currentFindings(), notes)
    case "har":
      return makeHar(entries)
  }
}

port.on("message", (m: ToJudge) => {
  if (m._tag === "Ask") return post({ _tag: "Answer", id: m.id, value: answer(m.what, m.notes) })
  held()
  for (const job of m.jobs) {
    const judged = Either.try(() => store.check(job))
    if (Either.isLeft(judged)) {
      const e = judged.left
      // Scrubbed as every report is: the keys seen, this exchange's key.
      const scrub = Secrets.scrubber([
        ...store.keysSeen(),
        ...(job.key === undefined ? [] : [job.key])
      ])
      post({
        _tag: "Defect",
        message: scrub(e instanceof Error ? (e.stack ?? e.message) : String(e))
      })
    }
  }
  post({
    _tag: "Judged",
    count: m.jobs.length,
    findings: found,
    tally: init.metrics ? tally : undefined
  })
  found = []
  tally = emptyTally()
})
post({ _tag: "Ready" })
