/**
 * The Connect protocol around the handlers: routing, method and content type, auth, required
 * headers, deadlines, body limits, decoding, faults, encoding, request ids and the request log.
 * Transport-neutral: the Node server and the in-process client both feed it an `Input`.
 *
 * @internal
 */
import { ConnectError, ContentType, Deadline, JsonBody, Operations, ProtoJson, RetryAfter, Secrets } from "@data-access/schema"
import * as Compression from "@data-access/schema/Compression"
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
import { type Handler, handlers } from "./handlers.js"
import type { Latitude } from "./latitude.js"
import { fastUlid } from "./random.js"
import * as Violations from "./violations.js"

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
  | { readonly _tag: "Response"; readonly status: number; readonly headers: Record<string, string>; readonly body: string | Uint8Array }
  | { readonly _tag: "Drop" }

/** What the server saw, without secrets. */
export interface RecordedRequest {
  readonly requestId: string
  /** The operation's method name, when the path named one. */
  readonly method: Operations.MethodName | undefined
  readonly httpMethod: string
  readonly path: string
  /** Request headers, the credential headers (`x-api-key`...) removed. */
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
  /** The latitude switches that are on; `undefined` when none is. */
  readonly latitude?: Latitude | undefined
}

// One-shot hashing (`crypto.hash`, Node 20.12+) is about twice as fast as createHash().update().digest().
const sha256: (s: string) => Buffer =
  typeof Crypto.hash === "function"
    ? (s) => Crypto.hash("sha256", s, "buffer")
    : (s) => Crypto.createHash("sha256").update(s).digest()

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
  if (typeof last === "string" && Secrets.fieldNames.has(last)) return `${path}: invalid value (a secret field; its value is not shown)`
  return truncate(path === "" ? issue.message : `${path}: ${issue.message}`)
}

export interface Compiled {
  readonly op: Op
  readonly decode: (u: unknown) => Either.Either<Readonly<Record<string, unknown>>, ParseResult.ParseError>
  readonly fields: ReadonlySet<string>
  readonly handler: Handler
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

const response = (status: number, headers: Record<string, string>, body: string | Uint8Array): Output => ({ _tag: "Response", status, headers, body })
const drop: Output = { _tag: "Drop" }

class Fail {
  constructor(readonly error: ConnectError.ConnectError) {}
}

/** Parses a body to a JSON object with lowerCamelCase keys, or says why not. */
const parseBody = (bytes: Uint8Array): Record<string, unknown> | string => {
  const parsed = JsonBody.parse(bytes)
  return parsed._tag === "Object" ? parsed.value : JsonBody.describe(parsed)
}

const errorOutput = (
  error: ConnectError.ConnectError,
  headers: Record<string, string>,
  v: ReadonlySet<ViolationName>,
  protocolStatus?: number
): Output => {
  let status = protocolStatus ?? ConnectError.statusOf(error.code)
  if (v.has("wrong-status-for-code")) status = status === 400 ? 409 : 400
  const body = v.has("invalid-error-body") ? JSON.stringify({ error: error.message }) : ConnectError.writeBody(error)
  return response(status, { ...headers, "content-type": ContentType.JSON_MEDIA_TYPE }, body)
}

/** What a body-less request other than POST is read as. */
const EMPTY_OBJECT = new TextEncoder().encode("{}")

/** The body limit under the small-body-limit violation: 64 KiB. */
const SMALL_BODY_LIMIT = 64 * 1024

/** Under the rate-limit-without-retry-after violation, every 20th request is rate limited. */
const RATE_LIMIT_EVERY = 20

const RATE_LIMITED = "rate limit reached; retry after the Retry-After delay"

/**
 * A stored object without the values of its secret fields, at any depth (decisions.md section
 * 10: a server may leave them out; the return-secrets latitude switch keeps them).
 */
const withoutSecrets = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutSecrets)
  if (value === null || typeof value !== "object") return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) if (!Secrets.fieldNames.has(k)) out[k] = withoutSecrets(v)
  return out
}

/**
 * Writes a success body as JSON bytes. Stored objects never change in place (an update replaces
 * them), so the bytes of each are computed once and reused by every response that carries it.
 */
