/**
 * Checks of one response on its own: no 5xx, success and error shapes, the response schema with
 * JSON paths, timestamps against the response time.
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import {
  ConnectError,
  ContentType,
  type ContractRules,
  Deadline,
  Decode,
  JsonBody,
  Operations,
  Primitives,
  RateLimit,
  Secrets,
  Timestamp
} from "@data-access/schema"
import * as AST from "effect/SchemaAST"
import { forEachProperty, identifierOf } from "./ast.js"
import { type Exchange, type RawResponse, requestBytesOf, retryAfterSeconds } from "./http.js"
import { snakeToCamel } from "./json.js"
import { fail, type Outcome, pass } from "./outcome.js"

type Op = Operations.Operation

/** Names of the timestamp fields of every response (`createdAt`, `updatedAt`, `expiresAt`). */
export const timestampFields: ReadonlySet<string> = (() => {
  const names = new Set<string>()
  for (const op of Operations.all as ReadonlyArray<Operations.Operation>) {
    forEachProperty(op.response.ast, (p) => {
      if (typeof p.name === "string" && identifierOf(p.type) === "Timestamp") names.add(p.name)
    })
  }
  return names
})()

const contains = (ast: AST.AST, target: AST.AST, depth = 0): boolean => {
  if (ast === target) return true
  if (depth > 8) return false
  switch (ast._tag) {
    case "Transformation":
      return contains(ast.from, target, depth + 1) || contains(ast.to, target, depth + 1)
    case "Union":
      return ast.types.some((t) => contains(t, target, depth + 1))
    case "Refinement":
      return contains(ast.from, target, depth + 1)
    default:
      return false
  }
}

/** Names of the int64 fields of every response (`relativeTime`), written as JSON strings. */
export const int64Fields: ReadonlySet<string> = (() => {
  const names = new Set<string>()
  for (const op of Operations.all as ReadonlyArray<Operations.Operation>) {
    forEachProperty(op.response.ast, (p) => {
      if (typeof p.name === "string" && contains(p.type, Primitives.Int64.ast)) names.add(p.name)
    })
  }
  return names
})()

/** Timestamp fields that name a future instant. */
const futureFields = new Set(["expiresAt"])

/** Whether a response says `Content-Type: application/json` (parameters allowed). */
export const contentTypeIsJson = (r: RawResponse): boolean =>
  ContentType.isJson(r.headers["content-type"])

/** The body shown in a finding: at most `max` characters, secrets redacted. */
export const excerpt = (r: RawResponse, max = 600): string => {
  const text = Option.match(r.json, {
    onNone: () => r.text,
    onSome: (j) => JSON.stringify(Secrets.redact(j))
  })
  return text.length > max ? text.slice(0, max) + "…" : text
}

const describeStatus = (e: Exchange): string =>
  Option.match(e.response, {
    onNone: () => `no response (${e.transportError ?? "unknown"})`,
    onSome: (r) =>
      `HTTP ${r.status}${Option.isSome(r.json) && typeof (r.json.value as any)?.code === "string" ? ` ${(r.json.value as any).code}` : ""}`
  })

/** The HTTP status of an exchange, when a response came. */
export const statusOf = (e: Exchange): number | undefined =>
  Option.getOrUndefined(Option.map(e.response, (r) => r.status))

const responseCode = (r: RawResponse): Option.Option<ConnectError.Code> =>
  Option.flatMap(r.json, (j) => Option.fromNullable(ConnectError.decodeBody(j)?.code))

/** The Connect code of an error response, when its body is a Connect error. */
export const codeOf = (e: Exchange): ConnectError.Code | undefined =>
  Option.getOrUndefined(Option.flatMap(e.response, responseCode))

/** How many times the slowest answer to an operation a timeout must be for no answer within it to be a hang. */
export const HANG_FACTOR = 10

/**
 * Whether no answer came within the timeout while the target may just be slow: it served the
 * same operation in this run in no less than a tenth of that time, or not at all. Such an
 * exchange decides nothing.
 */
export const slowNotHung = (e: Exchange): boolean => {
  const late = e.timedOut
  return (
    Option.isNone(e.response) &&
    late !== undefined &&
    (late.slowestAnswerMs === undefined || late.afterMs < HANG_FACTOR * late.slowestAnswerMs)
  )
}

/**
 * Whether the answer is one that may answer any request before it is read (decisions.md section
 * 2 and section 10): a rate limit (429 resource_exhausted with `Retry-After`) or an overload (503
 * unavailable). It says nothing about the request's own faults, so no check of a refusal reads it
 * as one; its own shape is still judged (error-shape, rate-limit headers).
 */
