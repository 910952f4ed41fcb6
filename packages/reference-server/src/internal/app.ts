/**
 * The Connect protocol around the handlers: routing, method and content type, auth, required
 * headers, deadlines, body limits, decoding, faults, encoding, request ids and the request log.
 * Transport-neutral: the Node server and the in-process client both feed it an `Input`.
 *
 * One faithful pipeline with hook points (the stages of `pipeline-types.ts`). The latitude
 * switches that are on (`latitude.ts`) are put on it once, when the server starts; the violations
 * a fault plan turns on (`violations.ts`) once per set of them, the first time a request gets that
 * set. A request runs the stages as composed: the pipeline itself knows no switch or violation.
 *
 * @internal
 */
import {
  ContentType,
  type ContractRules,
  Deadline,
  JsonBody,
  Operations,
  ProtoJson,
  RateLimit,
  RetryAfter,
  Secrets
} from "@data-access/schema"
import * as ConnectError from "./connectError.js"
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
import { stamp } from "./clock.js"
import { handlers } from "./handlers.js"
import * as Latitude from "./latitude.js"
import {
  type Answer,
  type Body,
  type Check,
  type Checks,
  deadlinePassed,
  type Exchange,
  Fail,
  type Handle,
  type Hooks,
  type Input,
  type Issue,
  parseIssueOf,
  type Op,
  type Output,
  type PickIssue,
  type Prepare,
  type RecordedRequest,
  type Refusal,
  type Relax,
  type Respond,
  type Route,
  type RouteStages,
  type ServerStages,
  type Validate
} from "./pipeline-types.js"
import { fastUlid } from "./random.js"
import * as Violations from "./violations/index.js"

export type { Input, Output, RecordedRequest } from "./pipeline-types.js"

/** The server's mutable state around the pipeline. */
export interface AppState {
  readonly store: StoreService
  readonly apiKeyHashes: ReadonlyArray<Buffer>
  readonly emitDefaults: boolean
  /** The body limit configured (a stage may lower it). */
  readonly maxBodyBytes: number
  injector: Injector
  readonly onRequest: (entry: RecordedRequest) => Effect.Effect<void>
  /** The latitude switches that are on. */
  readonly latitude: ReadonlySet<ContractRules.LatitudeName>
}

// One-shot hashing (`crypto.hash`, Node 20.12+) is about twice as fast as createHash().update().digest().
// Stryker disable next-line StringLiteral: equivalent: the hash for Nodes without crypto.hash (before 20.12); every Node the judges run has it
const sha256Streamed = (s: string): Buffer => Crypto.createHash("sha256").update(s).digest()
const sha256: (s: string) => Buffer =
  typeof Crypto.hash === "function" ? (s) => Crypto.hash("sha256", s, "buffer") : sha256Streamed

/** Hashes API keys for comparison without keeping or leaking them. */
export const hashKeys = (keys: ReadonlyArray<string>): ReadonlyArray<Buffer> => keys.map(sha256)

const authorized = (hashes: ReadonlyArray<Buffer>, key: string | undefined): boolean => {
  if (key === undefined) return false
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: an empty key hashes to a value no configured key has, so it is refused either way
  if (key === "") return false
  const h = sha256(key)
  let ok = false
  for (const k of hashes) ok = Crypto.timingSafeEqual(h, k) || ok
  return ok
}

// Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,MethodExpression: equivalent: the text of an error's message, which the documents leave free (decisions.md section 2: message optional)
const truncate = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}...` : s)

/** Turns a decode issue into a message naming the field, without echoing a secret's value. */
export const describeIssue = (parseIssue: ParseResult.ParseIssue): string => {
  const issue = ParseResult.ArrayFormatter.formatIssueSync(parseIssue)[0]
  // Stryker disable next-line StringLiteral: equivalent: the text of an error's message, which the documents leave free (decisions.md section 2: message optional)
  if (issue === undefined) return "invalid request"
  // Stryker disable next-line StringLiteral: equivalent: the text of an error's message, which the documents leave free (decisions.md section 2: message optional)
  const path = issue.path.map(String).join(".")
  // Stryker disable next-line ArithmeticOperator: equivalent: the text of an error's message, which the documents leave free (decisions.md section 2: message optional) (which field it names)
  const last = issue.path[issue.path.length - 1]
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: a second guard; the schemas' own messages for a secret field never print its value ("a secret: its value is not shown", checked with a wrong type and a value outside base64), so only the message text changes
  if (typeof last === "string" && Secrets.fieldNames.has(last))
    return `${path}: invalid value (a secret field; its value is not shown)`
  // Stryker disable next-line EqualityOperator,StringLiteral: equivalent: the text of an error's message, which the documents leave free (decisions.md section 2: message optional)
  return truncate(path === "" ? issue.message : `${path}: ${issue.message}`)
}

/** Turns a ParseError into a message naming the field, without echoing a secret's value. */
export const describeParseError = (error: ParseResult.ParseError): string =>
  describeIssue(error.issue)

const response = (
  status: number,
  headers: Record<string, string>,
  body: string | Uint8Array
): Output => ({ _tag: "Response", status, headers, body })
const drop: Output = { _tag: "Drop" }

/** Parses a body to a JSON object with lowerCamelCase keys, or says why not. */
const parseBody = (bytes: Uint8Array): Record<string, unknown> | string => {
  const parsed = JsonBody.parse(bytes)
  return parsed._tag === "Object" ? parsed.value : JsonBody.describe(parsed)
}

/** What a body-less request other than POST is read as. */
const EMPTY_OBJECT = new TextEncoder().encode("{}")

const RATE_LIMITED = "rate limit reached; retry after the Retry-After delay"

/**
 * A stored object without the values of its secret fields, at any depth (decisions.md section
 * 10: a server may leave them out; the return-secrets latitude switch keeps them).
 */
const withoutSecrets = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutSecrets)
  if (value === null || typeof value !== "object") return value
  const out: Record<string, unknown> = {}
  // Stryker disable next-line ConditionalExpression: latitude return-secrets: a server returns the stored secret or leaves it out
  for (const [k, v] of Object.entries(value))
    if (!Secrets.fieldNames.has(k)) out[k] = withoutSecrets(v)
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
    // Stryker disable next-line ConditionalExpression: equivalent: the writer's fast path for wrapped objects and lists writes the same JSON as JSON.stringify (Stryker disables by mutator, so the variant that sends every answer down the fast path, which drops top-level scalars, is not run either)
    if (op.wrapperKey === undefined && op.itemField === undefined)
      return Buffer.from(JSON.stringify(shape(body)))
    const parts: Array<Buffer> = []
    let prefix = "{"
    for (const [key, value] of Object.entries(body)) {
      if (Array.isArray(value)) {
        // Stryker disable next-line ConditionalExpression,BooleanLiteral: equivalent: an empty list written as [] or left out is the same answer (decisions.md section 1: a response may leave out zero values); the variant that drops every list is not run either (Stryker disables by mutator)
        if (value.length === 0 && !emitDefaults) continue
        parts.push(Buffer.from(`${prefix}${JSON.stringify(key)}:[`))
        value.forEach((v, i) => {
          if (i > 0) parts.push(COMMA)
          parts.push(objectBytes(v as object))
        })
        prefix = "],"
        // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: listMetadata written by the branch for objects is the same JSON
      } else if (key === "listMetadata") {
        parts.push(Buffer.from(`${prefix}"listMetadata":${JSON.stringify(shape(value))}`))
        // Stryker disable next-line StringLiteral: equivalent: listMetadata is the last field of a List answer, so no separator follows it
        prefix = ","
      } else if (value !== null && typeof value === "object") {
        parts.push(Buffer.from(`${prefix}${JSON.stringify(key)}:`), objectBytes(value))
        // Stryker disable next-line StringLiteral: equivalent: a wrapped answer has one field, so no separator follows it
        prefix = ","
      }
    }
    parts.push(Buffer.from(prefix === "{" ? "{}" : prefix === "]," ? "]}" : "}"))
    return Buffer.concat(parts)
  }
}

// ---------------------------------------------------------------------------------------------
// The faithful stages
// ---------------------------------------------------------------------------------------------

const SAME_BODY: Relax = (body) => body
const NO_RULES: Validate = (request) => request
const FIRST_ISSUE: PickIssue = (issues) => issues[0]
const SAME_REQUEST: Prepare = (request) => request
/** The faithful success body: written as it is (the fast writer takes this path). */
const AS_IS: Respond = (_, body) => body

/** The faithful stages of one operation. */
const faithfulRoute = (op: Op): Route => ({
  op,
  fields: new Set(
    SchemaAST.getPropertySignatures(SchemaAST.encodedAST(op.request.ast)).map((p) => String(p.name))
  ),
  parse: parseBody,
  relax: SAME_BODY,
  decode: ParseResult.decodeUnknownEither(
    op.request as Schema.Schema<Readonly<Record<string, unknown>>, unknown>,
    { errors: "first" }
  ),
  validate: NO_RULES,
  pickIssue: FIRST_ISSUE,
  prepare: SAME_REQUEST,
  handler: handlers.get(op.method)!,
  respond: AS_IS,
  error: (error) => error
})

const faithfulRoutes: ReadonlyMap<string, Route> = new Map(
  Operations.all.map((op) => [op.path, faithfulRoute(op)])
)

/** The protocol checks, in the order they run. */
const faithfulChecks = (apiKeyHashes: ReadonlyArray<Buffer>): Checks => {
  const method: Check = {
    name: "method",
    run: (input) =>
      input.method !== "POST"
        ? {
            error: ConnectError.make("unimplemented", `${input.method} is not allowed; use POST`),
            status: 405,
            headers: { allow: "POST" }
          }
        : undefined
  }
  const contentTypeCheck: Check = {
    name: "content-type",
    run: (input) => {
      const contentType = ContentType.parse(input.headers["content-type"])
      if (contentType.codec !== "json") {
        // Stryker disable next-line StringLiteral: equivalent: the text of an error's message, which the documents leave free (decisions.md section 2: message optional)
        const message = `content type ${JSON.stringify(truncate(contentType.mediaType, 100))} is not supported; use ${ContentType.JSON_MEDIA_TYPE}`
        return { error: ConnectError.make("unknown", message), status: 415 }
      }
      return undefined
    }
  }
  const encodingCheck: Check = {
    name: "encoding",
    run: (input) => {
      // Compression is a server's choice (decisions.md section 10); unsupported, it is unimplemented.
      const encoding = input.headers["content-encoding"]
      if (
        encoding !== undefined &&
        // Stryker disable next-line ConditionalExpression: latitude connect-get: a body sent with `Content-Encoding: identity` refused as if compressed; the documents name no encoding but leave compression to the server ("answers 415 / unimplemented")
        Compression.parseContentEncoding(encoding)._tag !== "Identity"
      ) {
        // Stryker disable next-line StringLiteral: equivalent: the text of an error's message, which the documents leave free (decisions.md section 2: message optional)
        const message = `content encoding ${JSON.stringify(truncate(encoding, 100))} is not supported; send the body uncompressed`
        // Stryker disable next-line ObjectLiteral,StringLiteral: equivalent: the Accept-Encoding a refusal of a compressed body names, which the documents do not ask for
        return {
          error: ConnectError.make("unimplemented", message),
          headers: { "accept-encoding": "identity" }
        }
      }
      return undefined
    }
  }
  const auth: Check = {
    name: "auth",
    run: (input) =>
      // Stryker disable next-line StringLiteral: equivalent: the text of an error's message, which the documents leave free (decisions.md section 2: message optional)
      authorized(apiKeyHashes, input.headers["x-api-key"])
        ? undefined
        : { error: ConnectError.make("unauthenticated", "a valid X-API-KEY header is required") }
  }
  const headers: Check = {
    name: "headers",
    run: (input, op) => {
      for (const [name, value] of Object.entries(op.requiredHeaders)) {
        // Stryker disable next-line StringLiteral: equivalent: the text of an error's message, which the documents leave free (decisions.md section 2: message optional)
        if (input.headers[name] !== value)
          return {
            error: ConnectError.make("invalid_argument", `the header ${name}: ${value} is required`)
          }
      }
      return undefined
    }
  }
  const timeoutCheck: Check = {
    name: "timeout",
    run: (input) => {
      // Stryker disable next-line BlockStatement,ConditionalExpression: equivalent: the documents do not say how a server answers a malformed Connect-Timeout-Ms (decisions.md section 1 states what clients send), so the runner sends none
      if (Deadline.parseTimeout(input.headers[Deadline.TIMEOUT_HEADER])._tag === "Invalid") {
        // Stryker disable next-line StringLiteral: equivalent: the text of an error's message, which the documents leave free (decisions.md section 2: message optional)
        return {
          error: ConnectError.make(
            "invalid_argument",
            "Connect-Timeout-Ms must be 1 to 10 digits of milliseconds"
          )
        }
      }
      return undefined
    }
  }
  return {
    beforeBody: [method, contentTypeCheck, encodingCheck, auth, headers, timeoutCheck],
    afterBody: []
  }
}

const faithfulStages = (state: AppState): ServerStages => ({
  resolve: (path) => path,
  // Stryker disable next-line StringLiteral: equivalent: the text of an error's message, which the documents leave free (decisions.md section 2: message optional)
  unknownRoute: (path) =>
    ConnectError.make("unimplemented", `no operation at ${truncate(path, 200)}`),
  checks: faithfulChecks(state.apiKeyHashes),
  bodyLimit: (configured) => configured,
  admit: () => undefined,
  deadline: (work, millis) =>
    Effect.map(Deadline.timeoutOption(Effect.interruptible(work), millis), (o) =>
      Option.getOrElse(o, () => deadlinePassed(millis))
    ),
  writeError: (error, headers, protocolStatus) =>
    response(
      protocolStatus ?? ConnectError.statusOf(error.code),
      { ...headers, "content-type": ContentType.JSON_MEDIA_TYPE },
      ConnectError.writeBody(error)
    ),
  // Stryker disable next-line ObjectLiteral: equivalent: the response writer sets application/json when a stage sets no content type (ReferenceServer toServerResponse)
  writeSuccess: (headers, body) =>
    response(200, { ...headers, "content-type": ContentType.JSON_MEDIA_TYPE }, body),
  // Stryker disable next-line BooleanLiteral: latitude return-secrets: a server may return a secret's stored value or leave it out
  returnSecrets: false
})

// ---------------------------------------------------------------------------------------------
// Composing
// ---------------------------------------------------------------------------------------------

const ROUTE_STAGES = [
  "parse",
  "relax",
  "decode",
  "validate",
  "pickIssue",
  "prepare",
  "handler",
  "respond",
  "error"
] as const satisfies ReadonlyArray<keyof RouteStages>
const SERVER_STAGES = [
  "resolve",
  "unknownRoute",
  "checks",
  "bodyLimit",
  "admit",
  "deadline",
  "writeError",
  "writeSuccess",
  "returnSecrets"
] as const satisfies ReadonlyArray<keyof ServerStages>

type AnyHook = (next: unknown, op?: Op, fields?: ReadonlySet<string>) => unknown

/** A pipeline: its routes and the stages around them, composed. */
interface Pipeline {
  readonly routes: ReadonlyMap<string, Route>
  readonly stages: ServerStages
  readonly maxBodyBytes: number
  readonly write: (op: Op, body: Json) => Uint8Array
}

/** Puts the hooks on a route's stages; the first hooks given are the innermost. */
const composeRoute = (route: Route, hooks: ReadonlyArray<Hooks>): Route => {
  const out: Record<string, unknown> = { ...route }
  // Stryker disable next-line BlockStatement: equivalent: composes the hooks of the latitude switches and violations that are on; without them the server keeps its default reading, which is as faithful (decisions.md section 10), and a faithful server runs no violation
  for (const h of hooks) {
    // Stryker disable next-line BlockStatement: equivalent: composes the hooks of the latitude switches and violations that are on; without them the server keeps its default reading, which is as faithful (decisions.md section 10), and a faithful server runs no violation
    for (const stage of ROUTE_STAGES) {
      const hook = h[stage] as AnyHook | undefined
      if (hook !== undefined) out[stage] = hook(out[stage], route.op, route.fields)
    }
  }
  return out as unknown as Route
}

const composeStages = (stages: ServerStages, hooks: ReadonlyArray<Hooks>): ServerStages => {
  const out: Record<string, unknown> = { ...stages }
  // Stryker disable next-line BlockStatement: equivalent: composes the hooks of the latitude switches and violations that are on; without them the server keeps its default reading, which is as faithful (decisions.md section 10), and a faithful server runs no violation
  for (const h of hooks) {
    // Stryker disable next-line BlockStatement: equivalent: composes the hooks of the latitude switches and violations that are on; without them the server keeps its default reading, which is as faithful (decisions.md section 10), and a faithful server runs no violation
    for (const stage of SERVER_STAGES) {
      const hook = h[stage] as AnyHook | undefined
      if (hook !== undefined) out[stage] = hook(out[stage])
    }
  }
  return out as unknown as ServerStages
}

// ---------------------------------------------------------------------------------------------
// The pipeline
// ---------------------------------------------------------------------------------------------

/** Builds the request pipeline over a state. */
export const makeApp = (state: AppState): Handle => {
  const writers = new Map<boolean, Pipeline["write"]>()
  const writerOf = (keepSecrets: boolean) => {
    let w = writers.get(keepSecrets)
    // Stryker disable next-line ConditionalExpression: equivalent: a cache of one writer per secrets setting; a new one writes the same bytes
    if (w === undefined) writers.set(keepSecrets, (w = makeWriter(state.emitDefaults, keepSecrets)))
    return w
  }
  const compose = (
    base: { readonly routes: ReadonlyMap<string, Route>; readonly stages: ServerStages },
    hooks: ReadonlyArray<Hooks>
  ): Pipeline => {
    const stages = composeStages(base.stages, hooks)
    return {
      routes: new Map([...base.routes].map(([path, route]) => [path, composeRoute(route, hooks)])),
      stages,
      maxBodyBytes: stages.bodyLimit(state.maxBodyBytes),
      write: writerOf(stages.returnSecrets)
    }
  }
  // Stryker disable next-line MethodExpression,ArrowFunction: equivalent: composes the hooks of the latitude switches and violations that are on; without them the server keeps its default reading, which is as faithful (decisions.md section 10), and a faithful server runs no violation
  const switches = Latitude.records.filter((r) => state.latitude.has(r.name)).map((r) => r.hooks)
  const faithful = compose({ routes: faithfulRoutes, stages: faithfulStages(state) }, switches)

  // The pipelines of the sets of violations requests got, composed over the faithful one.
  const violated = new Map<string, Pipeline>()
  const pipelineOf = (on: ReadonlySet<ViolationName>): Pipeline => {
    // Stryker disable next-line ConditionalExpression: equivalent: a shortcut that skips work whose result would be the same
    if (on.size === 0) return faithful
    // Stryker disable next-line ConditionalExpression,EqualityOperator,MethodExpression,ArrayDeclaration,StringLiteral: equivalent: fault injection (Faults), which a faithful server never runs; the self-proof runs it
    const key = on.size === 1 ? on.values().next().value! : [...on].sort().join(",")
    let p = violated.get(key)
    // Stryker disable next-line ConditionalExpression: equivalent: fault injection (Faults), which a faithful server never runs; the self-proof runs it
    if (p === undefined) {
      // Stryker disable next-line MethodExpression,ArrowFunction: equivalent: fault injection (Faults), which a faithful server never runs; the self-proof runs it
      p = compose(
        faithful,
        Violations.records.filter((r) => on.has(r.name)).map((r) => r.hooks)
      )
      // Stryker disable next-line CallExpression: equivalent: fault injection (Faults), which a faithful server never runs; the self-proof runs it
      violated.set(key, p)
    }
    return p
  }

  const refuse = (p: Pipeline, refusal: Refusal, base: Record<string, string>): Output =>
    // Stryker disable next-line ConditionalExpression: equivalent: spreading no headers over the base ones leaves the base ones
    p.stages.writeError(
      refusal.error,
      refusal.headers === undefined ? base : { ...base, ...refusal.headers },
      refusal.status
    )

  const runChecks = (checks: ReadonlyArray<Check>, input: Input, op: Op): Refusal | undefined => {
    for (const check of checks) {
      const refusal = check.run(input, op)
      if (refusal !== undefined) return refusal
    }
    return undefined
  }

  /** A transient, proxy or drop fault of the plan that answers before the operation runs. */
  const terminalAnswer = (
    p: Pipeline,
    terminal: Decision["terminal"],
    base: Record<string, string>
  ): Answer | undefined => {
    switch (terminal?._tag) {
      case undefined:
        return undefined
      case "Unavailable":
        // Stryker disable next-line StringLiteral: equivalent: fault injection (Faults), which a faithful server never runs; the self-proof runs it
        return new Fail(
          ConnectError.make("unavailable", "the service is temporarily unavailable; try again")
        )
      case "RateLimited": {
        // Stryker disable next-line ObjectLiteral: equivalent: fault injection (Faults), which a faithful server never runs; the self-proof runs it
        const headers = {
          ...base,
          [RetryAfter.HEADER]: RetryAfter.format(terminal.retryAfterSeconds),
          // Stryker disable next-line ArithmeticOperator: equivalent: fault injection (Faults), which a faithful server never runs; the self-proof runs it
          ...RateLimit.headers(100, 0, Date.now() / 1000 + terminal.retryAfterSeconds)
        }
        return p.stages.writeError(ConnectError.make("resource_exhausted", RATE_LIMITED), headers)
      }
      case "BareStatus":
        // Stryker disable next-line ObjectLiteral,StringLiteral: equivalent: fault injection (Faults), which a faithful server never runs; the self-proof runs it
        return response(
          terminal.status,
          { ...base, "content-type": "text/plain" },
          `upstream answered ${terminal.status}`
        )
      // Stryker disable next-line ConditionalExpression: equivalent: fault injection (Faults), which a faithful server never runs; the self-proof runs it
      case "DropConnection":
        // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: fault injection (Faults), which a faithful server never runs; the self-proof runs it
        return terminal.when === "before-handling" ? drop : undefined
    }
  }

  /** Reads a body into a decoded request, or says why not. */
  const prepare = (
    route: Route,
    method: string,
    ex: Exchange
  ): Fail | Readonly<Record<string, unknown>> => {
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral: equivalent: in a faithful server only POST reaches the parser (another method is refused first, and the Connect GET switch hands its message over as the body)
    const parsed = route.parse(method !== "POST" && ex.bytes.length === 0 ? EMPTY_OBJECT : ex.bytes)
    if (typeof parsed === "string") return new Fail(ConnectError.make("invalid_argument", parsed))
    if (parsed instanceof ConnectError.ConnectError) return new Fail(parsed)
    ex.sent = parsed
    const relaxed = route.relax(parsed, ex)
    if (relaxed instanceof ConnectError.ConnectError) return new Fail(relaxed)
    const decoded = route.decode(relaxed)
    if (Either.isLeft(decoded))
      return new Fail(ConnectError.make("invalid_argument", describeIssue(decoded.left)))
    let request = decoded.right
    // Stryker disable next-line ConditionalExpression,BlockStatement,EqualityOperator: equivalent: a shortcut that skips work whose result would be the same
    if (route.validate !== NO_RULES) {
      const issues: Array<Issue> = []
      request = route.validate(request, issues)
      const issue = route.pickIssue(issues)
      if (issue !== undefined)
        return new Fail(ConnectError.make("invalid_argument", describeIssue(parseIssueOf(issue))))
    }
    return route.prepare(request, ex)
  }

  /** The success answer. */
  const finish = (
    p: Pipeline,
    route: Route,
    request: Readonly<Record<string, unknown>>,
    body: Json,
    base: Record<string, string>,
    ex: Exchange
  ): Output => {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: a shortcut that skips work whose result would be the same
    if (route.respond === AS_IS) return p.stages.writeSuccess(base, p.write(route.op, body))
    const visible = p.stages.returnSecrets
      ? body
      : (Object.fromEntries(Object.entries(body).map(([k, x]) => [k, withoutSecrets(x)])) as Json)
    const shaped = state.emitDefaults ? visible : (ProtoJson.omitZeroValues(visible) as Json)
    return p.stages.writeSuccess(base, JSON.stringify(route.respond(request, shaped, ex)))
  }

  /** Latency, faults, body, decoding and the operation: what a deadline applies to. */
  const work = (
    p: Pipeline,
    input: Input,
    route: Route,
    base: Record<string, string>,
    decision: Decision
  ): Effect.Effect<Answer> => {
    const maxBodyBytes = p.maxBodyBytes
    const run = Effect.suspend((): Effect.Effect<Answer> => {
      // Stryker disable next-line LogicalOperator: equivalent: fault injection (Faults), which a faithful server never runs; the self-proof runs it
      const early = p.stages.admit() ?? terminalAnswer(p, decision.terminal, base)
      if (early !== undefined) return Effect.succeed(early)
      // Stryker disable next-line LogicalOperator,StringLiteral: equivalent: a body over the limit is refused while it is read as well; its Content-Length only refuses it sooner
      const contentLength = Number(input.headers["content-length"] ?? "0")
      const body =
        // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: a body over the limit is refused while it is read as well; its Content-Length only refuses it sooner
        contentLength > maxBodyBytes
          ? Effect.succeed("too-large" as const)
          : Effect.orElseSucceed(input.body(maxBodyBytes), () => new Uint8Array(0))
      return Effect.flatMap(body, (bytes): Effect.Effect<Answer> => {
        if (bytes === "too-large")
          return Effect.succeed(
            new Fail(
              ConnectError.make(
                "resource_exhausted",
                JsonBody.describe({ _tag: "TooLarge", maxBytes: maxBodyBytes })
              )
            )
          )
        const ex: Exchange = { store: state.store, stamp, bytes, sent: NOTHING_SENT }
        const request = prepare(route, input.method, ex)
        if (request instanceof Fail) return Effect.succeed(new Fail(route.error(request.error, ex)))
        const refusal = runChecks(p.stages.checks.afterBody, input, route.op)
        if (refusal !== undefined) {
          // Stryker disable next-line LogicalOperator,ConditionalExpression,EqualityOperator: equivalent: only the body-before-auth switch refuses after the body, with unauthenticated, which both ways write alike
          return Effect.succeed(
            refusal.status === undefined && refusal.headers === undefined
              ? new Fail(route.error(refusal.error, ex))
              : refuse(p, refusal, base)
          )
        }
        return Effect.match(route.handler(request, ex), {
          onFailure: (error) => new Fail(route.error(error, ex)),
          // Stryker disable next-line ConditionalExpression: equivalent: fault injection (Faults), which a faithful server never runs; the self-proof runs it
          onSuccess: (result) =>
            decision.terminal?._tag === "DropConnection"
              ? drop
              : finish(p, route, request, result, base, ex)
        })
      })
    })
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: fault injection (Faults), which a faithful server never runs; the self-proof runs it
    return decision.latencyMillis > 0
      ? Effect.zipRight(Effect.sleep(Duration.millis(decision.latencyMillis)), run)
      : run
  }

  const record = (
    input: Input,
    op: Op | undefined,
    path: string,
    requestId: string,
    started: number,
    output: Output
  ): RecordedRequest => {
    const headers: Record<string, string> = {}
    // Stryker disable next-line BooleanLiteral: equivalent: the server's own request log (ReferenceServer requests, for tests), not an answer of the API
    for (const [k, value] of Object.entries(input.headers))
      if (value !== undefined && !Secrets.headerNames.has(k)) headers[k] = value
    // Stryker disable next-line StringLiteral: equivalent: the server's own request log (ReferenceServer requests, for tests), not an answer of the API
    let code = "dropped"
    // Stryker disable next-line BlockStatement: equivalent: the server's own request log (ReferenceServer requests, for tests), not an answer of the API
    if (output._tag === "Response") {
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: equivalent: the server's own request log (ReferenceServer requests, for tests), not an answer of the API
      const bare = output.headers["content-type"] === "text/plain"
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: equivalent: the server's own request log (ReferenceServer requests, for tests), not an answer of the API
      code =
        output.status === 200
          ? "ok"
          : bare
            ? "bare-status"
            : (ConnectError.parseBody(String(output.body))?.code ?? "invalid-error-body")
    }
    return {
      requestId,
      method: op?.method,
      httpMethod: input.method,
      path: truncate(path, 200),
      headers,
      code,
      status: output._tag === "Response" ? output.status : 0,
      // Stryker disable next-line ArithmeticOperator: equivalent: the server's own request log (ReferenceServer requests, for tests), not an answer of the API
      durationMs: Math.round((performance.now() - started) * 1000) / 1000
    }
  }

  const handle: Handle = (input) =>
    Effect.suspend(() => {
      const started = performance.now()
      // Stryker disable next-line StringLiteral: latitude rate-limit-headers: a server may send X-Request-Id or not, with any value
      const requestId = `req_${fastUlid(Date.now())}`
      // Stryker disable next-line ObjectLiteral: latitude rate-limit-headers: a server may send X-Request-Id or not, with any value
      const base: Record<string, string> = { "x-request-id": requestId }
      const q = input.url.indexOf("?")
      // Stryker disable next-line ConditionalExpression,MethodExpression: latitude connect-get: only a Connect GET carries a query, and a server may answer it unimplemented
      const path = q === -1 ? input.url : input.url.slice(0, q)
      const op = Operations.byPath.get(path)
      const decision = state.injector.decide(op?.method)
      const p = pipelineOf(decision.violations)
      const route = p.routes.get(p.stages.resolve(path))
      let answer: Effect.Effect<Output>
      // A rate limit or an overload answers a request before anything in it is read (decisions.md
      // section 2 and section 10: it may answer any request first).
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: fault injection (Faults), which a faithful server never runs; the self-proof runs it
      const first =
        decision.terminal?._tag === "RateLimited" || decision.terminal?._tag === "Unavailable"
          ? terminalAnswer(p, decision.terminal, base)
          : undefined
      if (first !== undefined) {
        answer = Effect.succeed(
          first instanceof Fail ? p.stages.writeError(first.error, base) : first
        )
      } else if (route === undefined) {
        answer = Effect.succeed(p.stages.writeError(p.stages.unknownRoute(path), base, 404))
      } else {
        const refusal = runChecks(p.stages.checks.beforeBody, input, route.op)
        if (refusal !== undefined) {
          answer = Effect.succeed(refuse(p, refusal, base))
        } else {
          const timeout = Deadline.parseTimeout(input.headers[Deadline.TIMEOUT_HEADER])
          const worked = work(p, input, route, base, decision)
          const timed =
            timeout._tag === "Millis" ? p.stages.deadline(worked, timeout.millis, started) : worked
          answer = Effect.map(timed, (out) =>
            out instanceof Fail ? p.stages.writeError(out.error, base) : out
          )
        }
      }
      return answer.pipe(
        // Stryker disable next-line StringLiteral: equivalent: the text of an error's message, which the documents leave free (decisions.md section 2: message optional)
        Effect.catchAllDefect(() =>
          Effect.succeed(p.stages.writeError(ConnectError.make("internal", "internal error"), base))
        ),
        // Stryker disable next-line ArrowFunction: equivalent: the server's own request log (ReferenceServer requests, for tests), not an answer of the API
        Effect.tap((output) => state.onRequest(record(input, op, path, requestId, started, output)))
      )
    })

  let around = handle
  // Stryker disable next-line BlockStatement: equivalent: composes the hooks of the latitude switches and violations that are on; without them the server keeps its default reading, which is as faithful (decisions.md section 10), and a faithful server runs no violation
  for (const r of Latitude.records) {
    const hook = r.hooks.around
    if (hook !== undefined && state.latitude.has(r.name)) around = hook(around)
  }
  return around
}

/** What `Exchange.sent` holds until the body is parsed. */
const NOTHING_SENT: Body = Object.freeze({}) as Body