const makeWriter = (emitDefaults: boolean, keepSecrets: boolean) => {
  const cache = new WeakMap<object, Buffer>()
  const shape = (value: unknown) => (emitDefaults ? value : ProtoJson.omitZeroValues(value))
  const shapeObject = keepSecrets ? shape : (o: object) => shape(withoutSecrets(o))
  const objectBytes = (o: object): Buffer => {
    let bytes = cache.get(o)
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(shapeObject(o)))
      cache.set(o, bytes)
    }
    return bytes
  }
  const COMMA = Buffer.from(",")
  return (op: Op, body: Json): Uint8Array => {
    if (op.wrapperKey === undefined && op.itemField === undefined) return Buffer.from(JSON.stringify(shape(body)))
    const parts: Array<Buffer> = []
    let prefix = "{"
    for (const [key, value] of Object.entries(body)) {
      if (Array.isArray(value)) {
        if (value.length === 0 && !emitDefaults) continue
        parts.push(Buffer.from(`${prefix}${JSON.stringify(key)}:[`))
        value.forEach((v, i) => {
          if (i > 0) parts.push(COMMA)
          parts.push(objectBytes(v as object))
        })
        prefix = "],"
      } else if (key === "listMetadata") {
        parts.push(Buffer.from(`${prefix}"listMetadata":${JSON.stringify(shape(value))}`))
        prefix = ","
      } else if (value !== null && typeof value === "object") {
        parts.push(Buffer.from(`${prefix}${JSON.stringify(key)}:`), objectBytes(value))
        prefix = ","
      }
    }
    parts.push(Buffer.from(prefix === "{" ? "{}" : prefix === "]," ? "]}" : "}"))
    return Buffer.concat(parts)
  }
}