export const answeredFirst = (e: Exchange): boolean => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined) return false
  const code = codeOf(e)
  return (
    (r.status === 429 && code === "resource_exhausted" && r.headers["retry-after"] !== undefined) ||
    (r.status === 503 && code === "unavailable")
  )
}

/** `HTTP 404 not_found`, or why no response came. */
export const summary = describeStatus

/**
 * Whether the deadline a call set with `Connect-Timeout-Ms` may have passed when its answer came:
 * the server's clock started after the request left, so an answer sooner than the deadline (a
 * millisecond for the clocks' rounding) came before it passed. A value that is not a number of
 * milliseconds says nothing.
 */
const deadlineMayHavePassed = (e: Exchange): boolean => {
  const header = e.request.headers[Deadline.TIMEOUT_HEADER]
  if (header === undefined) return false
  const timeout = Deadline.parseTimeout(header)
  return timeout._tag !== "Millis" || e.durationMs + 1 >= timeout.millis
}

/**
 * no-server-errors: a response came, and it is not a 5xx. `unavailable` (503, a temporary
 * overload that decisions.md section 2 allows) is not held against the server, nor
 * `deadline_exceeded` (504) to a call whose `Connect-Timeout-Ms` deadline may have passed, nor
 * `unimplemented` (501) to a form a server may leave out (`optionalForm`: Connect GET, a
 * compressed body; decisions.md section 10).
 */
export const noServerErrors = (e: Exchange, optionalForm = false): Outcome =>
  Option.match(e.response, {
    onNone: () => {
      // No answer within the timeout is a hang only next to the target's own latency: it answered
      // the same operation in this run in a small part of that time. A slow target is no fault.
      if (slowNotHung(e)) return pass("no-server-errors")
      const measured =
        e.timedOut === undefined
          ? ""
          : ` (it served this operation in at most ${e.timedOut.slowestAnswerMs} ms in this run)`
      return fail(
        "errors.no-internal-for-client-faults",
        "no response",
        `no response: ${e.transportError ?? "connection closed"}${measured}`,
        e
      )
    },
    onSome: (r) => {
      const excused =
        (r.status === 503 && codeOf(e) === "unavailable") ||
        (optionalForm && r.status === 501 && codeOf(e) === "unimplemented")
      if (r.status < 500 || excused)
        return pass("no-server-errors", ["errors.no-internal-for-client-faults"])
      if (r.status === 504 && codeOf(e) === "deadline_exceeded") {
        if (deadlineMayHavePassed(e))
          return pass("no-server-errors", ["errors.no-internal-for-client-faults"])
        const header = e.request.headers[Deadline.TIMEOUT_HEADER]
        const set = header === undefined ? "no deadline" : `a deadline of ${header} ms`
        return fail(
          "errors.no-internal-for-client-faults",
          "deadline_exceeded before the deadline",
          `the server answered deadline_exceeded after ${e.durationMs} ms to a call with ${set}`,
          e,
          excerpt(r)
        )
      }
      return fail(
        "errors.no-internal-for-client-faults",
        `HTTP ${r.status}`,
        `the server answered HTTP ${r.status}`,
        e,
        excerpt(r)
      )
    }
  })

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
  const j = Option.getOrUndefined(r.json)
  if (j === null || typeof j !== "object" || Array.isArray(j))
    return fail(
      "wire.success",
      "body not a JSON object",
      "the 200 body is not a JSON object",
      e,
      excerpt(r)
    )
  return pass("success-shape", ["wire.success"])
}

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
  if (problems.length === 0) return pass("error-shape", ["errors.rate-limit-headers"])
  return fail(
    "errors.rate-limit-headers",
    "rate-limit headers",
    `HTTP ${r.status} came with ${problems.join("; ")}`,
    e,
    problems.join("\n")
  )
}

const decodeErrorBody = Schema.decodeUnknownEither(ConnectError.ErrorBody)

/**
 * Whether the answer is a 404 without a JSON body to a path that names no operation: what the
 * official Connect stacks answer an unknown route by default (connect-node's adapter an empty body,
 * a Go mux its text), which readers take as unimplemented (decisions.md section 2: a body that is
 * not a Connect error falls back to the status, 404 unimplemented).
 */
export const bareUnknownRoute = (e: Exchange): boolean => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || r.status !== 404 || (r.text.trim() !== "" && contentTypeIsJson(r)))
    return false
  const q = e.request.path.indexOf("?")
  return !Operations.byPath.has(q === -1 ? e.request.path : e.request.path.slice(0, q))
}

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
  if (protocolStatuses.has(r.status) && r.text.trim() === "")
    return pass("error-shape", ERROR_SHAPE_RULES)
  if (bareUnknownRoute(e)) return pass("error-shape", ERROR_SHAPE_RULES)
  if (!contentTypeIsJson(r)) {
    return fail(
      "errors.connect-body",
      "content type",
      `HTTP ${r.status} with Content-Type ${JSON.stringify(r.headers["content-type"] ?? "")}, expected a JSON Connect error`,
      e,
      excerpt(r, 200)
    )
  }
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
  return pass(
    "error-shape",
    rateLimited ? [...ERROR_SHAPE_RULES, "errors.retry-after"] : ERROR_SHAPE_RULES
  )
}

