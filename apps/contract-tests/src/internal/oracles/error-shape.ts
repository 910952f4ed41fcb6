/**
 * error-shape: an error is a Connect error body whose code agrees with the HTTP status, a rate
 * limit says when to retry, and rate-limit headers read as the contract says.
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import { ConnectError, type ContractRules, Decode, JsonBody, RateLimit } from "@data-access/schema"
import { type Exchange, requestBytesOf, retryAfterSeconds } from "../http.js"
import { fail, type Outcome, pass, passes } from "../outcome.js"
import {
  answerExcerpt,
  answeredFirst,
  bareUnknownRoute,
  codeOf,
  contentTypeIsJson,
  contentTypeUnread,
  excerpt,
  got,
  responseCode,
  statusOf,
  tellsNothing
} from "../answerReading.js"
import { defined, type ExchangeOracle, onAnswer } from "../exchangeOracle.js"

/**
 * Statuses of the protocol's own answers (405, 415): no code maps to them, and their body may be
 * empty (decisions.md section 10), so only a body that is there is checked.
 */
const protocolStatuses = new Set([405, 415])

/**
 * A detail's `value` is base64 (decisions.md section 2): the standard or the URL-safe alphabet,
 * padded or not (Connect implementations write it unpadded).
 */
export const isBase64 = (s: string): boolean =>
  /^(?:[A-Za-z0-9+/]*|[A-Za-z0-9_-]*)(?:={0,2})$/.test(s) &&
  s.replace(/=+$/, "").length % 4 !== 1 &&
  (!s.includes("=") || s.length % 4 === 0)

/**
 * A rate limit answered without `Retry-After` in seconds: resource_exhausted to a body that no
 * server may refuse for its size, in the answer or in one the runner retried before it.
 */
const rateLimitWithoutRetryAfter = (e: Exchange): Outcome | undefined => {
  const answers =
    e.retried === undefined
      ? Option.toArray(e.response)
      : [...e.retried, ...Option.toArray(e.response)]
  const bare = answers.find(
    (r) =>
      r.status !== 200 &&
      retryAfterSeconds(r) === undefined &&
      Option.getOrUndefined(responseCode(r)) === "resource_exhausted"
  )
  if (bare === undefined) return undefined
  if (requestBytesOf(e) > JsonBody.GUARANTEED_MAX_BYTES) return undefined
  const header = bare.headers["retry-after"]
  return fail(
    "errors.retry-after",
    header === undefined ? "rate limited without Retry-After" : "Retry-After not in seconds",
    `resource_exhausted (HTTP ${bare.status}) to a body of at most 1 MiB came with ${header === undefined ? "no Retry-After header" : `Retry-After ${JSON.stringify(header.slice(0, 60))}`}, expected a number of seconds`,
    e,
    excerpt(bare, 300)
  )
}

/** The rate-limit headers an answer carries, if any, read as the contract says (decisions.md section 2); `undefined` without them. */
export const rateLimitHeaders = (e: Exchange): Outcome | undefined => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || !RateLimit.HEADERS.some((h) => r.headers[h] !== undefined))
    return undefined
  const problems = RateLimit.problems((h) => r.headers[h], e.receivedAt)
  if (problems.length === 0) return passes(["errors.rate-limit-headers"])
  return fail(
    "errors.rate-limit-headers",
    "rate-limit headers",
    `HTTP ${r.status} came with ${problems.join("; ")}`,
    e,
    problems.join("\n")
  )
}

const decodeErrorBody = Decode.makeDecoder(ConnectError.ErrorBody)

/** The rules a well-formed error answer judged. */
const ERROR_SHAPE_RULES: ReadonlyArray<ContractRules.RuleId> = [
  "errors.connect-body",
  "errors.status-agrees"
]

/**
 * error-shape: an error is a Connect error body whose code agrees with the HTTP status, and a
 * rate limit says when to retry.
 */
