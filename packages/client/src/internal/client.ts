import * as Answer from "@data-access/core/Answer"
import * as Attempts from "@data-access/core/Attempts"
import * as CoreDeadline from "@data-access/core/Deadline"
import * as Operation from "@data-access/core/Operation"
import * as Paging from "@data-access/core/Paging"
import * as Request from "@data-access/core/Request"
import * as Transport from "@data-access/core/Transport"
import * as Headers from "@effect/platform/Headers"
import * as HttpBody from "@effect/platform/HttpBody"
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Deadline from "@data-access/schema/Deadline"
import * as Operations from "@data-access/schema/Operations"
import { DEFAULT_PAGE_SIZE } from "@data-access/schema/Requests"
import * as Chunk from "effect/Chunk"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type * as Schedule from "effect/Schedule"
import * as ScheduleDecision from "effect/ScheduleDecision"
import * as Intervals from "effect/ScheduleIntervals"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import {
  type ClientError,
  ConnectError,
  CursorRepeatedError,
  DecodeError,
  InvalidRequestError,
  isRetryable,
  markStatusFallback,
  TimeoutError,
  TransportError
} from "../ClientError.js"
import type * as RetryPolicy from "../RetryPolicy.js"
import { makeDecoder } from "./decode.js"
import { describeParseError } from "./errors.js"
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
export type PageStream = (request: unknown, options?: StreamOptions) => Stream.Stream<unknown, ClientError | CursorRepeatedError>

/** Keeps `x-api-key` among the header names the HttpClient redacts in spans, even if the user replaced the list. */
const keepApiKeyRedacted = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.withFiberRuntime((fiber) => {
    const names = fiber.getFiberRef(Headers.currentRedactedNames)
    return Request.redactsApiKey(names)
      ? effect
      : Effect.locally(effect, Headers.currentRedactedNames, [...names, Request.API_KEY_HEADER])
  })

/** The effect operations `@data-access/core/Attempts` writes a call's attempts with. */
const effects: Attempts.Effects<Effect.Effect<unknown, ClientError>, ClientError> = {
  succeed: Effect.succeed,
  fail: Effect.fail,
  match: (self, onFailure, onSuccess) => Effect.matchEffect(self, { onFailure, onSuccess }),
  suspend: Effect.suspend,
  logDebug: (message, self) => Effect.zipRight(Effect.logDebug(message), self),
  sleep: (millis, self) => Effect.zipRight(Effect.sleep(Duration.millis(millis)), self)
}

/** The span name of an operation: `ResourceService/GetResource`. */
export const spanName = Operation.spanName

/**
 * Builds the function that performs one operation: encode, send with retries and deadlines,
 * decode. What a call decides (headers, deadlines, answers, retries) is `@data-access/core`'s;
 * this is the Effect 3 plumbing around it.
 */