/** Builds the request pipeline over a state. */
export const makeApp = (state: AppState) => {
  const keepSecrets = state.latitude?.returnSecrets === true
  const write = makeWriter(state.emitDefaults, keepSecrets)
  // The operations, their decode and handler wrapped by the latitude switches that are on.
  const routes = state.latitude?.routes(compiled) ?? compiled
  const keyFirst = state.latitude?.keyAfterBody !== true
  const lenientDeadline = state.latitude?.lenientDeadline === true
  let rateLimitCounter = 0
  /** The checks made before the body is read: an answer, or `undefined` to go on. */
  const precheck = (
    input: Input,
    c: Compiled | undefined,
    path: string,
    base: Record<string, string>,
    v: ReadonlySet<ViolationName>,
    timeout: Deadline.Timeout
  ): Output | undefined => {
    if (c === undefined) {
      const code = v.has("unknown-route-wrong-code") ? "not_found" : "unimplemented"
      return errorOutput(ConnectError.make(code, `no operation at ${truncate(path, 200)}`), base, v, 404)
    }
    if (input.method !== "POST" && !v.has("wrong-method-accepted")) {
      return errorOutput(ConnectError.make("unimplemented", `${input.method} is not allowed; use POST`), { ...base, allow: "POST" }, v, 405)
    }
    const contentType = ContentType.parse(input.headers["content-type"])
    if (contentType.codec !== "json" && !v.has("content-type-ignored")) {
      const message = `content type ${JSON.stringify(truncate(contentType.mediaType, 100))} is not supported; use ${ContentType.JSON_MEDIA_TYPE}`
      return errorOutput(ConnectError.make("unknown", message), base, v, 415)
    }
    // Compression is a server's choice (decisions.md section 10); unsupported, it is unimplemented.
    const encoding = input.headers["content-encoding"]
    if (encoding !== undefined && Compression.parseContentEncoding(encoding)._tag !== "Identity") {
      const message = `content encoding ${JSON.stringify(truncate(encoding, 100))} is not supported; send the body uncompressed`
      return errorOutput(ConnectError.make("unimplemented", message), { ...base, "accept-encoding": "identity" }, v)
    }
    if (keyFirst && !v.has("auth-ignored") && !authorized(state.apiKeyHashes, input.headers["x-api-key"])) {
      return errorOutput(ConnectError.make("unauthenticated", "a valid X-API-KEY header is required"), base, v)
    }
    for (const [name, value] of Object.entries(c.op.requiredHeaders)) {
      if (input.headers[name] !== value && !v.has("version-header-ignored")) return errorOutput(ConnectError.make("invalid_argument", `the header ${name}: ${value} is required`), base, v)
    }
    if (timeout._tag === "Invalid") {
      return errorOutput(ConnectError.make("invalid_argument", "Connect-Timeout-Ms must be 1 to 10 digits of milliseconds"), base, v)
    }
    return undefined
  }

  /** A transient, proxy or drop fault that answers before the operation runs. */
  const terminalAnswer = (terminal: Decision["terminal"], base: Record<string, string>, v: ReadonlySet<ViolationName>): Output | Fail | undefined => {
    // rate-limit-without-retry-after: the rate limit below, without its headers, now and then.
    if (v.has("rate-limit-without-retry-after") && ++rateLimitCounter % RATE_LIMIT_EVERY === 0) {
      return errorOutput(ConnectError.make("resource_exhausted", RATE_LIMITED), base, v)
    }
    switch (terminal?._tag) {
      case undefined:
        return undefined
      case "Unavailable":
        return new Fail(ConnectError.make("unavailable", "the service is temporarily unavailable; try again"))
      case "RateLimited": {
        const headers = {
          ...base,
          [RetryAfter.HEADER]: RetryAfter.format(terminal.retryAfterSeconds),
          "x-ratelimit-limit": "100",
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset": String(Math.ceil(Date.now() / 1000) + terminal.retryAfterSeconds)
        }
        return errorOutput(ConnectError.make("resource_exhausted", RATE_LIMITED), headers, v)
      }
      case "BareStatus":
        return response(terminal.status, { ...base, "content-type": "text/plain" }, `upstream answered ${terminal.status}`)
      case "DropConnection":
        return terminal.when === "before-handling" ? drop : undefined
    }
  }

  /** Reads a body into a decoded request, or says why not. */
  const prepare = (c: Compiled, method: string, bytes: Uint8Array, violated: Violations.Violated | undefined): Fail | Readonly<Record<string, unknown>> => {
    const input = method !== "POST" && bytes.length === 0 ? EMPTY_OBJECT : bytes
    const parsed = violated === undefined ? parseBody(input) : violated.parse(input, parseBody)
    if (typeof parsed === "string") return new Fail(ConnectError.make("invalid_argument", parsed))
    if (parsed instanceof ConnectError.ConnectError) return new Fail(parsed)
    const relaxed = violated === undefined ? parsed : violated.before(parsed)
    if (relaxed instanceof ConnectError.ConnectError) return new Fail(relaxed)
    const decoded = c.decode(relaxed)
    if (Either.isLeft(decoded)) return new Fail(ConnectError.make("invalid_argument", describeParseError(decoded.left)))
    return violated === undefined ? decoded.right : violated.after(decoded.right)
  }

  /** The success answer. */
  const finish = (
    c: Compiled,
    request: Readonly<Record<string, unknown>>,
    body: Json,
    base: Record<string, string>,
    v: ReadonlySet<ViolationName>,
    violated: Violations.Violated | undefined
  ): Output => {
    if (violated === undefined) return response(200, { ...base, "content-type": ContentType.JSON_MEDIA_TYPE }, write(c.op, body))
    const visible = keepSecrets ? body : Object.fromEntries(Object.entries(body).map(([k, x]) => [k, withoutSecrets(x)]))
    const shaped = state.emitDefaults ? visible : (ProtoJson.omitZeroValues(visible) as Json)
    const text = JSON.stringify(violated.response(request, shaped))
    return response(200, { ...base, "content-type": v.has("success-content-type") ? "text/plain" : "application/json" }, text)
  }

  /** Latency, faults, body, decoding and the operation: what a deadline applies to. */
  const work = (input: Input, c: Compiled, base: Record<string, string>, decision: Decision): Effect.Effect<Output | Fail> => {
    const v = decision.violations
    // The violations' transforms exist only while one is on: the faithful path runs none of them.
    const violated = v.size > 0 ? Violations.make(c.op, c.fields, v, stamp) : undefined
    const maxBodyBytes = v.has("small-body-limit") ? Math.min(SMALL_BODY_LIMIT, state.maxBodyBytes) : state.maxBodyBytes
    const run = Effect.suspend((): Effect.Effect<Output | Fail> => {
      const early = terminalAnswer(decision.terminal, base, v)
      if (early !== undefined) return Effect.succeed(early)
      const contentLength = Number(input.headers["content-length"] ?? "0")
      const body =
        contentLength > maxBodyBytes
          ? Effect.succeed("too-large" as const)
          : Effect.orElseSucceed(input.body(maxBodyBytes), () => new Uint8Array(0))
      return Effect.flatMap(body, (bytes): Effect.Effect<Output | Fail> => {
        if (bytes === "too-large") return Effect.succeed(new Fail(ConnectError.make("resource_exhausted", JsonBody.describe({ _tag: "TooLarge", maxBytes: maxBodyBytes }))))
        const request = prepare(c, input.method, bytes, violated)
        const fail = violated === undefined ? (error: ConnectError.ConnectError) => new Fail(error) : (error: ConnectError.ConnectError) => new Fail(violated.error(error, bytes))
        if (request instanceof Fail) return Effect.succeed(fail(request.error))
        // body-before-auth: the key is checked once the body passed.
        if (!keyFirst && !v.has("auth-ignored") && !authorized(state.apiKeyHashes, input.headers["x-api-key"])) {
          return Effect.succeed(fail(ConnectError.make("unauthenticated", "a valid X-API-KEY header is required")))
        }
        const handler = violated === undefined ? c.handler : violated.handler(c.handler)
        return Effect.match(handler(request, { store: state.store, stamp }), {
          onFailure: fail,
          onSuccess: (result) => (decision.terminal?._tag === "DropConnection" ? drop : finish(c, request, result, base, v, violated))
        })
      })
    })
    return decision.latencyMillis > 0 ? Effect.zipRight(Effect.sleep(Duration.millis(decision.latencyMillis)), run) : run
  }

  const record = (input: Input, c: Compiled | undefined, path: string, requestId: string, started: number, output: Output): RecordedRequest => {
    const headers: Record<string, string> = {}
    for (const [k, value] of Object.entries(input.headers)) if (value !== undefined && !Secrets.headerNames.has(k)) headers[k] = value
    let code = "dropped"
    if (output._tag === "Response") {
      if (output.status === 200) code = "ok"
      else if (output.headers["content-type"] === "text/plain") code = "bare-status"
      else code = ConnectError.parseBody(String(output.body))?.code ?? "invalid-error-body"
    }
    return {
      requestId,
      method: c?.op.method,
      httpMethod: input.method,
      path: truncate(path, 200),
      headers,
      code,
      status: output._tag === "Response" ? output.status : 0,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000
    }
  }

  const handle = (input: Input): Effect.Effect<Output> =>
    Effect.suspend(() => {
      const started = performance.now()
      const requestId = `req_${fastUlid(Date.now())}`
      const base: Record<string, string> = { "x-request-id": requestId }
      const q = input.url.indexOf("?")
      const path = q === -1 ? input.url : input.url.slice(0, q)
      const c = routes.get(path)
      const decision = state.injector.decide(c?.op.method)
      const v = decision.violations
      const timeout = Deadline.parseTimeout(input.headers[Deadline.TIMEOUT_HEADER])
      const early = precheck(input, c, path, base, v, timeout)
      let answer: Effect.Effect<Output>
      if (early !== undefined || c === undefined) {
        answer = Effect.succeed(early ?? errorOutput(ConnectError.make("internal", "internal error"), base, v))
      } else {
        const millis = timeout._tag === "Millis" ? timeout.millis : undefined
        // deadline-wrong-code: a short deadline is canceled at once, a passed one canceled too.
        const passed = v.has("deadline-wrong-code") ? "canceled" : "deadline_exceeded"
        if (millis !== undefined && millis < 100 && v.has("deadline-wrong-code")) {
          answer = Effect.succeed(errorOutput(ConnectError.make("canceled", `the deadline of ${millis} ms is too short`), base, v))
        } else {
          const worked = work(input, c, base, decision)
          const late = () => new Fail(ConnectError.make(passed, `the deadline of ${millis} ms passed`))
          const timed =
            millis === undefined
              ? worked
              : lenientDeadline
                ? // lenient-deadline: checked before the work starts, which then runs to its end.
                  performance.now() - started < millis ? worked : Effect.succeed(late())
                : Effect.map(Deadline.timeoutOption(Effect.interruptible(worked), millis), (o) => Option.getOrElse(o, late))
          answer = Effect.map(timed, (out) => (out instanceof Fail ? errorOutput(out.error, base, v) : out))
        }
      }
      return answer.pipe(
        Effect.catchAllDefect(() => Effect.succeed(errorOutput(ConnectError.make("internal", "internal error"), base, v))),
        Effect.tap((output) => state.onRequest(record(input, c, path, requestId, started, output)))
      )
    })
  return handle
}