export const errorShape = (e: Exchange): Outcome | undefined => {
  const limited = rateLimitWithoutRetryAfter(e)
  if (limited !== undefined) return limited
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || r.status === 200) return undefined
  if (protocolStatuses.has(r.status) && r.text.trim() === "") return passes(ERROR_SHAPE_RULES)
  if (bareUnknownRoute(e)) return passes(ERROR_SHAPE_RULES)
  if (!contentTypeIsJson(r)) {
    return fail(
      "errors.connect-body",
      "content type",
      `HTTP ${r.status} with Content-Type ${JSON.stringify(r.headers["content-type"] ?? "")}, expected a JSON Connect error`,
      e,
      excerpt(r, 200)
    )
  }
  const unread = contentTypeUnread(r)
  if (unread !== undefined)
    return fail(
      "errors.connect-body",
      "content type parameters",
      `HTTP ${r.status} with ${unread}: connect-es reads the code from the status, the body unread`,
      e,
      excerpt(r, 200)
    )
  if (r.notJsonText !== undefined)
    return fail(
      "errors.connect-body",
      `not JSON text: ${r.notJsonText}`,
      `HTTP ${r.status} body is not the UTF-8 JSON text RFC 8259 allows (${r.notJsonText}), which application/json names and strict clients refuse`,
      e,
      excerpt(r)
    )
  const body = Option.getOrUndefined(r.json)
  const decoded = decodeErrorBody(body)
  if (Either.isLeft(decoded)) {
    const issue = ParseResult.ArrayFormatter.formatErrorSync(decoded.left)[0]
    const path = issue ? issue.path.join(".") : ""
    return fail(
      "errors.connect-body",
      `body: ${path}`,
      `HTTP ${r.status} body is not a Connect error (${path || "body"}: ${issue?.message ?? "invalid"})`,
      e,
      excerpt(r)
    )
  }
  const detail = decoded.right.details?.findIndex((d) => !isBase64(d.value)) ?? -1
  if (detail >= 0) {
    return fail(
      "errors.connect-body",
      "body: details.value",
      `HTTP ${r.status} body is not a Connect error (details.${detail}.value: not base64)`,
      e,
      excerpt(r)
    )
  }
  if (!protocolStatuses.has(r.status) && !ConnectError.statusAgrees(decoded.right.code, r.status)) {
    return fail(
      "errors.status-agrees",
      `status ${r.status} for ${decoded.right.code}`,
      `code ${decoded.right.code} came with HTTP ${r.status}, expected ${ConnectError.statusOf(decoded.right.code)}`,
      e,
      excerpt(r)
    )
  }
  // A rate limit (this answer, or one retried before it) was judged for its Retry-After too.
  const rateLimited = decoded.right.code === "resource_exhausted" || (e.retried?.length ?? 0) > 0
  return passes(rateLimited ? [...ERROR_SHAPE_RULES, "errors.retry-after"] : ERROR_SHAPE_RULES)
}

/** The rules of a request whose id names nothing. */
export type NamesNothingRule = "errors.unknown-id" | "errors.unknown-reference"

/**
 * The trace of one request whose id (`errors.unknown-id`) or reference (`errors.unknown-reference`)
 * names nothing, `what` saying which: the answer is not_found (404), well formed. No answer, a
 * server error (no-server-errors' to judge) or an answer that comes first (a rate limit, an
 * overload) says nothing of it. Live traffic: whether an id names nothing is not known, so the
 * proxy does not judge these rules.
 */
export const namesNothing = (
  e: Exchange,
  rule: NamesNothingRule,
  what: string
): ReadonlyArray<Outcome> => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || r.status >= 500 || answeredFirst(e)) return []
  const code = codeOf(e)
  if (code === "not_found" && r.status === 404)
    return [errorShape(e) ?? pass("error-shape"), pass("error-shape", [rule])]
  const got = code ?? `HTTP ${r.status}`
  return [
    fail(rule, `${what}: got ${got}`, `${what} got ${got}, expected not_found`, e, excerpt(r, 300))
  ]
}

const errorShapeOracle = onAnswer(
  "error-shape",
  ["errors.connect-body", "errors.status-agrees", "errors.retry-after"],
  (v) => defined(errorShape(v.exchange))
)

const rateLimitHeadersOracle = onAnswer("rate-limit-headers", ["errors.rate-limit-headers"], (v) =>
  defined(rateLimitHeaders(v.exchange))
)

/**
 * errors.unknown-reference where a server may read an id either way (decisions.md section 10): a
 * refusal of a request whose id may name nothing (`what`) is not_found; any other (`expected`
 * says what a server answers instead) breaks it. A success or no answer is not judged here. Live
 * traffic: the proxy does not know the id may name nothing, so it judges only what the request breaks.
 */
export const unknownReferenceRefused = (
  e: Exchange,
  what: string,
  expected: string
): Outcome | undefined => {
  if (tellsNothing(e) || statusOf(e) === 200) return undefined
  return statusOf(e) === 404 && codeOf(e) === "not_found"
    ? pass("error-shape", ["errors.unknown-reference"])
    : fail(
        "errors.unknown-reference",
        `${what}: got ${codeOf(e) ?? `HTTP ${statusOf(e)}`}`,
        `${what} got ${got(e)}; ${expected}`,
        e,
        answerExcerpt(e)
      )
}

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [errorShapeOracle, rateLimitHeadersOracle]