const normalizePath = (path: ReadonlyArray<PropertyKey>): string =>
  path
    .map((p) => (typeof p === "number" ? "[]" : String(p)))
    .join(".")
    .replace(/\.\[\]/g, "[]")

const valueAt = (root: unknown, path: ReadonlyArray<PropertyKey>): unknown => {
  let v = root
  for (const p of path) {
    if (v === null || typeof v !== "object") return undefined
    v = (v as Record<PropertyKey, unknown>)[p]
  }
  return v
}

/** Visits every timestamp field of a JSON value with its path. */
const forEachTimestamp = (
  root: unknown,
  f: (path: ReadonlyArray<PropertyKey>, name: string, value: unknown) => void
): void => {
  // One path, pushed and popped as the walk goes; `f` gets a copy (a copy per node visited was most of the walk).
  const path: Array<PropertyKey> = []
  const go = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i)
        go(v[i])
        path.pop()
      }
    } else if (v !== null && typeof v === "object") {
      for (const k of Object.keys(v)) {
        const x = (v as Record<string, unknown>)[k]
        path.push(k)
        if (timestampFields.has(k) && x !== null && x !== undefined) f(path.slice(), k, x)
        else go(x)
        path.pop()
      }
    }
  }
  go(root)
}

/**
 * Each operation's response decoder, made once: the schema compiled (`Decode`, as the client
 * decodes), and the schema's parser with every issue for an answer it does not accept.
 */
const responseDecoders = new Map<
  Op,
  (u: unknown) => Either.Either<unknown, ParseResult.ParseError>
>()
const responseDecoder = (op: Op) => {
  let decode = responseDecoders.get(op)
  if (decode === undefined)
    responseDecoders.set(
      op,
      (decode = Decode.makeDecoder(op.response as Schema.Schema<unknown, unknown>, {
        errors: "all"
      }))
    )
  return decode
}

/** Answer texts kept, at most this many (then forgotten, and kept anew), each at most `MAX_PASSED_TEXT` characters. */
const MAX_PASSED_TEXTS = 2048
const MAX_PASSED_TEXT = 16 * 1024

/**
 * The 200 answer texts that passed response-schema, with their operation's method. The verdict is
 * a function of the operation and the text alone (the body is the text's JSON), and the same
 * objects come back in many answers (a Get of an object a List served, a page read twice): such a
 * text passes again without being decoded again. A text that failed is judged anew each time, for
 * its own exchange. Bounded (the proxy judges traffic for as long as it runs).
 */
const passedTexts = new Set<string>()

const RESPONSE_SCHEMA_RULES: ReadonlyArray<ContractRules.RuleId> = [
  "response.schema",
  "response.field-types",
  "timestamps.utc-z",
  "timestamps.fraction-digits",
  "int64.as-string"
]

/** response-schema: the 200 body decodes with the operation's response schema; timestamps end in `Z`. */
export const responseSchema = (op: Op, e: Exchange): Outcome | undefined => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || r.status !== 200 || Option.isNone(r.json)) return undefined
  const key = r.text.length <= MAX_PASSED_TEXT ? `${op.method}\u0000${r.text}` : undefined
  if (key !== undefined && passedTexts.has(key))
    return pass("response-schema", RESPONSE_SCHEMA_RULES)
  const outcome = judgeResponseSchema(op, r.json.value, e)
  if (outcome.ok && key !== undefined) {
    if (passedTexts.size >= MAX_PASSED_TEXTS) passedTexts.clear()
    passedTexts.add(key)
  }
  return outcome
}

