/**
 * timestamps: past times not after the answer, future times after it, within the clock skew allowed.
 */
import * as Option from "effect/Option"
import { Timestamp } from "@data-access/schema"
import type { Exchange } from "../http.js"
import { fail, type Outcome, passes } from "../outcome.js"
import { forEachTimestamp, normalizePath } from "../answerReading.js"
import { defined, type ExchangeOracle, onAnswer } from "../exchangeOracle.js"

/** Timestamp fields that name a future instant. */
const futureFields = new Set(["expiresAt"])

/** timestamps: past fields not after the response time (plus skew), future fields after it (minus skew). */
export const timestamps = (e: Exchange, skewMillis: number): Outcome | undefined => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || r.status !== 200 || Option.isNone(r.json)) return undefined
  let bad: Outcome | undefined
  let seen = false
  // The server's own clock, exact and free of skew: every past time of the answer is before it was
  // sent and every future time after, so each future time is later than each past one.
  // Where a time is, written out only for a finding (most answers have none).
  let latestPast:
    | {
        readonly path: ReadonlyArray<PropertyKey>
        readonly value: string
        readonly t: Timestamp.Timestamp
      }
    | undefined
  let earliestFuture:
    | {
        readonly path: ReadonlyArray<PropertyKey>
        readonly value: string
        readonly t: Timestamp.Timestamp
      }
    | undefined
  forEachTimestamp(r.json.value, (path, name, value) => {
    if (bad !== undefined || typeof value !== "string") return
    const t = Timestamp.parse(value)
    if (typeof t === "string") return
    seen = true
    const millis = Timestamp.toEpochMillis(t)
    if (futureFields.has(name)) {
      if (earliestFuture === undefined || Timestamp.Order(t, earliestFuture.t) < 0)
        earliestFuture = { path, value, t }
    } else if (latestPast === undefined || Timestamp.Order(t, latestPast.t) > 0)
      latestPast = { path, value, t }
    if (futureFields.has(name)) {
      if (millis <= e.receivedAt - skewMillis) {
        const at = normalizePath(path)
        bad = fail(
          "timestamps.expires-future",
          `${at} not in the future`,
          `${at} ${value} is not after the response time ${new Date(e.receivedAt).toISOString()} (skew ${skewMillis} ms)`,
          e,
          `${at} = ${JSON.stringify(value)}`
        )
      }
    } else if (millis > e.receivedAt + skewMillis) {
      const at = normalizePath(path)
      bad = fail(
        "timestamps.past",
        `${at} in the future`,
        `${at} ${value} is after the response time ${new Date(e.receivedAt).toISOString()} (skew ${skewMillis} ms)`,
        e,
        `${at} = ${JSON.stringify(value)}`
      )
    }
  })
  if (
    bad === undefined &&
    latestPast !== undefined &&
    earliestFuture !== undefined &&
    Timestamp.Order(earliestFuture.t, latestPast.t) <= 0
  ) {
    const { path, value } = earliestFuture
    const at = normalizePath(path)
    const pastAt = normalizePath(latestPast.path)
    bad = fail(
      "timestamps.expires-future",
      `${at} not after ${pastAt}`,
      `${at} ${value} is not after ${pastAt} ${latestPast.value} of the same answer, which is before the response time`,
      e,
      `${at} = ${JSON.stringify(value)}`
    )
  }
  return bad ?? (seen ? passes(["timestamps.past", "timestamps.expires-future"]) : undefined)
}

const timestampsOracle = onAnswer(
  "timestamps",
  ["timestamps.past", "timestamps.expires-future"],
  (v) => defined(timestamps(v.exchange, v.skewMillis))
)

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [timestampsOracle]
