/**
 * The Connect protocol around the handlers: routing, method and content type, auth, required
 * headers, deadlines, body limits, decoding, faults, encoding, request ids and the request log.
 * Transport-neutral: the Node server and the in-process client both feed it an `Input`.
 *
 * @internal
 */
import { ConnectError, Operations, ProtoJson } from "@data-access/schema"
import * as Crypto from "node:crypto"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import type { Json } from "../Collections.js"
import type { Decision, Injector, ViolationName } from "../Faults.js"
import type { StoreService } from "../Store.js"
import { type Context, handlers } from "./handlers.js"
import { fastUlid } from "./random.js"

type Op = Operations.Operations[Operations.MethodName]

/** One HTTP request, whatever carried it. Header names are lower case. */
export interface Input {
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string | undefined>>
  /** Reads the body; `"too-large"` when it has more than `maxBytes` bytes. */
  readonly body: (maxBytes: number) => Effect.Effect<Uint8Array | "too-large", unknown>
}

/** The answer: a response, or a connection to destroy without one. */
export type Output =
  | { readonly _tag: "Response"; readonly status: number; readonly headers: Record<string, string>; readonly body: string }
  | { readonly _tag: "Drop" }

/** What the server saw, without secrets. */
export interface RecordedRequest {
  readonly requestId: string
  /** The operation's method name, when the path named one. */
  readonly method: Operations.MethodName | undefined
  readonly httpMethod: string
  readonly path: string
  /** Request headers, `x-api-key` removed. */
  readonly headers: Readonly<Record<string, string>>
  /** `ok`, a Connect code, `bare-status` or `dropped`. */
  readonly code: string
  readonly status: number
  readonly durationMs: number
}

/** The server's mutable state around the pipeline. */
export interface AppState {
  readonly store: StoreService
  readonly apiKeyHashes: ReadonlyArray<Buffer>
  readonly emitDefaults: boolean
  readonly maxBodyBytes: number
  injector: Injector
  readonly onRequest: (entry: RecordedRequest) => Effect.Effect<void>
}

const SECRET_HEADERS = new Set(["x-api-key", "authorization", "cookie"])
const SECRET_FIELDS = new Set(["apiKey", "apiSecret", "password", "secret", "webhookSecret", "certificate", "privateKey"])

const sha256 = (s: string) => Crypto.createHash("sha256").update(s).digest()

/** Hashes API keys for comparison without keeping or leaking them. */
export const hashKeys = (keys: ReadonlyArray<string>): ReadonlyArray<Buffer> => keys.map(sha256)

const authorized = (hashes: ReadonlyArray<Buffer>, key: string | undefined): boolean => {
  if (key === undefined || key === "") return false
  const h = sha256(key)
  let ok = false
  for (const k of hashes) ok = Crypto.timingSafeEqual(h, k) || ok
  return ok
}

// A monotonic clock of microseconds, one millisecond behind real time, so that every timestamp
// is strictly earlier than the response and every update strictly later than the one before.
let lastMicros = 0
const stamp = (): string => {
  const now = Date.now() * 1000 - 1000
  lastMicros = Math.max(now, lastMicros + 1)
  const millis = Math.floor(lastMicros / 1000)
  const micros = lastMicros % 1000
  const iso = new Date(millis).toISOString()
  return micros === 0 ? iso : `${iso.slice(0, -1)}${String(micros).padStart(3, "0")}Z`
}

