/**
 * The types the request pipeline (`app.ts`) and its hooks (the violation and latitude records of
 * `violations/` and `latitude.ts`) share: what a request and an answer are, the stages of the
 * faithful pipeline, and the hooks a record puts on them; and the few values both sides build
 * (`Fail`, `deadlinePassed`, `parseIssueOf`).
 *
 * A hook is a small function over one stage (`(next, op) => stage`), the way `HttpClient.mapRequest`
 * is a small function over a client: it gets the stage as built so far and returns the stage to
 * use instead (or the same one, for an operation it does not touch). Hooks are applied once, when
 * a server starts (and once per set of violations a fault plan turns on), never per request.
 *
 * @internal
 */
import { type Operations } from "@data-access/schema"
import * as ConnectError from "./connectError.js"
import type * as Effect from "effect/Effect"
import type * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as SchemaAST from "effect/SchemaAST"
import type { Json } from "./collections.js"
import type { StoreService } from "./store.js"

/** An operation of the table. */
export type Op = Operations.Operations[Operations.MethodName]

/** A request body as a JSON object, names normalised to lowerCamelCase. */
export type Body = Record<string, unknown>

/** A decoded request. */
export type Req = Readonly<Record<string, unknown>>

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
  | {
      readonly _tag: "Response"
      readonly status: number
      readonly headers: Record<string, string>
      readonly body: string | Uint8Array
    }
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

/** The whole pipeline: a request in, an answer out. */
export type Handle = (input: Input) => Effect.Effect<Output>

/** An error answer on its way out (a stage's failure, before it is written). */
export class Fail {
  constructor(readonly error: ConnectError.ConnectError) {}
}

/** What a stage after the body answers: a written answer or an error to write. */
export type Answer = Output | Fail

/** The answer to a request whose `Connect-Timeout-Ms` deadline passed. */
export const deadlinePassed = (millis: number): Fail =>
  new Fail(ConnectError.make("deadline_exceeded", `the deadline of ${millis} ms passed`))

// ---------------------------------------------------------------------------------------------
// One request, once its body is read
// ---------------------------------------------------------------------------------------------

/**
 * One request whose body was read: what the handler needs besides the request, and what the
 * stages after the body may look at. Built once per request.
 */
export interface Exchange {
  readonly store: StoreService
  /** A timestamp earlier than now, strictly later than every one given before (RFC 3339 text). */
  readonly stamp: () => string
  /** The body as received. */
  readonly bytes: Uint8Array
  /** The body as parsed (names normalised), before any stage changed or decoded it; `{}` until parsed. */
  sent: Body
}

/** What a handler needs besides the request. */
export type Context = Exchange

/** An operation's behaviour: the response body in wire form, every field written. */
export type Handler = (request: Req, ctx: Context) => Effect.Effect<Json, ConnectError.ConnectError>

/** Reads a body to a JSON object, or says why not: a message (invalid_argument) or an error. */
export type Parse = (bytes: Uint8Array) => Body | string | ConnectError.ConnectError

/** The parsed body before it is decoded: the body to decode, or an error. */
export type Relax = (body: Body, ex: Exchange) => Body | ConnectError.ConnectError

/**
 * Decodes a body against the operation's request schema; the issue, not a `ParseError` (an
 * `Error`, whose stack trace cost more than the rest of a refusal's answer).
 */
export type Decode = (u: unknown) => Either.Either<Req, ParseResult.ParseIssue>

/** A broken rule of a decoded request: where, and the rule. */
export interface Issue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

/** An issue as a decode issue, so that it is described as a decode failure is. */
export const parseIssueOf = ({ message, path }: Issue): ParseResult.ParseIssue => {
  const type = new ParseResult.Type(SchemaAST.unknownKeyword, undefined, message)
  const [first, ...rest] = path
  return first === undefined ? type : new ParseResult.Pointer([first, ...rest], undefined, type)
}

/** Checks a decoded request (adding to `issues`) and returns it, rewritten or not. */
export type Validate = (request: Req, issues: Array<Issue>) => Req

/** Which of several issues a request is refused for. */
export type PickIssue = (issues: ReadonlyArray<Issue>) => Issue | undefined