const judgeResponseSchema = (op: Op, json: unknown, e: Exchange): Outcome => {
  const decoded = responseDecoder(op)(json)
  if (Either.isLeft(decoded)) {
    const issue = ParseResult.ArrayFormatter.formatIssueSync(decoded.left.issue)[0]!
    const at = normalizePath(issue.path)
    const secret = issue.path.some((p) => Secrets.fieldNames.has(String(p)))
    const shown = secret
      ? Secrets.REDACTED
      : (JSON.stringify(Secrets.redact(valueAt(json, issue.path))) ?? "absent")
    const message = secret
      ? `${issue._tag} (secret field, value not shown)`
      : issue.message.replace(/"[^"]{60,}"/g, '"…"')
    return fail(
      issue._tag === "Type" ? "response.field-types" : "response.schema",
      `${at}: ${issue._tag}`,
      `response ${at || "(body)"}: ${message}`,
      e,
      `${at || "(body)"} = ${shown}`
    )
  }
  let bad: Outcome | undefined
  forEachTimestamp(json, (path, _name, value) => {
    if (bad !== undefined || typeof value !== "string") return
    const at = normalizePath(path)
    if (!value.endsWith("Z")) {
      bad = fail(
        "timestamps.utc-z",
        `${at}: not Z`,
        `response ${at}: timestamp ${JSON.stringify(value)} is not written in UTC with Z`,
        e,
        `${at} = ${JSON.stringify(value)}`
      )
      return
    }
    const fraction = /\.([0-9]*)Z$/.exec(value)?.[1]
    if (fraction !== undefined && ![3, 6, 9].includes(fraction.length)) {
      bad = fail(
        "timestamps.fraction-digits",
        `${at}: ${fraction.length} fractional digits`,
        `response ${at}: timestamp ${JSON.stringify(value)} has ${fraction.length} fractional digits, not 0, 3, 6 or 9`,
        e,
        `${at} = ${JSON.stringify(value)}`
      )
    }
  })
  if (bad === undefined && int64Fields.size > 0) {
    const go = (v: unknown, path: ReadonlyArray<PropertyKey>): void => {
      if (bad !== undefined) return
      if (Array.isArray(v)) v.forEach((x, i) => go(x, [...path, i]))
      else if (v !== null && typeof v === "object") {
        for (const [k, x] of Object.entries(v)) {
          if (int64Fields.has(k) && typeof x === "number") {
            const at = normalizePath([...path, k])
            bad = fail(
              "int64.as-string",
              `${at}: int64 as a number`,
              `response ${at}: the int64 ${x} is written as a JSON number, not a string`,
              e,
              `${at} = ${x}`
            )
            return
          }
          go(x, [...path, k])
        }
      }
    }
    go(json, [])
  }
  return bad ?? pass("response-schema", RESPONSE_SCHEMA_RULES)
}

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
  return (
    bad ?? (seen ? pass("timestamps", ["timestamps.past", "timestamps.expires-future"]) : undefined)
  )
}

/** The checks every response gets. */
/** Every property name of the response schemas, in lowerCamelCase. */
const responseNames: ReadonlySet<string> = (() => {
  const out = new Set<string>()
  for (const op of Operations.all) forEachProperty(op.response.ast, (p) => out.add(String(p.name)))
  return out
})()

/** A key of a JSON value, at any depth, that spells a response field in snake_case. */
const snakeCaseKey = (v: unknown, path: string, depth = 0): string | undefined => {
  if (depth > 32 || v === null || typeof v !== "object") return undefined
  if (Array.isArray(v)) {
    for (const x of v) {
      const found = snakeCaseKey(x, `${path}[]`, depth + 1)
      if (found !== undefined) return found
    }
    return undefined
  }
  for (const [k, x] of Object.entries(v)) {
    const at = path === "" ? k : `${path}.${k}`
    if (k.includes("_") && !responseNames.has(k) && responseNames.has(snakeToCamel(k))) return at
    const found = snakeCaseKey(x, at, depth + 1)
    if (found !== undefined) return found
  }
  return undefined
}

/** A JSON key with an underscore, in a body's text (a value that looks like one only costs a walk). */
const SNAKE_KEY_TEXT = /"[A-Za-z0-9]*_[A-Za-z0-9_]*"\s*:/

/** Output is always lowerCamelCase (decisions.md section 1): a success body names no field in snake_case. */
export const camelCaseOutput = (e: Exchange): Outcome | undefined => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || r.status !== 200 || Option.isNone(r.json)) return undefined
  // Most bodies have no key with an underscore at all: one scan of the text says so.
  if (!SNAKE_KEY_TEXT.test(r.text)) return pass("response-schema", ["wire.output-camel-case"])
  const at = snakeCaseKey(r.json.value, "")
  return at === undefined
    ? pass("response-schema", ["wire.output-camel-case"])
    : fail(
        "wire.output-camel-case",
        "snake_case field name",
        `the success body names ${at} in snake_case; output is always lowerCamelCase`,
        e,
        at
      )
}

export const basic = (op: Op, e: Exchange, skewMillis: number): ReadonlyArray<Outcome> =>
  [
    noServerErrors(e),
    successShape(e),
    errorShape(e),
    rateLimitHeaders(e),
    responseSchema(op, e),
    camelCaseOutput(e),
    timestamps(e, skewMillis)
  ].filter((o): o is Outcome => o !== undefined)
