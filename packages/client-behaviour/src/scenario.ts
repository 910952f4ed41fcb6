/**
 * Tests of a client written once for both lines as scenarios: a generator of steps (a call of the
 * line's client, the server's request log, a log line, what the line's tracer and logger
 * recorded) that receives each step's answer and checks it with the `expect` it is given. Each
 * line runs a scenario with a small interpreter over its own client: the step's effect, and
 * `drive` inside its `Effect.gen`.
 */
import type { CapturedSpan } from "./capture.js"
import type { Call, Observed, Outcome } from "./model.js"
import { type Expect, verifyOutcome } from "./verify.js"
import type { OperationShape } from "./integration.js"
import type { Ids } from "./requests.js"

/**
 * A loopback address where nothing listens: port 2, privileged and out of the ephemeral range, so
 * no test server takes it (a port freed by a server that stopped may be taken again at once by
 * another test's server), and not one of the ports fetch refuses to call (9, the discard port,
 * is).
 */
export const REFUSED_URL = "http://127.0.0.1:2"

/** A call of a scenario: a case's call, on one of the scenario's servers, through a client the call may change. */
export interface ScenarioCall extends Omit<Call, "baseUrl" | "interruptAfter"> {
  /** The server, a key of the scenario's `servers` (default `main`). */
  readonly server?: string
  /** Call through the operation's service client (`Services.ResourceService`...) instead of the combined client. */
  readonly viaService?: boolean
  /** The layer's API key instead of the server's. */
  readonly apiKey?: string
  /** The layer's base URL, from the server's. */
  readonly baseUrl?: (serverUrl: string) => string
  /** Headers set on every request the client sends, over the client's own. */
  readonly headers?: Readonly<Record<string, string>>
  /** Fields added to every request's JSON body once the client wrote it. */
  readonly extraFields?: Readonly<Record<string, unknown>>
  /**
   * The call under the line's `ClientError.catchCodes`, with a handler for each of these codes
   * that succeeds with what `caught` makes of the error (`codeHandlers`).
   */
  readonly catchCodes?: ReadonlyArray<string>
}

/** What a `catchCodes` handler of a scenario succeeds with: the code, operation and message of the error it caught. */
export const caught = (error: {
  readonly code: string
  readonly operation?: string | undefined
  readonly message: string
}) => ({ caught: error.code, operation: error.operation, message: error.message })

/** The handlers a line passes to its `ClientError.catchCodes` for `ScenarioCall.catchCodes`: `succeed` is the line's `Effect.succeed`. */
export const codeHandlers = <X>(
  codes: ReadonlyArray<string>,
  succeed: (value: ReturnType<typeof caught>) => X
): Readonly<Record<string, (error: Parameters<typeof caught>[0]) => X>> =>
  Object.fromEntries(codes.map((code) => [code, (error) => succeed(caught(error))]))

/** A request as the client sent it. */
export interface SentRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  /** The JSON body, read. */
  readonly body: unknown
}

/** What a call gave: how it ended, every request it sent, and its time on the real clock. */
export interface Called {
  readonly result: Observed["result"]
  readonly sent: ReadonlyArray<SentRequest>
  readonly millis: number
}

/** One request of a server's request log. */
export interface RequestLine {
  readonly method?: string | undefined
  /** `ok`, a Connect code, `bare-status`... */
  readonly code: string
}

/** What the line's test tracer and logger recorded. */
export interface Recorded {
  readonly spans: ReadonlyArray<CapturedSpan>
  readonly lines: ReadonlyArray<string>
  /** Everything, as text. */
  readonly dump: string
}

/**
 * A step of a scenario, and (in the comments) what the line answers it with.
 */
export type Step =
  /** `Called`. */
  | { readonly _tag: "Call"; readonly call: ScenarioCall }
  /** The server's `RequestLine`s so far. */
  | { readonly _tag: "Requests"; readonly server: string }
  /** Nothing: the line logs the message and the parts at that level. */
  | {
      readonly _tag: "Log"
      readonly level: "Debug" | "Error"
      readonly message: string
      readonly parts: ReadonlyArray<unknown>
    }
  /** `Recorded`. */
  | { readonly _tag: "Recorded" }

/** A reference server a scenario starts (the options of its command line). */
export interface ServerOptions {
  /** A fault plan (`Faults.FaultPlan` of the reference server), as JSON. */
  readonly faults?: unknown
  readonly latitude?: ReadonlyArray<string>
  readonly emitDefaults?: boolean
  readonly maxBodyBytes?: number
}