/** The decoded (and validated) request, before the handler gets it. */
export type Prepare = (request: Req, ex: Exchange) => Req

/** The success body (secrets and zero values already left out or not), before it is written. */
export type Respond = (request: Req, body: Json, ex: Exchange) => Json

/** An error to a request whose body was read, before it is written. */
export type OnError = (error: ConnectError.ConnectError, ex: Exchange) => ConnectError.ConnectError

/** The stages of one operation, from its body to its answer, in the order they run. */
export interface RouteStages {
  readonly parse: Parse
  readonly relax: Relax
  readonly decode: Decode
  readonly validate: Validate
  readonly pickIssue: PickIssue
  readonly prepare: Prepare
  readonly handler: Handler
  readonly respond: Respond
  readonly error: OnError
}

/** A route of the pipeline: an operation and its stages. */
export interface Route extends RouteStages {
  readonly op: Op
  /** The top-level fields of the operation's request (encoded names). */
  readonly fields: ReadonlySet<string>
}

// ---------------------------------------------------------------------------------------------
// The stages around the operation
// ---------------------------------------------------------------------------------------------

/** A protocol check's refusal: the error, and the status and headers that go with it when not the code's own. */
export interface Refusal {
  readonly error: ConnectError.ConnectError
  readonly status?: number
  readonly headers?: Record<string, string>
}

/** The protocol checks, by name. */
export type CheckName = "method" | "content-type" | "encoding" | "auth" | "headers" | "timeout"

/** One protocol check of a request to a known operation. */
export interface Check {
  readonly name: CheckName
  readonly run: (input: Input, op: Op) => Refusal | undefined
}

/** The protocol checks, in order: before the body is read, and once it is decoded. */
export interface Checks {
  readonly beforeBody: ReadonlyArray<Check>
  readonly afterBody: ReadonlyArray<Check>
}

/** How a request whose `Connect-Timeout-Ms` gives `millis` is timed; `started` is when it arrived (`performance.now()`). */
export type Deadline = (
  work: Effect.Effect<Answer>,
  millis: number,
  started: number
) => Effect.Effect<Answer>

/** Before the operation runs (and before the fault plan's own faults): an answer, or `undefined` to go on. */
export type Admit = () => Answer | undefined

/** Writes an error: its code's status unless a protocol status is given. */
export type WriteError = (
  error: ConnectError.ConnectError,
  headers: Record<string, string>,
  protocolStatus?: number
) => Output

/** Writes a success body. */
export type WriteSuccess = (headers: Record<string, string>, body: string | Uint8Array) => Output

/** The stages around every operation. */
export interface ServerStages {
  /** The route path a request path names: the path itself (routes match exactly). */
  readonly resolve: (path: string) => string
  /** The error of a path that names no operation. */
  readonly unknownRoute: (path: string) => ConnectError.ConnectError
  readonly checks: Checks
  /** The body size limit, given the one configured. */
  readonly bodyLimit: (configured: number) => number
  readonly admit: Admit
  readonly deadline: Deadline
  readonly writeError: WriteError
  readonly writeSuccess: WriteSuccess
  /** Whether responses carry the stored values of secret fields. */
  readonly returnSecrets: boolean
}

// ---------------------------------------------------------------------------------------------
// Hooks
// ---------------------------------------------------------------------------------------------

/** A hook on one stage of an operation: the stage to use given the one built so far (`next` itself to leave it). */
export type RouteHook<S> = (next: S, op: Op, fields: ReadonlySet<string>) => S

/** A hook on one stage around the operations. */
export type ServerHook<S> = (next: S) => S

/**
 * The hooks of one record: small functions over the stages of the faithful pipeline. A record
 * names only the stages it changes.
 */
export type Hooks = { readonly [K in keyof RouteStages]?: RouteHook<RouteStages[K]> } & {
  readonly [K in keyof ServerStages]?: ServerHook<ServerStages[K]>
} & {
  /** Around the whole request and its answer (latitude only: a fault plan decides per request, inside). */
  readonly around?: ServerHook<Handle>
}

/** The hooks a violation can have: every stage but `around`. */
export type ViolationHooks = Omit<Hooks, "around">

/** The stages a hook can be on. */
export type Stage = keyof Hooks