const truncate = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}...` : s)

/** Turns a ParseError into a message naming the field, without echoing a secret's value. */
export const describeParseError = (error: ParseResult.ParseError): string => {
  const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
  if (issue === undefined) return "invalid request"
  const path = issue.path.map(String).join(".")
  const last = issue.path[issue.path.length - 1]
  if (typeof last === "string" && SECRET_FIELDS.has(last)) return `${path}: invalid value (a secret field; its value is not shown)`
  return truncate(path === "" ? issue.message : `${path}: ${issue.message}`)
}

interface Compiled {
  readonly op: Op
  readonly decode: (u: unknown) => Either.Either<Readonly<Record<string, unknown>>, ParseResult.ParseError>
  readonly fields: ReadonlySet<string>
  readonly handler: NonNullable<ReturnType<typeof handlers.get>>
}

const compiled: ReadonlyMap<string, Compiled> = new Map(
  Operations.all.map((op) => [
    op.path,
    {
      op,
      decode: Schema.decodeUnknownEither(op.request as Schema.Schema<Readonly<Record<string, unknown>>, unknown>, { errors: "first" }),
      fields: new Set(SchemaAST.getPropertySignatures(SchemaAST.encodedAST(op.request.ast)).map((p) => String(p.name))),
      handler: handlers.get(op.method)!
    }
  ])
)

const response = (status: number, headers: Record<string, string>, body: string): Output => ({ _tag: "Response", status, headers, body })
const drop: Output = { _tag: "Drop" }

class Fail {
  constructor(readonly error: ConnectError.ConnectError) {}
}

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** Parses a body to a JSON object with lowerCamelCase keys, or says why not. */
const parseBody = (bytes: Uint8Array): Record<string, unknown> | string => {
  if (bytes.length === 0) return "the request body is empty; send {} for an operation without fields"
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    return "the request body is not valid UTF-8"
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return "the request body is not valid JSON"
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "the request body must be a JSON object"
  const normalized = ProtoJson.normalizeKeys(value)
  if (normalized === undefined) return `the request body is nested deeper than ${ProtoJson.MAX_DEPTH} levels`
  return normalized as Record<string, unknown>
}

const errorOutput = (
  error: ConnectError.ConnectError,
  headers: Record<string, string>,
  v: ReadonlySet<ViolationName>,
  protocolStatus?: number
): Output => {
  let status = protocolStatus ?? ConnectError.statusOf(error.code)
  if (v.has("wrong-status-for-code")) status = status === 400 ? 409 : 400
  const body = v.has("invalid-error-body") ? { error: error.message } : { code: error.code, message: error.message }
  return response(status, { ...headers, "content-type": "application/json" }, JSON.stringify(body))
}

/** The object a response carries (the first item of a list or array), for response violations. */
const targetOf = (op: Op, body: Record<string, unknown>): Record<string, unknown> | undefined => {
  const holder = op.itemField !== undefined ? body[op.itemField] : op.wrapperKey !== undefined ? body[op.wrapperKey] : body
  const target = Array.isArray(holder) ? holder[0] : holder
  return target !== null && typeof target === "object" ? (target as Record<string, unknown>) : undefined
}

/** The response violations, applied to a copy of a success body. */
const violateResponse = (op: Op, request: Readonly<Record<string, unknown>>, body: Json, v: ReadonlySet<ViolationName>): Json => {
  const copy = structuredClone(body) as Record<string, unknown>
  const target = targetOf(op, copy)
  if (target === undefined) return copy
  const isHumanPassword = op.wrapperKey === undefined && op.itemField === undefined
  if (v.has("wrong-field-type")) target[isHumanPassword ? "username" : "id"] = 12345
  if (v.has("missing-required-field")) delete target[isHumanPassword ? "password" : "id"]
  if (v.has("created-at-in-future") && typeof target.createdAt === "string") target.createdAt = new Date(Date.now() + 86_400_000).toISOString()
  if (v.has("non-utc-timestamp") && typeof target.createdAt === "string") {
    // The same instant, written with a +02:00 offset.
    const shifted = new Date(Date.parse(target.createdAt) + 2 * 3_600_000).toISOString()
    target.createdAt = `${shifted.slice(0, -1)}+02:00`
  }
  if (v.has("expires-at-in-past") && typeof target.expiresAt === "string") target.expiresAt = new Date(Date.now() - 3_600_000).toISOString()
  if (v.has("create-not-echoed") && op.kind === "create") {
    const key = Object.keys(request).find((k) => k !== "id" && typeof request[k] === "string" && typeof target[k] === "string")
    if (key !== undefined) target[key] = `${String(target[key])}-changed`
  }
  return copy
}

/** Pre-decode request violations: a relaxed request, or an error. */
const violateRequest = (c: Compiled, body: Record<string, unknown>, v: ReadonlySet<ViolationName>): Record<string, unknown> | Fail => {
  const unknownField = Object.keys(body).find((k) => !c.fields.has(k))
  if (unknownField !== undefined) {
    if (v.has("server-error-on-unknown-field")) return new Fail(ConnectError.make("internal", "internal error"))
    if (v.has("rejects-unknown-field")) return new Fail(ConnectError.make("invalid_argument", `${unknownField}: unknown field`))
  }
  if (v.has("ignored-limit-range") && c.op.kind === "list") {
    const limit = body.limit
    return { ...body, limit: typeof limit === "number" && Number.isFinite(limit) ? Math.min(500, Math.max(1, Math.trunc(limit))) : 100 }
  }
  return body
}

/** Fills empty strings that break a min-length rule (the ignored-min-length violation). */
const relaxMinLength = (c: Compiled, body: Record<string, unknown>) => {
  let current = body
  for (let i = 0; i < 8; i++) {
    const result = c.decode(current)
    if (Either.isRight(result)) return result
    const issue = ParseResult.ArrayFormatter.formatErrorSync(result.left)[0]
    if (issue === undefined || issue.path.length === 0) return result
    const copy = structuredClone(current)
    let holder: Record<string, unknown> = copy
    for (const p of issue.path.slice(0, -1)) holder = holder[p as string] as Record<string, unknown>
    const last = issue.path[issue.path.length - 1] as string
    if (holder?.[last] !== "") return result
    holder[last] = "x"
    current = copy
  }
  return c.decode(current)
}

const timeoutPattern = /^[0-9]{1,10}$/

/**
 * Writes a success body as JSON text. Stored objects never change in place (an update replaces
 * them), so the text of each is computed once and reused by every response that carries it.
 */
const makeWriter = (emitDefaults: boolean) => {
  const cache = new WeakMap<object, string>()
  const shape = (value: unknown) => (emitDefaults ? value : ProtoJson.omitZeroValues(value))
  const objectText = (o: object): string => {
    let text = cache.get(o)
    if (text === undefined) {
      text = JSON.stringify(shape(o))
      cache.set(o, text)
    }
    return text
  }
  return (op: Op, body: Json): string => {
    if (op.wrapperKey === undefined && op.itemField === undefined) return JSON.stringify(shape(body))
    const parts: Array<string> = []
    for (const [key, value] of Object.entries(body)) {
      if (Array.isArray(value)) {
        if (value.length === 0 && !emitDefaults) continue
        parts.push(`${JSON.stringify(key)}:[${value.map((v) => objectText(v as object)).join(",")}]`)
      } else if (key === "listMetadata") {
        parts.push(`"listMetadata":${JSON.stringify(shape(value))}`)
      } else if (value !== null && typeof value === "object") {
        parts.push(`${JSON.stringify(key)}:${objectText(value)}`)
      }
    }
    return `{${parts.join(",")}}`
  }
}

/** Builds the request pipeline over a state. */
export const makeApp = (state: AppState) => {
  const write = makeWriter(state.emitDefaults)
  const handle = (input: Input): Effect.Effect<Output> =>
    Effect.gen(function* () {
      const started = performance.now()
      const requestId = `req_${fastUlid(Date.now())}`
      const base: Record<string, string> = { "x-request-id": requestId }
      const q = input.url.indexOf("?")
      const path = q === -1 ? input.url : input.url.slice(0, q)
      const c = compiled.get(path)
      let decision: Decision = { latencyMillis: 0, terminal: undefined, violations: new Set() }
      let violations: ReadonlySet<ViolationName> = decision.violations

      const run: Effect.Effect<Output> = Effect.gen(function* () {
        if (c === undefined) return errorOutput(ConnectError.make("unimplemented", `no operation at ${truncate(path, 200)}`), base, violations, 404)
        if (input.method !== "POST" && !violations.has("wrong-method-accepted")) {
          return errorOutput(ConnectError.make("unimplemented", `${input.method} is not allowed; use POST`), { ...base, allow: "POST" }, violations, 405)
        }
        const contentType = (input.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase()
        if (contentType !== "application/json" && !violations.has("wrong-method-accepted")) {
          return errorOutput(ConnectError.make("unknown", `content type ${JSON.stringify(truncate(contentType, 100))} is not supported; use application/json`), base, violations, 415)
        }
        if (!violations.has("auth-ignored") && !authorized(state.apiKeyHashes, input.headers["x-api-key"])) {
          return errorOutput(ConnectError.make("unauthenticated", "a valid X-API-KEY header is required"), base, violations)
        }
        for (const [name, value] of Object.entries(c.op.requiredHeaders)) {
          if (input.headers[name] !== value) {
            return errorOutput(ConnectError.make("invalid_argument", `the header ${name}: ${value} is required`), base, violations)
          }
        }
        const timeoutHeader = input.headers["connect-timeout-ms"]
        if (timeoutHeader !== undefined && !timeoutPattern.test(timeoutHeader)) {
          return errorOutput(ConnectError.make("invalid_argument", "Connect-Timeout-Ms must be 1 to 10 digits of milliseconds"), base, violations)
        }
        const work: Effect.Effect<Output | Fail> = Effect.gen(function* () {
          if (decision.latencyMillis > 0) yield* Effect.sleep(Duration.millis(decision.latencyMillis))
          const terminal = decision.terminal
          if (terminal !== undefined) {
            switch (terminal._tag) {
              case "Unavailable":
                return new Fail(ConnectError.make("unavailable", "the service is temporarily unavailable; try again"))
              case "RateLimited": {
                const reset = Math.ceil(Date.now() / 1000) + terminal.retryAfterSeconds
                return errorOutput(ConnectError.make("resource_exhausted", "rate limit reached; retry after the Retry-After delay"), {
                  ...base,
                  "retry-after": String(terminal.retryAfterSeconds),
                  "x-ratelimit-limit": "100",
                  "x-ratelimit-remaining": "0",
                  "x-ratelimit-reset": String(reset)
                }, violations)
              }
              case "BareStatus":
                return response(terminal.status, { ...base, "content-type": "text/plain" }, `upstream answered ${terminal.status}`)
              case "DropConnection":
                if (terminal.when === "before-handling") return drop
            }
          }
          const contentLength = Number(input.headers["content-length"] ?? "0")
          const bytes = contentLength > state.maxBodyBytes ? "too-large" : yield* Effect.orElseSucceed(input.body(state.maxBodyBytes), () => new Uint8Array(0))
          if (bytes === "too-large") return new Fail(ConnectError.make("resource_exhausted", `the request body is larger than ${state.maxBodyBytes} bytes`))
          const parsed = parseBody(input.method !== "POST" && bytes.length === 0 ? new TextEncoder().encode("{}") : bytes)
          if (typeof parsed === "string") return new Fail(ConnectError.make("invalid_argument", parsed))
          const relaxed = violations.size > 0 ? violateRequest(c, parsed, violations) : parsed
          if (relaxed instanceof Fail) return relaxed
          const decoded = violations.has("ignored-min-length") ? relaxMinLength(c, relaxed) : c.decode(relaxed)
          if (Either.isLeft(decoded)) return new Fail(ConnectError.make("invalid_argument", describeParseError(decoded.left)))
          const ctx: Context = { store: state.store, stamp, violations }
          const result = yield* Effect.either(c.handler(decoded.right, ctx))
          if (Either.isLeft(result)) return new Fail(result.left)
          if (terminal?._tag === "DropConnection") return drop
          let text: string
          if (violations.size > 0) {
            const shaped = state.emitDefaults ? result.right : (ProtoJson.omitZeroValues(result.right) as Json)
            text = JSON.stringify(violateResponse(c.op, decoded.right, shaped, violations))
          } else {
            text = write(c.op, result.right)
          }
          const contentType = violations.has("success-content-type") ? "text/plain" : "application/json"
          return response(200, { ...base, "content-type": contentType }, text)
        })
        const millis = timeoutHeader === undefined ? undefined : Number(timeoutHeader)
        const timed: Effect.Effect<Output | Fail> =
          millis === undefined
            ? work
            : Effect.map(Effect.timeoutOption(Effect.interruptible(work), Duration.millis(millis)), (o) =>
                Option.getOrElse(o, () => new Fail(ConnectError.make("deadline_exceeded", `the deadline of ${millis} ms passed`)))
              )
        const out = yield* timed
        return out instanceof Fail ? errorOutput(out.error, base, violations) : out
      })

      if (c !== undefined) {
        decision = state.injector.decide(c.op.method)
        violations = decision.violations
      }
      const output = yield* run.pipe(
        Effect.catchAllDefect(() => Effect.succeed(errorOutput(ConnectError.make("internal", "internal error"), base, violations)))
      )
      const durationMs = performance.now() - started
      const headers: Record<string, string> = {}
      for (const [k, value] of Object.entries(input.headers)) if (value !== undefined && !SECRET_HEADERS.has(k)) headers[k] = value
      let code = "dropped"
      if (output._tag === "Response") {
        if (output.status === 200) code = "ok"
        else if (output.headers["content-type"] === "text/plain") code = "bare-status"
        else code = (JSON.parse(output.body) as { code?: string }).code ?? "invalid-error-body"
      }
      yield* state.onRequest({
        requestId,
        method: c?.op.method,
        httpMethod: input.method,
        path: truncate(path, 200),
        headers,
        code,
        status: output._tag === "Response" ? output.status : 0,
        durationMs: Math.round(durationMs * 1000) / 1000
      })
      return output
    })
  return handle
}