/** A started server, as a scenario sees it. */
export interface ServerInfo {
  readonly url: string
  readonly apiKey: string
  readonly knownIds: Ids & { readonly resources: ReadonlyArray<string> }
}

/** What a line gives a scenario. */
export interface ScenarioContext {
  readonly expect: Expect
  /** The servers the scenario asked for, started. */
  readonly servers: Readonly<Record<string, ServerInfo>>
  /** The line's operation table. */
  readonly operations: ReadonlyArray<OperationShape>
  /** The line's `Redacted.make`. */
  readonly secret: (value: string) => unknown
  /** The value of a line's `Redacted`; `undefined` for anything else. */
  readonly reveal: (u: unknown) => string | undefined
}

/** A test of a client, written once. */
export interface Scenario {
  readonly name: string
  /** The reference servers to start, by name (none: the test gives its client). */
  readonly servers?: Readonly<Record<string, ServerOptions>>
  /** Record spans and logs with the line's test tracer and logger, inside a span named after the scenario. */
  readonly capture?: boolean
  readonly run: (context: ScenarioContext) => Generator<Step, void, unknown>
}

/**
 * Runs a scenario's steps inside a line's `Effect.gen` (`yield* drive(steps, perform)`): `perform`
 * is the line's effect for a step, and what it succeeds with is the step's answer.
 */
export function* drive<Y>(
  steps: Iterator<Step, void, unknown>,
  perform: (step: Step) => Iterable<Y, unknown, unknown>
): Generator<Y, void, unknown> {
  let next = steps.next()
  while (next.done !== true) next = steps.next(yield* perform(next.value))
}

/** The server of that name. */
export const server = (context: ScenarioContext, name = "main"): ServerInfo => {
  const found = context.servers[name]
  if (found === undefined) throw new Error(`the scenario started no server ${name}`)
  return found
}

/** Makes a call. */
export function* call(c: ScenarioCall): Generator<Step, Called, unknown> {
  return (yield { _tag: "Call", call: c }) as Called
}

/** The server's request log so far. */
export function* requests(name = "main"): Generator<Step, ReadonlyArray<RequestLine>, unknown> {
  return (yield { _tag: "Requests", server: name }) as ReadonlyArray<RequestLine>
}

/** Logs a message and its parts at a level. */
export function* log(
  level: "Debug" | "Error",
  message: string,
  parts: ReadonlyArray<unknown>
): Generator<Step, void, unknown> {
  yield { _tag: "Log", level, message, parts }
}

/** What the line's tracer and logger recorded so far. */
export function* recorded(): Generator<Step, Recorded, unknown> {
  return (yield { _tag: "Recorded" }) as Recorded
}

/** Makes a call that must end as `outcome` (checked as a case's outcome is); what the call gave. */
export function* expectCall(
  c: ScenarioCall,
  outcome: Outcome,
  expect: Expect
): Generator<Step, Called, unknown> {
  const called = yield* call(c)
  verifyOutcome(outcome, called.result, expect)
  return called
}

/** The value of a call that must succeed. */
export function* value<A = unknown>(c: ScenarioCall, expect: Expect): Generator<Step, A, unknown> {
  const { result } = yield* expectCall(c, { _tag: "Success" }, expect)
  return (result as { readonly value: A }).value
}

/** The error of a call that must fail. */
export function* failure(c: ScenarioCall, expect: Expect): Generator<Step, unknown, unknown> {
  const { result } = yield* expectCall(c, { _tag: "Failure", error: {} }, expect)
  return (result as { readonly error: unknown }).error
}

/** A request as a line's `HttpClient` holds it: what `sentOf` and the fake server read of it. */
export interface RequestLike {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: { readonly _tag: string; readonly body?: unknown }
}

/** A request as a scenario's call (and the fake server) records it: its JSON body read. */
export const sentOf = (request: RequestLike): SentRequest => ({
  url: request.url,
  headers: { ...request.headers },
  body:
    request.body._tag === "Uint8Array"
      ? JSON.parse(new TextDecoder().decode(request.body.body as Uint8Array))
      : undefined
})

/** A JSON body with `fields` added (`ScenarioCall.extraFields`). */
export const withFields = (bytes: Uint8Array, fields: Readonly<Record<string, unknown>>): string =>
  JSON.stringify({ ...(JSON.parse(new TextDecoder().decode(bytes)) as object), ...fields })
