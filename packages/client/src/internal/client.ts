import * as Answer from "@data-access/core/Answer"
import * as Attempts from "@data-access/core/Attempts"
import * as CoreDeadline from "@data-access/core/Deadline"
import * as Operation from "@data-access/core/Operation"
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
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Schedule from "effect/Schedule"
import * as ScheduleDecision from "effect/ScheduleDecision"
import * as Intervals from "effect/ScheduleIntervals"
import * as Schema from "effect/Schema"
import {
  type ClientError,
  InvalidRequestError,
  isRetryable,
  TimeoutError,
  TransportError
} from "./clientError.js"
import * as calls from "./calls.js"
import { type AnyOperation, type Call, effects, type ResolvedConfig, spanName } from "./calls.js"
import { makeDecoder } from "@data-access/schema/Decode"
import { describeParseError } from "./errors.js"

export * from "./calls.js"

/** Keeps `x-api-key` among the header names the HttpClient redacts in spans, even if the user replaced the list. */
const keepApiKeyRedacted = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.withFiberRuntime((fiber) => {
    const names = fiber.getFiberRef(Headers.currentRedactedNames)
    return Request.redactsApiKey(names)
      ? effect
      : Effect.locally(effect, Headers.currentRedactedNames, [...names, Request.API_KEY_HEADER])
  })

/**
 * Builds the function that performs one operation: encode, send with retries and deadlines,
 * decode. What a call decides (headers, deadlines, answers, retries) is `@data-access/core`'s;
 * this is the Effect 3 plumbing around it.
 */
export const makeCall = (
  httpClient: HttpClient.HttpClient,
  config: ResolvedConfig,
  op: AnyOperation
): Call => {
  const name = spanName(op)
  const encode = Schema.encodeEither(op.request as Schema.Schema<unknown, unknown>)
  const decode = makeDecoder(op.response as Schema.Schema<unknown, unknown>)
  const readSuccess = calls.readSuccess(name, (json: unknown): Answer.Decoded => {
    const decoded = decode(json)
    return Either.isRight(decoded)
      ? { ok: true, value: decoded.right }
      : { ok: false, ...describeParseError(decoded.left) }
  })
  const baseRequest = calls.baseRequest(config, op)

  const toTransportError = (error: HttpClientError.HttpClientError): ClientError =>
    error._tag === "RequestError" && error.reason !== "Transport"
      ? new InvalidRequestError({
          operation: name,
          path: "$",
          message: Transport.unbuildableMessage(name, error.reason)
        })
      : new TransportError(Transport.failure(name, error._tag === "RequestError", error.cause))

  const readResponse = (
    response: HttpClientResponse.HttpClientResponse
  ): Effect.Effect<unknown, ClientError> =>
    calls.readResponse(name, readSuccess, toTransportError, response, Clock.currentTimeMillis)

  /** One attempt under its bound: the request with its deadline header and body, exchanged and read. */
  const attempt = (
    body: HttpBody.HttpBody,
    bound: CoreDeadline.Bounded,
    onTimeout: () => ClientError
  ): Effect.Effect<unknown, ClientError> => {
    // Connect-Timeout-Ms is 1 to 10 digits; without a finite deadline it is left out.
    if (bound.header === undefined) return exchange(HttpClientRequest.setBody(baseRequest, body))
    const request = HttpClientRequest.setBody(
      HttpClientRequest.setHeader(baseRequest, Deadline.TIMEOUT_HEADER, bound.header),
      body
    )
    return Deadline.timeoutFail(exchange(request), bound.limitMillis, onTimeout)
  }

  /** The exchange: the response, read whole and decoded. */
  const exchange = (
    request: HttpClientRequest.HttpClientRequest
  ): Effect.Effect<unknown, ClientError> =>
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
        if (Either.isLeft(encoded))
          return calls.invalidRequest(name, span, describeParseError(encoded.left))
        const body = HttpBody.text(Request.body(encoded.right), Request.CONTENT_TYPE)
        const policy: Schedule.Schedule<unknown, ClientError> =
          options?.retryPolicy ?? config.retryPolicy
        // The attempts (`@data-access/core/Attempts`), the schedule stepped by hand with its state passed along.
        const plan: Attempts.Plan<Effect.Effect<unknown, ClientError>, ClientError, unknown> = {
          name,
          budgetMillis: Duration.toMillis(
            options?.timeout !== undefined ? Duration.decode(options.timeout) : config.timeout
          ),
          attemptMillis: Duration.toMillis(
            options?.attemptTimeout !== undefined
              ? Duration.decode(options.attemptTimeout)
              : config.attemptTimeout
          ),
          attempt: (bound, onTimeout) => attempt(body, bound, onTimeout),
          timeout,
          retryable,
          step: (now, error, state, next, done) =>
            Effect.flatMap(policy.step(now, error, state), ([nextState, , decision]) =>
              ScheduleDecision.isDone(decision)
                ? done()
                : next(Intervals.start(decision.intervals) - now, nextState)
            )
        }
        return Effect.withParentSpan(
          Effect.clockWith((clock) =>
            Attempts.run(
              effects,
              plan,
              span,
              {
                millis: () => clock.unsafeCurrentTimeMillis(),
                nanos: () => clock.unsafeCurrentTimeNanos()
              },
              policy.initial
            )
          ),
          span
        )
      })
    )
}
