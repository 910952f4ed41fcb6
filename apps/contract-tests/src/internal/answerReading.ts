/**
 * One answer read as every oracle reads it: its status, its Connect code, a body excerpt without
 * secrets, whether it answers any request first (a rate limit, an overload), and its timestamps.
 */
import * as Option from "effect/Option"
import {
  ConnectError,
  ContentType,
  Deadline,
  Operations,
  SchemaWalk,
  Secrets
} from "@data-access/schema"
import type { Exchange, RawResponse } from "./http.js"

/** Names of the timestamp fields of every response (`createdAt`, `updatedAt`, `expiresAt`): strings of the date-time format. */
export const timestampFields: ReadonlySet<string> = (() => {
  const names = new Set<string>()
  for (const op of Operations.all as ReadonlyArray<Operations.Operation>) {
    SchemaWalk.forEachField(SchemaWalk.shapeOf(op.response.ast), (f) => {
      if (f.shape._tag === "String" && f.shape.format === "date-time") names.add(f.name)
    })
  }
  return names
})()

/** Whether a response says `Content-Type: application/json` (parameters allowed). */
export const contentTypeIsJson = (r: RawResponse): boolean =>
  ContentType.isJson(r.headers["content-type"])

/**
 * Why a JSON answer's `Content-Type` is one the official Connect clients do not read as JSON (a
 * parameter other than `charset=utf-8`: `ContentType.readsAsJson`), or `undefined` when they do.
 */
export const contentTypeUnread = (r: RawResponse): string | undefined => {
  const header = r.headers["content-type"]
  return ContentType.readsAsJson(header)
    ? undefined
    : `Content-Type ${JSON.stringify(header ?? "")}, which the official Connect clients do not read as JSON (only application/json, alone or with charset=utf-8)`
}

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

export const responseCode = (r: RawResponse): Option.Option<ConnectError.Code> =>
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

/**
 * Whether a create that names no `name` was answered already_exists: the same link or object made
 * twice (the runner's suites send the same draws), which a server may refuse (interface.md shows
 * no uniqueness rules). A create with a name gets a fresh one, so already_exists there stays a
 * refusal.
 */
export const takenCreate = (op: { readonly kind: string }, e: Exchange): boolean => {
  if (op.kind !== "create" || codeOf(e) !== "already_exists") return false
  try {
    const body: unknown = JSON.parse(e.request.body ?? "")
    return (
      body !== null &&
      typeof body === "object" &&
      typeof (body as { name?: unknown }).name !== "string"
    )
  } catch {
    return false
  }
}

/** `HTTP 404 not_found`, or why no response came. */
export const summary = describeStatus

export const normalizePath = (path: ReadonlyArray<PropertyKey>): string =>
  path
    .map((p) => (typeof p === "number" ? "[]" : String(p)))
    .join(".")
    .replace(/\.\[\]/g, "[]")

/** Visits every timestamp field of a JSON value with its path. */
export const forEachTimestamp = (
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
 * Whether the answer is a 404 without a JSON body to a path that names no operation: what the
 * official Connect stacks answer an unknown route by default (connect-node's adapter an empty body,
 * a Go mux its text), which readers take as unimplemented (decisions.md section 2: a body that is
 * not a Connect error falls back to the status, 404 unimplemented).
 */
export const bareUnknownRoute = (e: Exchange): boolean => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || r.status !== 404 || (r.text.trim() !== "" && contentTypeIsJson(r)))
    return false
  return operationOf(e.request.path) === undefined
}

/** The operation a request path names, its query aside (`undefined` for a path that names none). */
export const operationOf = (path: string): Operations.Operation | undefined => {
  const q = path.indexOf("?")
  return Operations.byPath.get(q === -1 ? path : path.slice(0, q))
}

/** A short account of an answer: its status and code, or why there was none. */
export const got = (e: Exchange): string => describeStatus(e)

/** The body excerpt a finding on an answer shows (200 characters), none without an answer. */
export const answerExcerpt = (e: Exchange): string | undefined =>
  Option.match(e.response, { onNone: () => undefined, onSome: (r) => excerpt(r, 200) })

/** A refusal of a compressed body as a server that leaves compression out answers it: 415, or unimplemented. */
export const encodingLeftOut = (e: Exchange): boolean =>
  statusOf(e) === 415 || codeOf(e) === "unimplemented"

/** Whether an answer tells nothing of a request's own rule: none, a 5xx (judged as such), or one answered first. */
export const tellsNothing = (e: Exchange): boolean => {
  const status = statusOf(e)
  return status === undefined || status >= 500 || answeredFirst(e)
}

/** A size in MiB, as findings word it. */
export const mib = (bytes: number): string => `${bytes / (1024 * 1024)} MiB`

/** A deadline_exceeded this much short of its deadline, at the least, came well before it passed. */
const EARLY_FLOOR_MS = 100
/** ...and short of it by this share of the deadline too (a server's timer may be coarse). */
const EARLY_SHARE = 0.1

/**
 * The deadline a call set with `Connect-Timeout-Ms` (milliseconds), when it answered
 * deadline_exceeded well before that time had elapsed; `undefined` otherwise. The time the caller
 * measured bounds the server's from above (its clock starts once the request has arrived), so on
 * any load an answer short of the deadline by the larger of `EARLY_FLOOR_MS` and `EARLY_SHARE` of
 * it came before the deadline passed. A value that is not a number of milliseconds says nothing.
 */
export const earlyDeadline = (e: Exchange): number | undefined => {
  if (codeOf(e) !== "deadline_exceeded") return undefined
  const timeout = Deadline.parseTimeout(e.request.headers[Deadline.TIMEOUT_HEADER])
  if (timeout._tag !== "Millis") return undefined
  const margin = Math.max(EARLY_FLOOR_MS, timeout.millis * EARLY_SHARE)
  return e.durationMs + margin < timeout.millis ? timeout.millis : undefined
}
