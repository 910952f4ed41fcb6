/**
 * success-shape: a 200 is `application/json` (no parameter but `charset=utf-8`) with a JSON object
 * body, in the UTF-8 JSON text RFC 8259 allows.
 */
import * as Option from "effect/Option"
import * as Compression from "@data-access/schema/Compression"
import type { Exchange } from "../http.js"
import { fail, type Outcome, passes } from "../outcome.js"
import { answerExcerpt, contentTypeIsJson, contentTypeUnread, excerpt } from "../answerReading.js"
import { defined, type ExchangeOracle, onAnswer } from "../exchangeOracle.js"

/** success-shape: a 200 is `application/json` with a JSON object body. */
export const successShape = (e: Exchange): Outcome | undefined => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || r.status !== 200) return undefined
  if (!contentTypeIsJson(r))
    return fail(
      "wire.success",
      "content type",
      `200 with Content-Type ${JSON.stringify(r.headers["content-type"] ?? "")}, expected application/json`,
      e
    )
  const unread = contentTypeUnread(r)
  if (unread !== undefined)
    return fail(
      "wire.success",
      "content type parameters",
      `200 with ${unread}: connect-es refuses the answer`,
      e
    )
  if (r.notJsonText !== undefined)
    return fail(
      "wire.success",
      `not JSON text: ${r.notJsonText}`,
      `the 200 body is not the UTF-8 JSON text RFC 8259 allows (${r.notJsonText}), which application/json names and strict clients refuse`,
      e,
      excerpt(r)
    )
  const j = Option.getOrUndefined(r.json)
  if (j === null || typeof j !== "object" || Array.isArray(j))
    return fail(
      "wire.success",
      "body not a JSON object",
      "the 200 body is not a JSON object",
      e,
      excerpt(r)
    )
  return passes(["wire.success"])
}

/**
 * wire.success on any exchange a case makes, a walk's page or a read it prepares with included:
 * a 200 the client cannot read as a JSON object fails it whatever asked for it (its pass is the
 * case's own to count, so only the failure is returned).
 */
export const unreadSuccess = (e: Exchange): Outcome | undefined => {
  const o = successShape(e)
  return o === undefined || o.ok ? undefined : o
}

const successShapeOracle = onAnswer("success-shape", ["wire.success"], (v) =>
  defined(successShape(v.exchange))
)

/**
 * wire.success: an answer asked for in `encoding` (`what`) comes plain or in that encoding, never
 * in one the client did not offer. Live traffic: the proxy relays what the client offered and
 * does not judge this.
 */
export const answerEncoding = (
  e: Exchange,
  what: string,
  encoding: Compression.Encoding
): Outcome | undefined => {
  const sent = Compression.parseContentEncoding(
    Option.getOrUndefined(e.response)?.headers["content-encoding"]
  )
  return sent._tag === "Identity" || (sent._tag === "Compressed" && sent.encoding === encoding)
    ? undefined
    : fail(
        "wire.success",
        `${what}: answered in another encoding`,
        `${what} came with Content-Encoding: ${sent._tag === "Compressed" ? sent.encoding : sent.value}, which the client did not offer`,
        e,
        answerExcerpt(e)
      )
}

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [successShapeOracle]
