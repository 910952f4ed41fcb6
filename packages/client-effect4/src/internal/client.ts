import * as ConnectErrorModule from "@data-access/schema-effect4/ConnectError"
import * as Operations from "@data-access/schema-effect4/Operations"
import { DEFAULT_PAGE_SIZE } from "@data-access/schema-effect4/Requests"
import type * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Pull from "effect/Pull"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type * as Tracer from "effect/Tracer"
import * as Headers from "effect/http/Headers"
import * as HttpBody from "effect/http/HttpBody"
import type * as HttpClient from "effect/http/HttpClient"
import type * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
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
import * as RetryPolicy from "../RetryPolicy.js"
import { describeIssue, isConnectPhase, systemErrorCode } from "./errors.js"
import { version } from "./version.js"

/** Options every call accepts. */
export interface CallOptions {
  readonly retryPolicy?: RetryPolicy.RetryPolicy | undefined
  readonly timeout?: Duration.Input | undefined
  readonly attemptTimeout?: Duration.Input | undefined
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

export const USER_AGENT = `@data-access/client-effect4/${version}`

export type AnyOperation = Operations.Operations[Operations.MethodName]

export type Call = (request: unknown, options?: CallOptions) => Effect.Effect<unknown, ClientError>
export type PageStream = (request: unknown, options?: StreamOptions) => Stream.Stream<unknown, ClientError | CursorRepeatedError>

const hasApiKeyName = (names: ReadonlyArray<string | RegExp>): boolean =>
  names.some((n) => (typeof n === "string" ? n.toLowerCase() === "x-api-key" : n.test("x-api-key")))

/** Keeps `x-api-key` among the header names the HttpClient redacts in spans, even if the user replaced the list. */
const keepApiKeyRedacted = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(Effect.service(Headers.CurrentRedactedNames), (names) =>
    hasApiKeyName(names) ? effect : Effect.provideService(effect, Headers.CurrentRedactedNames, [...names, "x-api-key"]))

const header = (response: HttpClientResponse.HttpClientResponse, name: string): string | undefined => response.headers[name]

const numberHeader = (response: HttpClientResponse.HttpClientResponse, name: string): number | undefined => {
  const value = header(response, name)
  if (value === undefined || value.trim() === "") return undefined
  const n = Number(value)
  return Number.isFinite(n) ? n : undefined
}

const rateLimitOf = (response: HttpClientResponse.HttpClientResponse, nowMillis: number) => {
  const limit = numberHeader(response, "x-ratelimit-limit")
  const remaining = numberHeader(response, "x-ratelimit-remaining")
  const reset = numberHeader(response, "x-ratelimit-reset")
  const retryAfterMillis = RetryPolicy.parseRetryAfter(response.headers, nowMillis)
  if (limit === undefined && remaining === undefined && reset === undefined && retryAfterMillis === undefined) return undefined
  return {
    ...(limit !== undefined ? { limit } : {}),
    ...(remaining !== undefined ? { remaining } : {}),
    ...(reset !== undefined ? { reset } : {}),
    ...(retryAfterMillis !== undefined ? { retryAfterMillis } : {})
  }
}

const parseJson = (text: string): Result.Result<unknown, string> => {
  // JSON.parse is the one call here that throws; keep it outside any generator.
  try {
    return Result.succeed(JSON.parse(text) as unknown)
  } catch {
    return Result.fail("the body is not valid JSON")
  }
}

/** The largest value `Connect-Timeout-Ms` can carry (10 digits). */
const MAX_TIMEOUT_HEADER = 9_999_999_999

const decodeErrorBody = Schema.decodeUnknownResult(ConnectErrorModule.ErrorBody)

/** The span name of an operation: `ResourceService/GetResource`. */
export const spanName = (op: AnyOperation): string => `${op.service}/${op.method}`

/**
 * Builds the function that performs one operation: encode, send with retries and deadlines,
 * decode.
 */
export const makeCall = (httpClient: HttpClient.HttpClient, config: ResolvedConfig, op: AnyOperation): Call => {
  const name = spanName(op)
  const encode = Schema.encodeUnknownResult(op.request as unknown as Schema.Codec<unknown, unknown>)
  const decode = Schema.decodeUnknownResult(op.response as unknown as Schema.Codec<unknown, unknown>)
  // The request without its body and deadline, built once: every attempt adds only those.
  const baseRequest = HttpClientRequest.post(`${config.baseUrl}${op.path}`, {
    headers: {
      "connect-protocol-version": "1",
      "user-agent": config.userAgent,
      ...op.requiredHeaders,
      "x-api-key": Redacted.value(config.apiKey)
    }
  })

  const toTransportError = (error: HttpClientError.HttpClientError): ClientError => {
    const reason = error.reason
    if (reason._tag === "InvalidUrlError" || reason._tag === "EncodeError") {
      return new InvalidRequestError({ operation: name, path: "$", message: `${reason._tag}: the request could not be built (check the base URL)` })
    }
    const code = systemErrorCode(reason.cause)
    const phase = reason._tag === "TransportError" && isConnectPhase(code) ? "connect" : "exchange"
    return new TransportError({
      operation: name,
      phase,
      message: `${name}: ${phase === "connect" ? "the connection could not be opened" : "the exchange failed before a response arrived"}${code ? ` (${code})` : ""}`,
      ...(code !== undefined ? { errorCode: code } : {})
    })
  }

  const decodeError = (path: string, message: string, requestId: string | undefined) =>
    new DecodeError({
      operation: name,
      path,
      message,
      httpStatus: 200,
      ...(requestId !== undefined ? { requestId } : {})
    })

  /** A 200: the decoded body, or a DecodeError naming the JSON path. */
  const readSuccess = (response: HttpClientResponse.HttpClientResponse, text: string): Effect.Effect<unknown, ClientError> => {
    const json = parseJson(text)
    if (Result.isFailure(json)) return Effect.fail(decodeError("$", `$: ${json.failure}`, header(response, "x-request-id")))
    const decoded = decode(json.success)
    if (Result.isFailure(decoded)) {
      const { message, path } = describeIssue(decoded.failure.issue)
      return Effect.fail(decodeError(path, message, header(response, "x-request-id")))
    }
    return Effect.succeed(decoded.success)
  }

  /** Any other status: the Connect error of the body, or the one its status falls back to. */
  const readFailure = (response: HttpClientResponse.HttpClientResponse, text: string, now: number): Effect.Effect<never, ClientError> => {
    const requestId = header(response, "x-request-id")
    const rateLimit = rateLimitOf(response, now)
    const extra = {
      httpStatus: response.status,
      operation: name,
      ...(requestId !== undefined ? { requestId } : {}),
      ...(rateLimit !== undefined ? { rateLimit } : {})
    }
    const json = parseJson(text)
    const body = Result.isSuccess(json) ? decodeErrorBody(json.success) : undefined
    if (body !== undefined && Result.isSuccess(body)) {
      return Effect.fail(
        new ConnectError({
          code: body.success.code,
          message: body.success.message ?? "",
          details: body.success.details ?? [],
          ...extra
        })
      )
    }
    return Effect.fail(
      markStatusFallback(
        new ConnectError({
          code: ConnectErrorModule.codeFromStatus(response.status),
          message: `HTTP ${response.status} without a Connect error body`,
          ...extra
        })
      )
    )
  }

  const readResponse = (clock: Clock.Clock, response: HttpClientResponse.HttpClientResponse): Effect.Effect<unknown, ClientError> =>
    Effect.flatMap(Effect.mapError(response.text, toTransportError), (text) =>
      response.status === 200 ? readSuccess(response, text) : readFailure(response, text, clock.currentTimeMillisUnsafe()))

  /** The exchange: the response, read whole and decoded. */
  const exchange = (clock: Clock.Clock, request: HttpClientRequest.HttpClientRequest): Effect.Effect<unknown, ClientError> =>
    Effect.flatMap(Effect.mapError(httpClient.execute(request), toTransportError), (response) => readResponse(clock, response))

  /** One attempt: plain code around the exchange (no generator), with the clock read once. */
  const attempt = (
    clock: Clock.Clock,
    body: HttpBody.HttpBody,
    attemptNumber: number,
    deadline: number,
    budgetMillis: number,
    attemptMillis: number
  ): Effect.Effect<unknown, ClientError> => {
    const now = clock.currentTimeMillisUnsafe()
    const remaining = deadline - now
    const overallBinds = remaining <= attemptMillis
    const limit = overallBinds ? remaining : attemptMillis
    if (limit <= 0) {
      return Effect.fail(new TimeoutError({ operation: name, scope: "overall", timeoutMillis: budgetMillis, attempts: attemptNumber - 1 }))
    }
    // Connect-Timeout-Ms is 1 to 10 digits; without a finite deadline it is left out.
    const finite = Number.isFinite(limit)
    const request = HttpClientRequest.setBody(
      finite
        ? HttpClientRequest.setHeader(baseRequest, "connect-timeout-ms", String(Math.min(MAX_TIMEOUT_HEADER, Math.max(1, Math.ceil(limit)))))
        : baseRequest,
      body
    )
    if (!finite) return exchange(clock, request)
    return Effect.timeoutOrElse(exchange(clock, request), {
      duration: Duration.millis(limit),
      orElse: () =>
        Effect.fail(
          new TimeoutError({
            operation: name,
            scope: overallBinds ? "overall" : "attempt",
            timeoutMillis: overallBinds ? budgetMillis : attemptMillis,
            attempts: attemptNumber
          })
        )
    })
  }

  /** The span's `rpc.response.code` of a failure. */
  const responseCode = (error: ClientError): string =>
    error._tag === "ConnectError" ? error.code : error._tag === "TimeoutError" ? "deadline_exceeded" : error._tag

  const spanOptions = {
    kind: "client" as const,
    attributes: {
      "rpc.system": "connect_rpc",
      "rpc.service": `${Operations.PACKAGE}.${op.service}`,
      "rpc.method": op.method
    }
  }

  /**
   * The attempts of one call, as a loop of plain functions (no generator): attempt, and on a
   * retryable failure step the policy, wait, and attempt again.
   */
  const attempts = (
    span: Tracer.Span,
    clock: Clock.Clock,
    body: HttpBody.HttpBody,
    step: (now: number, input: ClientError) => Pull.Pull<[unknown, Duration.Duration], never, unknown>,
    budgetMillis: number,
    attemptMillis: number
  ): Effect.Effect<unknown, ClientError> => {
    const deadline = clock.currentTimeMillisUnsafe() + budgetMillis
    const fail = (error: ClientError) => {
      span.attribute("rpc.response.code", responseCode(error))
      return Effect.fail(error)
    }
    const loop = (attemptNumber: number): Effect.Effect<unknown, ClientError> => {
      // Each attempt is an event on the call's span; the HttpClient adds a child span per request.
      span.event("attempt", clock.currentTimeNanosUnsafe(), { "rpc.attempt": attemptNumber })
      return Effect.matchEffect(attempt(clock, body, attemptNumber, deadline, budgetMillis, attemptMillis), {
        onSuccess: (value) => {
          span.attribute("rpc.attempts", attemptNumber)
          span.attribute("rpc.response.code", "ok")
          return Effect.succeed(value)
        },
        onFailure: (error) => {
          if (!isRetryable(error, op.safeToRetry)) return fail(error)
          const now = clock.currentTimeMillisUnsafe()
          return Pull.matchEffect(step(now, error), {
            onDone: () => fail(error),
            onFailure: () => fail(error),
            onSuccess: ([, policyDelay]) => {
              const retryAfter = error._tag === "ConnectError" ? error.rateLimit?.retryAfterMillis : undefined
              // Whole milliseconds: a fractional sleep would leave a TestClock between nanoseconds.
              const delay = Math.ceil(Math.max(Duration.toMillis(policyDelay), retryAfter ?? 0))
              if (now + delay >= deadline) return fail(error)
              const reason = error._tag === "ConnectError" ? error.code : error._tag
              span.event("retry", clock.currentTimeNanosUnsafe(), {
                "rpc.attempt": attemptNumber,
                "retry.delay_ms": delay,
                "retry.reason": reason
              })
              // The next attempt is built after the wait: it reads the clock for its own deadline.
              const next = Effect.suspend(() => loop(attemptNumber + 1))
              return Effect.andThen(
                Effect.logDebug(`${name}: attempt ${attemptNumber} failed (${reason}); retrying in ${Math.round(delay)} ms`),
                delay > 0 ? Effect.andThen(Effect.sleep(Duration.millis(delay)), next) : next
              )
            }
          })
        }
      })
    }
    return loop(1)
  }

  // Everything below runs when the effect runs (not when the method is called), once per run.
  return (request, options) =>
    keepApiKeyRedacted(
      Effect.useSpan(name, spanOptions, (span) => {
        const encoded = encode(request)
        if (Result.isFailure(encoded)) {
          const { message, path } = describeIssue(encoded.failure.issue)
          const error = new InvalidRequestError({ operation: name, path, message })
          span.attribute("rpc.response.code", responseCode(error))
          return Effect.fail(error)
        }
        const body = HttpBody.text(JSON.stringify(encoded.success), "application/json")
        const policy: RetryPolicy.RetryPolicy = options?.retryPolicy ?? config.retryPolicy
        const budgetMillis = Duration.toMillis(options?.timeout !== undefined ? Duration.fromInputUnsafe(options.timeout) : config.timeout)
        const attemptMillis = Duration.toMillis(
          options?.attemptTimeout !== undefined ? Duration.fromInputUnsafe(options.attemptTimeout) : config.attemptTimeout
        )
        return Effect.withParentSpan(
          Effect.flatMap(Schedule.toStep(policy), (step) =>
            Effect.clockWith((clock) => attempts(span, clock, body, step, budgetMillis, attemptMillis))),
          span
        )
      })
    )
}

/** The item type of a List response: the element type of its one array field. */
export type ItemOf<M extends Operations.ListMethod> = {
  [K in keyof Operations.ResponseOf<M>]: K extends "listMetadata"
    ? never
    : Operations.ResponseOf<M>[K] extends ReadonlyArray<infer I> ? I : never
}[keyof Operations.ResponseOf<M>]

/** Follows `nextCursor` from page to page, failing if a cursor repeats. */
export const pages = <A, E>(
  operation: string,
  fetchPage: (cursor: string | undefined) => Effect.Effect<{ readonly items: ReadonlyArray<A>; readonly nextCursor: string }, E>
): Stream.Stream<A, E | CursorRepeatedError> =>
  Stream.paginate(
    { cursor: undefined as string | undefined, page: 1, seen: new Set<string>() },
    (s) =>
      Effect.flatMap(fetchPage(s.cursor), (page) => {
        const next = page.nextCursor
        if (next === "") return Effect.succeed([page.items, Option.none()] as const)
        if (s.seen.has(next) || next === s.cursor) {
          return Effect.fail(new CursorRepeatedError({ operation, page: s.page }))
        }
        const seen = new Set(s.seen).add(next)
        return Effect.succeed([page.items, Option.some({ cursor: next as string | undefined, page: s.page + 1, seen })] as const)
      })
  )

/** The paging stream of a List operation. */
export const makePageStream = (call: Call, op: AnyOperation): PageStream => {
  const name = spanName(op)
  const itemField = op.itemField ?? ""
  return (request, options) => {
    const pageSize = options?.pageSize ?? DEFAULT_PAGE_SIZE
    return pages(name, (cursor) =>
      Effect.map(
        call({ ...(request as object), limit: pageSize, ...(cursor !== undefined ? { cursor } : {}) }, options),
        (response) => {
          const r = response as Record<string, unknown> & { readonly listMetadata?: { readonly nextCursor?: string } }
          return {
            items: (r[itemField] ?? []) as ReadonlyArray<unknown>,
            nextCursor: r.listMetadata?.nextCursor ?? ""
          }
        }
      ))
  }
}
