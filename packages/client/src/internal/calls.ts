/**
 * What both lines' clients build their calls and paging streams from: the options, the resolved
 * configuration, the effect operations of `@data-access/core/Attempts` and the paging stream of a
 * List operation. The same code on both lines (each line's `paginate` is its own `Stream`'s); `@data-access/client-effect4` generates its copy
 * from this file (its `scripts/generate.mjs`).
 */
import * as Answer from "@data-access/core/Answer"
import type * as Attempts from "@data-access/core/Attempts"
import * as Operation from "@data-access/core/Operation"
import * as Paging from "@data-access/core/Paging"
import * as Request from "@data-access/core/Request"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as Operations from "@data-access/schema/Operations"
import { DEFAULT_PAGE_SIZE } from "@data-access/schema/Requests"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type * as Stream from "effect/Stream"
import {
  type ClientError,
  ConnectError,
  CursorRepeatedError,
  DecodeError,
  InvalidRequestError,
  markStatusFallback
} from "./clientError.js"
import type * as RetryPolicy from "../RetryPolicy.js"
import { paginate } from "./paginate.js"
import { version } from "./version.js"

/** Options every call accepts. */
export interface CallOptions {
  readonly retryPolicy?: RetryPolicy.RetryPolicy | undefined
  readonly timeout?: Duration.DurationInput | undefined
  readonly attemptTimeout?: Duration.DurationInput | undefined
}

/** Options of a paging stream. */
export interface StreamOptions extends CallOptions {
  readonly pageSize?: number | undefined
}

export interface ResolvedConfig {
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted<string>
  readonly retryPolicy: RetryPolicy.RetryPolicy
  readonly timeout: Duration.Duration
  readonly attemptTimeout: Duration.Duration
  readonly userAgent: string
}

export const USER_AGENT = `@data-access/client/${version}`

export type AnyOperation = Operations.Operations[Operations.MethodName]

export type Call = (request: unknown, options?: CallOptions) => Effect.Effect<unknown, ClientError>
export type PageStream = (
  request: unknown,
  options?: StreamOptions
) => Stream.Stream<unknown, ClientError | CursorRepeatedError>

/** The item type of a List response: the element type of its one array field. */
export type ItemOf<M extends Operations.ListMethod> = Paging.ItemOf<Operations.ResponseOf<M>>

/** The effect operations `@data-access/core/Attempts` writes a call's attempts with. */
export const effects: Attempts.Effects<Effect.Effect<unknown, ClientError>, ClientError> = {
  succeed: Effect.succeed,
  fail: Effect.fail,
  match: (self, onFailure, onSuccess) => Effect.matchEffect(self, { onFailure, onSuccess }),
  suspend: Effect.suspend,
  logDebug: (message, self) => Effect.andThen(Effect.logDebug(message), self),
  sleep: (millis, self) => Effect.andThen(Effect.sleep(Duration.millis(millis)), self)
}

/** A 200's body: the value `decode` made of its JSON, or a `DecodeError` naming the JSON path. */
export const readSuccess =
  (operation: string, decode: (json: unknown) => Answer.Decoded) =>
  (header: Answer.Header, text: string): Effect.Effect<unknown, ClientError> => {
    const body = Answer.readBody(operation, text, header, decode)
    return body.ok ? Effect.succeed(body.value) : Effect.fail(new DecodeError(body.failure))
  }

/** Any other status: the Connect error of the body, or the one its status falls back to, at `now`. */
export const readFailure = (
  operation: string,
  status: number,
  header: Answer.Header,
  text: string,
  now: number
): Effect.Effect<never, ClientError> => {
  const { statusFallback, ...fields } = Answer.readFailure(operation, status, header, text, now)
  const error = new ConnectError(fields)
  return Effect.fail(statusFallback ? markStatusFallback(error) : error)
}

/**
 * A response read whole (a failure to read it is `toTransportError`'s): a success's body through
 * `readSuccess`, any other status's Connect error at the time `now` reads.
 */
export const readResponse = <E>(
  operation: string,
  readSuccess: (header: Answer.Header, text: string) => Effect.Effect<unknown, ClientError>,
  toTransportError: (error: E) => ClientError,
  response: {
    readonly status: number
    readonly headers: Readonly<Record<string, string | undefined>>
    readonly text: Effect.Effect<string, E>
  },
  now: Effect.Effect<number>
): Effect.Effect<unknown, ClientError> =>
  Effect.flatMap(Effect.mapError(response.text, toTransportError), (text) => {
    const header = (h: string) => response.headers[h]
    return Answer.isSuccess(response.status)
      ? readSuccess(header, text)
      : Effect.flatMap(now, (millis) =>
          readFailure(operation, response.status, header, text, millis)
        )
  })

/** A request that breaks its schema: an `InvalidRequestError` naming the JSON path, recorded on the span, and nothing sent. */
export const invalidRequest = (
  operation: string,
  span: Attempts.Span,
  problem: { readonly path: string; readonly message: string }
) => {
  const error = new InvalidRequestError({
    operation,
    path: problem.path,
    message: Operation.messageOf(operation, problem.message)
  })
  span.attribute("rpc.response.code", Operation.responseCode(error))
  return Effect.fail(error)
}

/** An operation's request without its body and deadline, built once: every attempt adds only those. */
export const baseRequest = (
  config: ResolvedConfig,
  op: AnyOperation
): HttpClientRequest.HttpClientRequest =>
  HttpClientRequest.post(Request.url(config.baseUrl, op), {
    headers: Request.headers(op, config.userAgent, Redacted.value(config.apiKey))
  })

/** The span name of an operation: `ResourceService/GetResource`. */
export const spanName = Operation.spanName

/** A source of pages: the first page for `undefined`, then the page of each `nextCursor`. */
export type FetchPage<A, E> = (
  cursor: string | undefined
) => Effect.Effect<{ readonly items: ReadonlyArray<A>; readonly nextCursor: string }, E>

/**
 * One step of a paging stream (`@data-access/core/Paging`'s walk): the page's items and the walk
 * to the next page (none after the last), or a `CursorRepeatedError` when a cursor comes back.
 */
export const nextPage =
  <A, E>(operation: string, fetchPage: FetchPage<A, E>) =>
  (
    walk: Paging.Walk
  ): Effect.Effect<
    readonly [ReadonlyArray<A>, Option.Option<Paging.Walk>],
    E | CursorRepeatedError
  > =>
    Effect.flatMap(fetchPage(walk.cursor), (page) => {
      const step = Paging.step(walk, page.nextCursor)
      if (step._tag === "Repeated")
        return Effect.fail(new CursorRepeatedError({ operation, page: step.page }))
      return Effect.succeed([
        page.items,
        step._tag === "Next" ? Option.some(step.walk) : Option.none()
      ] as const)
    })

/** Follows `nextCursor` from page to page, failing if a cursor repeats. */
export const pages = <A, E>(
  operation: string,
  fetchPage: FetchPage<A, E>
): Stream.Stream<A, E | CursorRepeatedError> =>
  paginate(Paging.start(), nextPage(operation, fetchPage))

/** The paging stream of a List operation. */
export const makePageStream = (call: Call, op: AnyOperation): PageStream => {
  const name = spanName(op)
  return (request, options) => {
    const plan = Paging.plan(op, request, options?.pageSize ?? DEFAULT_PAGE_SIZE)
    return pages(name, (cursor) => Effect.map(call(plan.request(cursor), options), plan.page))
  }
}
