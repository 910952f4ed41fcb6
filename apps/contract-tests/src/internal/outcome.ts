/**
 * What one case found: a passed or failed check, with the exchange that shows it.
 */
import type { CheckId } from "../Checks.js"
import type { Exchange } from "./http.js"

/** One check's verdict on one case. */
export interface Outcome {
  readonly check: CheckId
  readonly ok: boolean
  /** Deduplication key of a failure: one finding per check, operation and cause. No values in it. */
  readonly cause: string
  /** What went wrong, for people. Never holds a secret. */
  readonly message: string
  /** The exchange that shows the failure. */
  readonly exchange: Exchange | undefined
  /** The part of the response that matters (a JSON path and its value, a header...). */
  readonly detail?: string | undefined
}

/** A passed check. */
export const pass = (check: CheckId): Outcome => ({ check, ok: true, cause: "", message: "", exchange: undefined })

/** A failed check with its cause, message, exchange and detail. */
export const fail = (check: CheckId, cause: string, message: string, exchange: Exchange | undefined, detail?: string): Outcome => ({
  check,
  ok: false,
  cause,
  message,
  exchange,
  detail
})
