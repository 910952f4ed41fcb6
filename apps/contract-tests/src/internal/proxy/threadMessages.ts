/**
 * The messages between the relay's thread and the judging thread (`worker.ts`), structured-cloned
 * by `postMessage`. The relay posts the finished exchanges of each turn of its event loop in one
 * message (their bodies transferred, not cloned) and asks for the findings, the report or the HAR;
 * the judging thread answers each question after every exchange posted before it, and tells the
 * relay's thread what it judged (for the bounded queue's count, the metrics and the live lines).
 */
import type * as Har from "../recording/model.js"
import type * as Report from "../report/model.js"
import type { Job } from "../judge/judging.js"
import type { StoreOptions } from "../judge/store.js"
import type { Finding, Tally } from "../judge/types.js"

/** What the judging thread is started with (its `workerData`). */
export interface Init extends Omit<StoreOptions, "onFinding" | "onJudged"> {
  readonly startedAt: number
  /** Keep every exchange as a HAR entry. */
  readonly har: boolean
  /** Send the metrics' tally with each batch judged. */
  readonly metrics: boolean
  /** Send each new finding (for the live lines). */
  readonly live: boolean
  /**
   * Judging waits while the first element is 1 (shared memory): a judge slower than the relay, on
   * demand, for the tests that show the relay does not wait for it.
   */
  readonly hold?: Int32Array | undefined
}

/** What the relay's thread can ask, and the answer of each. */
export interface Answers {
  /** Nothing: the exchanges posted before are judged (for the metrics). */
  readonly settled: undefined
  readonly findings: ReadonlyArray<Finding>
  readonly report: Report.Report & { readonly findings: ReadonlyArray<Finding> }
  readonly har: Har.Har
}

/** From the relay's thread to the judging thread. */
export type ToJudge =
  | { readonly _tag: "Jobs"; readonly jobs: ReadonlyArray<Job> }
  | {
      readonly _tag: "Ask"
      readonly id: number
      readonly what: keyof Answers
      readonly notes: ReadonlyArray<string>
    }

/** From the judging thread to the relay's thread. */
export type FromJudge =
  | { readonly _tag: "Ready" }
  /** A batch judged: how many exchanges, the new findings among them, and the metrics' tally of them. */
  | {
      readonly _tag: "Judged"
      readonly count: number
      readonly findings: ReadonlyArray<Finding>
      readonly tally: Tally | undefined
    }
  /** A check failed on one exchange (the next ones are judged). */
  | { readonly _tag: "Defect"; readonly message: string }
  | { readonly _tag: "Answer"; readonly id: number; readonly value: Answers[keyof Answers] }