export const makeCall = (httpClient: HttpClient.HttpClient, config: ResolvedConfig, op: AnyOperation): Call => {
  const name = spanName(op)
  const encode = Schema.encodeEither(op.request as Schema.Schema<unknown, unknown>)
  const decode = makeDecoder(op.response as Schema.Schema<unknown, unknown>)
  // The request without its body and deadline, built once: every attempt adds only those.
  const baseRequest = HttpClientRequest.post(Request.url(config.baseUrl, op), {
    headers: Request.headers(op, config.userAgent, Redacted.value(config.apiKey))
  })

  const toTransportError = (error: HttpClientError.HttpClientError): ClientError =>
    error._tag === "RequestError" && error.reason !== "Transport"
      ? new InvalidRequestError({ operation: name, path: "$", message: Transport.unbuildableMessage(error.reason) })
      : new TransportError(Transport.failure(name, error._tag === "RequestError", error.cause))

  /** A 200: the decoded body, or a DecodeError naming the JSON path. */
  const readSuccess = (response: HttpClientResponse.HttpClientResponse, text: string): Effect.Effect<unknown, ClientError> => {
    const header = (h: string) => response.headers[h]
    const json = Answer.parseJson(text)
    if (!json.ok) return Effect.fail(new DecodeError(Answer.decodeFailure(name, "$", `$: ${json.message}`, header)))
    const decoded = decode(json.value)
    if (Either.isLeft(decoded)) {
      const { message, path } = describeParseError(decoded.left)
      return Effect.fail(new DecodeError(Answer.decodeFailure(name, path, message, header)))
    }
    return Effect.succeed(decoded.right)
  }

  /** Any other status: the Connect error of the body, or the one its status falls back to. */
  const readFailure = (response: HttpClientResponse.HttpClientResponse, text: string): Effect.Effect<never, ClientError> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const { statusFallback, ...fields } = Answer.readFailure(name, response.status, (h) => response.headers[h], text, now)
      const error = new ConnectError(fields)
      return Effect.fail(statusFallback ? markStatusFallback(error) : error)
    })

  const readResponse = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<unknown, ClientError> =>
    Effect.flatMap(Effect.mapError(response.text, toTransportError), (text) =>
      Answer.isSuccess(response.status) ? readSuccess(response, text) : readFailure(response, text))

  /** One attempt under its bound: the request with its deadline header and body, exchanged and read. */
  const attempt = (
    body: HttpBody.HttpBody,
    bound: CoreDeadline.Bounded,
    onTimeout: () => ClientError
  ): Effect.Effect<unknown, ClientError> => {
    // Connect-Timeout-Ms is 1 to 10 digits; without a finite deadline it is left out.
    if (bound.header === undefined) return exchange(HttpClientRequest.setBody(baseRequest, body))
    const request = HttpClientRequest.setBody(HttpClientRequest.setHeader(baseRequest, Deadline.TIMEOUT_HEADER, bound.header), body)
    return Deadline.timeoutFail(exchange(request), bound.limitMillis, onTimeout)
  }

  /** The exchange: the response, read whole and decoded. */
  const exchange = (request: HttpClientRequest.HttpClientRequest): Effect.Effect<unknown, ClientError> =>
    Effect.flatMap(Effect.mapError(httpClient.execute(request), toTransportError), readResponse)

  const spanOptions = {
    kind: "client" as const,
    attributes: Operation.spanAttributes(op, Operations.PACKAGE),
    // A stack trace per call costs more than the rest of the span; the span's name says where it is from.
    captureStackTrace: false
  }

  const timeout = (fields: Attempts.Timeout): ClientError => new TimeoutError(fields)
  const retryable = (error: ClientError) => isRetryable(error, op.safeToRetry)

  // Everything below runs when the effect runs (not when the method is called), once per run.
  return (request, options) =>
    keepApiKeyRedacted(
      Effect.useSpan(name, spanOptions, (span) => {
        const encoded = encode(request)
        if (Either.isLeft(encoded)) {
          const { message, path } = describeParseError(encoded.left)
          const error = new InvalidRequestError({ operation: name, path, message })
          span.attribute("rpc.response.code", Operation.responseCode(error))
          return Effect.fail(error)
        }
        const body = HttpBody.text(Request.body(encoded.right), Request.CONTENT_TYPE)
        const policy: Schedule.Schedule<unknown, ClientError> = options?.retryPolicy ?? config.retryPolicy
        // The attempts (`@data-access/core/Attempts`), the schedule stepped by hand with its state passed along.
        const plan: Attempts.Plan<Effect.Effect<unknown, ClientError>, ClientError, unknown> = {
          name,
          budgetMillis: Duration.toMillis(options?.timeout !== undefined ? Duration.decode(options.timeout) : config.timeout),
          attemptMillis: Duration.toMillis(
            options?.attemptTimeout !== undefined ? Duration.decode(options.attemptTimeout) : config.attemptTimeout
          ),
          attempt: (bound, onTimeout) => attempt(body, bound, onTimeout),
          timeout,
          retryable,
          step: (now, error, state, next, done) =>
            Effect.flatMap(policy.step(now, error, state), ([nextState, , decision]) =>
              ScheduleDecision.isDone(decision) ? done() : next(Intervals.start(decision.intervals) - now, nextState))
        }
        return Effect.withParentSpan(
          Effect.clockWith((clock) =>
            Attempts.run(effects, plan, span, { millis: () => clock.unsafeCurrentTimeMillis(), nanos: () => clock.unsafeCurrentTimeNanos() }, policy.initial)
          ),
          span
        )
      })
    )
}

/** The item type of a List response: the element type of its one array field. */
export type ItemOf<M extends Operations.ListMethod> = Paging.ItemOf<Operations.ResponseOf<M>>

/** Follows `nextCursor` from page to page (`@data-access/core/Paging`'s walk), failing if a cursor repeats. */
export const pages = <A, E>(
  operation: string,
  fetchPage: (cursor: string | undefined) => Effect.Effect<{ readonly items: ReadonlyArray<A>; readonly nextCursor: string }, E>
): Stream.Stream<A, E | CursorRepeatedError> =>
  Stream.paginateChunkEffect(Paging.start(), (walk) =>
    Effect.flatMap(fetchPage(walk.cursor), (page) => {
      const step = Paging.step(walk, page.nextCursor)
      if (step._tag === "Repeated") return Effect.fail(new CursorRepeatedError({ operation, page: step.page }))
      return Effect.succeed([Chunk.fromIterable(page.items), step._tag === "Next" ? Option.some(step.walk) : Option.none()] as const)
    }))

/** The paging stream of a List operation. */
export const makePageStream = (call: Call, op: AnyOperation): PageStream => {
  const name = spanName(op)
  return (request, options) => {
    const plan = Paging.plan(op, request, options?.pageSize ?? DEFAULT_PAGE_SIZE)
    return pages(name, (cursor) => Effect.map(call(plan.request(cursor), options), plan.page))
  }
}
