import * as Answer from "@data-access/core/Answer"
import * as Attempts from "@data-access/core/Attempts"
import * as CoreDeadline from "@data-access/core/Deadline"
import * as Operation from "@data-access/core/Operation"
import * as Request from "@data-access/core/Request"
import * as Timeout from "@data-access/core/Timeout"
import * as Transport from "@data-access/core/Transport"
import * as Operations from "@data-access/schema-effect4/Operations"
import type * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Pull from "effect/Pull"
import * as Result from "effect/Result"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import type * as Tracer from "effect/Tracer"
import * as Headers from "effect/http/Headers"
import * as HttpBody from "effect/http/HttpBody"
import type * as HttpClient from "effect/http/HttpClient"
import type * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import {
  type ClientError,
  InvalidRequestError,
  isRetryable,
  TimeoutError,
  TransportError
} from "./clientError.js"
import type * as RetryPolicy from "../RetryPolicy.js"
import * as calls from "./calls.js"
import { type AnyOperation, type Call, effects, type ResolvedConfig, spanName } from "./calls.js"
import { makeDecoder } from "./decode.js"
import { describeIssue } from "./errors.js"

export * from "./calls.js"

/** Keeps `x-api-key` among the header names the HttpClient redacts in spans, even if the user replaced the list. */
const keepApiKeyRedacted = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(Effect.service(Headers.CurrentRedactedNames), (names) =>
    Request.redactsApiKey(names)
      ? effect
      : Effect.provideService(effect, Headers.CurrentRedactedNames, [
          ...names,
          Request.API_KEY_HEADER
        ])
  )

/**
 * Builds the function that performs one operation: encode, send with retries and deadlines,
 * decode. What a call decides (headers, deadlines, answers, retries) is `@data-access/core`'s;
 * this is the Effect 4 plumbing around it.
 */
export const makeCall = (
  httpClient: HttpClient.HttpClient,
  config: ResolvedConfig,
  op: AnyOperation
): Call => {
  const name = spanName(op)
  const encode = Schema.encodeUnknownResult(op.request as unknown as Schema.Codec<unknown, unknown>)
  const decode = makeDecoder(op.response as unknown as Schema.Codec<unknown, unknown>)
  const readSuccess = calls.readSuccess(name, (json: unknown): Answer.Decoded => {
    const decoded = decode(json)
    return Result.isSuccess(decoded)
      ? { ok: true, value: decoded.success }
      : { ok: false, ...describeIssue(decoded.failure.issue) }
  })
  const baseRequest = calls.baseRequest(config, op)

  const toTransportError = (error: HttpClientError.HttpClientError): ClientError => {
    const reason = error.reason
    return reason._tag === "InvalidUrlError" || reason._tag === "EncodeError"
      ? new InvalidRequestError({
          operation: name,
          path: "$",
          message: Transport.unbuildableMessage(name, reason._tag)
        })
      : new TransportError(Transport.failure(name, reason._tag === "TransportError", reason.cause))
  }

  const readResponse = (
    clock: Clock.Clock,
    response: HttpClientResponse.HttpClientResponse
  ): Effect.Effect<unknown, ClientError> =>
    calls.readResponse(
      name,
      readSuccess,
      toTransportError,
      response,
      Effect.sync(() => clock.currentTimeMillisUnsafe())
    )

  /** The exchange: the response, read whole and decoded. */
  const exchange = (
    clock: Clock.Clock,
    request: HttpClientRequest.HttpClientRequest
  ): Effect.Effect<unknown, ClientError> =>
    Effect.flatMap(Effect.mapError(httpClient.execute(request), toTransportError), (response) =>
      readResponse(clock, response)
    )

  /** One attempt under its bound: the request with its deadline header and body, exchanged and read. */
  const attempt = (
    clock: Clock.Clock,
    body: HttpBody.HttpBody,
    bound: CoreDeadline.Bounded,
    onTimeout: () => ClientError
  ): Effect.Effect<unknown, ClientError> => {
    // Connect-Timeout-Ms is 1 to 10 digits; without a finite deadline it is left out.
    if (bound.header === undefined)
      return exchange(clock, HttpClientRequest.setBody(baseRequest, body))
    const request = HttpClientRequest.setBody(
      HttpClientRequest.setHeader(baseRequest, Timeout.TIMEOUT_HEADER, bound.header),
      body
    )
    return Effect.timeoutOrElse(exchange(clock, request), {
      duration: Duration.millis(bound.limitMillis),
      orElse: () => Effect.fail(onTimeout())
    })
  }

  const spanOptions = {
    kind: "client" as const,
    attributes: Operation.spanAttributes(op, Operations.PACKAGE)
  }
  const timeout = (fields: Attempts.Timeout): ClientError => new TimeoutError(fields)
  const retryable = (error: ClientError) => isRetryable(error, op.safeToRetry)

  /** The attempts (`@data-access/core/Attempts`), with the schedule's own step function (it keeps its state). */
  const attempts = (
    span: Tracer.Span,
    clock: Clock.Clock,
    body: HttpBody.HttpBody,
    step: (
      now: number,
      input: ClientError
    ) => Pull.Pull<[unknown, Duration.Duration], never, unknown>,
    budgetMillis: number,
    attemptMillis: number
  ): Effect.Effect<unknown, ClientError> =>
    Attempts.run<Effect.Effect<unknown, ClientError>, ClientError, undefined>(
      effects,
      {
        name,
        budgetMillis,
        attemptMillis,
        attempt: (bound, onTimeout) => attempt(clock, body, bound, onTimeout),
        timeout,
        retryable,
        step: (now, error, state, next, done) =>
          Pull.matchEffect(step(now, error), {
            onDone: done,
            onFailure: done,
            onSuccess: ([, delay]) => next(Duration.toMillis(delay), state)
          })
      },
      span,
      {
        millis: () => clock.currentTimeMillisUnsafe(),
        nanos: () => clock.currentTimeNanosUnsafe()
      },
      undefined
    )

  // Everything below runs when the effect runs (not when the method is called), once per run.
  return (request, options) =>
    keepApiKeyRedacted(
      Effect.useSpan(name, spanOptions, (span) => {
        const encoded = encode(request)
        if (Result.isFailure(encoded))
          return calls.invalidRequest(name, span, describeIssue(encoded.failure.issue))
        const body = HttpBody.text(Request.body(encoded.success), Request.CONTENT_TYPE)
        const policy: RetryPolicy.RetryPolicy = options?.retryPolicy ?? config.retryPolicy
        const budgetMillis = Duration.toMillis(
          options?.timeout !== undefined
            ? Duration.fromInputUnsafe(options.timeout)
            : config.timeout
        )
        const attemptMillis = Duration.toMillis(
          options?.attemptTimeout !== undefined
            ? Duration.fromInputUnsafe(options.attemptTimeout)
            : config.attemptTimeout
        )
        return Effect.withParentSpan(
          Effect.flatMap(Schedule.toStep(policy), (step) =>
            Effect.clockWith((clock) =>
              attempts(span, clock, body, step, budgetMillis, attemptMillis)
            )
          ),
          span
        )
      })
    )
}
