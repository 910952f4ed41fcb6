/**
 * Raw HTTP exchanges with the target: full control of method, headers and body, the raw
 * response kept for the checks. The API key never enters an `Exchange`: requests name which key
 * to send (`valid`, `missing`, `empty`, `wrong`) and the key is put in only at send time.
 */
import * as HttpBody from "@effect/platform/HttpBody"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as RateLimiter from "effect/RateLimiter"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import { ContentType, JsonBody, RetryAfter } from "@data-access/schema"
import { HOOK_MASK, hookHeaders, type RequestHooks } from "./requestHooks.js"
import { type KeyMode, nearKey, WRONG_KEY } from "./keys.js"
import { readBody } from "./answerBody.js"
import { brokeBeforeAnswer, RESENDS_AFTER_BREAK } from "./resend.js"
import * as Shared from "./runner/sharedMemory.js"
import * as Compression from "@data-access/schema/Compression"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Undici from "@effect/platform-node/Undici"
import * as Layer from "effect/Layer"

/** A request as sent: method, path, which key, content type, headers, body. */
export interface RawRequest {
  readonly method: string
  readonly path: string
  readonly key: KeyMode
  /** `Content-Type`; `undefined` sends none. */
  readonly contentType: string | undefined
  /** Extra headers (lowercase names); `Connect-Protocol-Version: 1` is sent unless `protocolVersion` is `undefined`. */
  readonly headers: Readonly<Record<string, string>>
  readonly protocolVersion: string | undefined
  readonly body: string | undefined
  /** Send the body compressed with this encoding, with its `Content-Encoding` (`body` stays the text before it). */
  readonly contentEncoding?: Compression.Encoding | undefined
}

/** A response as received, with its body parsed when it is JSON. */
export interface RawResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
  /** The parsed body, when it is JSON. */
  readonly json: Option.Option<unknown>
  /** Why the body, read as JSON, is not the UTF-8 JSON text RFC 8259 allows (`notJsonText`). */
  readonly notJsonText?: string | undefined
}

/** One request and what came back (or why nothing came back). */
export interface Exchange {
  readonly request: RawRequest
  /** `None` when no response came (timeout, connection dropped or refused). */
  readonly response: Option.Option<RawResponse>
  readonly transportError: string | undefined
  /** Local clock (epoch millis) when the response was complete. */
  readonly receivedAt: number
  readonly durationMs: number
  /** The 429 and 503 answers to the same request that were retried before this one. */
  readonly retried?: ReadonlyArray<RawResponse>
  /**
   * The size of the request body in bytes when `request.body` is not the whole body (a relayed
   * body too long to keep: its byte count; one not seen to its end: infinity).
   */
  readonly requestBytes?: number
  /**
   * When no response came within the per-request timeout: the timeout, and the slowest 200 answer
   * the target gave to the same path earlier in the run (`undefined` when it served none), so that
   * a hang is told from a slow target by the target's own latency.
   */
  readonly timedOut?: { readonly afterMs: number; readonly slowestAnswerMs: number | undefined }
}

/**
 * The wait an answer asks for: its `Retry-After` header as a number of seconds, if it has one. The
 * contract says seconds (decisions.md section 2), so an HTTP date or `retry-after-ms` is not one.
 */
export const retryAfterSeconds = (r: RawResponse): number | undefined =>
  RetryAfter.parseSeconds(r.headers[RetryAfter.HEADER])

/** The JSON body of a 200 answer. */
export const okJson = (e: Exchange): unknown =>
  Option.getOrUndefined(
    Option.flatMap(e.response, (r) => (r.status === 200 ? r.json : Option.none()))
  )

/** The request body's size in bytes: `requestBytes` when the exchange kept only part of it. */
export const requestBytesOf = (e: Exchange): number =>
  e.requestBytes ?? (e.request.body === undefined ? 0 : Buffer.byteLength(e.request.body))

/**
 * A 429 without `Retry-After` to a body over 1 MiB is the server refusing the body for its size
 * (resource_exhausted), not a rate limit: the same body is refused again, so it is not retried.
 */
const isSizeRefusal = (e: Exchange, r: RawResponse): boolean =>
  r.status === 429 &&
  retryAfterSeconds(r) === undefined &&
  requestBytesOf(e) > JsonBody.GUARANTEED_MAX_BYTES

/** Retries of one request answered 429 or 503. */
const MAX_RETRIES = 5

/** A request with the usual defaults: POST, valid key, JSON, `Connect-Protocol-Version: 1`. */
export const post = (
  path: string,
  body: unknown,
  overrides: Partial<RawRequest> = {}
): RawRequest => ({
  method: "POST",
  path,
  key: "valid",
  contentType: ContentType.JSON_MEDIA_TYPE,
  headers: {},
  protocolVersion: "1",
  body: body === undefined ? undefined : JSON.stringify(body),
  ...overrides
})

/** The request budget is spent: no more requests are sent. */
export class BudgetExhausted extends Schema.TaggedError<BudgetExhausted>(
  "@data-access/contract-tests/BudgetExhausted"
)("BudgetExhausted", { maxRequests: Schema.Number }) {
  override get message(): string {
    return `the request budget of ${this.maxRequests} requests is spent`
  }
}

/** How to reach the target and how hard to push it. */
export interface TargetOptions {
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted<string>
  /** Requests per second; `undefined` is unlimited. */
  readonly rateLimit: number | undefined
  readonly timeout: Duration.Duration
  readonly maxRequests: number
  /** Retry 429 and 503 answers (after `Retry-After`, at most 5 times). */
  readonly retryThrottled: boolean
  /** Told of every exchange as sent (the key in its headers; a HAR recorder masks it). */
  readonly onSent?: ((sent: Sent) => void) | undefined
  /** The hooks' headers, asked for each request as it is sent (never in an `Exchange`, as the key). */
  readonly hooks?: RequestHooks | undefined
  /** Headers every request carries, by lower-case name (never in an `Exchange`, as the key). */
  readonly headers?: Readonly<Record<string, Redacted.Redacted<string>>> | undefined
  /** The memory a run's worker threads share: their request budget and rate limit are one. */
  readonly shared?: Shared.Shared | undefined
}

/** One request as it went on the wire and its answer, for a recorder. */
export interface Sent {
  readonly startedAt: number
  readonly url: string
  readonly method: string
  /** Lower-case names, `X-API-KEY` included. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | undefined
  readonly exchange: Exchange
}

/** Sends raw requests to the target within the rate limit and the request budget. */
export interface Target {
  readonly baseUrl: string
  readonly send: (request: RawRequest) => Effect.Effect<Exchange, BudgetExhausted>
  readonly sent: Effect.Effect<number>
  /** The `X-API-KEY` a key mode sends; `undefined` for none (`missing`, or a near key this key does not have). */
  readonly sentKey: (mode: KeyMode) => Redacted.Redacted<string> | undefined
}

const headersOf = (h: Readonly<Record<string, string>>): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v
  return out
}

const utf8Encoder = new TextEncoder()

/** Bytes a compressed answer may decompress to; a larger one is read as it came. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024

/**
 * An answer's bytes, read by its `Content-Encoding` (gzip, deflate, br) as a client reads it. An
 * answer that is not what its header says, or in an encoding not read here, is read as it came
 * (and is then no JSON, which the checks of a success see).
 */
const answerBytes = (bytes: Uint8Array, contentEncoding: string | undefined): Uint8Array => {
  const encoding = Compression.parseContentEncoding(contentEncoding)
  if (encoding._tag !== "Compressed") return bytes
  return Either.getOrElse(
    Compression.decompress(bytes, encoding.encoding, MAX_ANSWER_BYTES),
    () => bytes
  )
}

/** An answer's headers by lower-case name, a repeated header's values joined by ", " (as a `Headers` of `@effect/platform`). */
const answerHeaders = (
  h: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const k in h) {
    const v = h[k]
    if (v !== undefined) out[k.toLowerCase()] = typeof v === "string" ? v : v.join(", ")
  }
  return out
}

/** The transport's own words (connect ECONNREFUSED 127.0.0.1:9), put after the client's. */
const causeText = (cause: unknown): string => (cause instanceof Error ? `: ${cause.message}` : "")

/** Why no answer came: the text an `Exchange` shows, and whether it broke before any answer or timed out. */
interface NoAnswer {
  readonly text: string
  readonly broke: boolean
  readonly timedOut: boolean
}

/**
 * The HTTP client of the command line: undici's, its dispatcher (one keep-alive pool per origin)
 * also in the context, so that the runner sends on it directly (`makeTarget`).
 */
export const undiciLayer: Layer.Layer<HttpClient.HttpClient | NodeHttpClient.Dispatcher> =
  NodeHttpClient.layerUndiciWithoutDispatcher.pipe(
    Layer.provideMerge(NodeHttpClient.dispatcherLayer)
  )

/**
 * `self` given at most `millis`, failing with `onTimeout` after them (and interrupting `self`, as
 * `Effect.timeoutFail` does). One fiber and a plain timer: `Effect.timeoutFail` races two fibers
 * (the effect and a sleep), which costs more per request than the rest of the runner's side of the
 * send (measured: 58 against 22 microseconds over an effect that does nothing).
 */
const within = <A, E, T>(
  self: Effect.Effect<A, E>,
  millis: number,
  onTimeout: T
): Effect.Effect<A, E | T> =>
  // A forked fiber is interrupted with its parent too: the canceler below only makes that sooner.
  Effect.flatMap(Effect.fork(self), (fiber) =>
    Effect.async<A, E | T>((resume) => {
      let done = false
      const timer = setTimeout(() => {
        if (done) return
        done = true
        fiber.unsafeInterruptAsFork(fiber.id())
        resume(Effect.fail(onTimeout))
      }, millis)
      fiber.addObserver((exit) => {
        if (done) return
        done = true
        clearTimeout(timer)
        resume(exit)
      })
      return Effect.sync(() => {
        if (done) return
        done = true
        clearTimeout(timer)
        fiber.unsafeInterruptAsFork(fiber.id())
      })
    })
  )

/**
 * A run's requests with no span and no trace headers of their own: the runner sends thousands of
 * requests, and the target is judged on exactly the headers each case sets (the run itself is one
 * span). Set once around the run, which its fibers inherit, rather than per request: wrapping the
 * client (`HttpClient.withTracerDisabledWhen`, `withTracerPropagation`) sets both for each request.
 */
export const untraced = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  self.pipe(
    Effect.locally(HttpClient.currentTracerDisabledWhen, () => true),
    Effect.locally(HttpClient.currentTracerPropagation, false)
  )

/** Builds the target: rate limit, request budget, per-request timeout, throttling retries. */
export const makeTarget = (
  options: TargetOptions
): Effect.Effect<Target, never, HttpClient.HttpClient | Scope.Scope> =>
  Effect.gen(function* () {
    // No span and no trace headers per request: see `untraced`, which the run is under.
    const client = yield* HttpClient.HttpClient
    // undici's dispatcher when the context has it (the command line's): requests go straight on it.
    const dispatcher = yield* Effect.serviceOption(NodeHttpClient.Dispatcher)
    // Plain state: the target's fibers all run on one thread, and this is read and bumped in one step.
    let counter = 0
    const shared = options.shared
    const rate = options.rateLimit
    const limiter =
      rate === undefined
        ? <A, E, R>(eff: Effect.Effect<A, E, R>) => eff
        : shared !== undefined
          ? <A, E, R>(eff: Effect.Effect<A, E, R>) =>
              Effect.suspend(() => {
                const wait = Shared.rateDelay(shared, rate)
                return wait > 0 ? Effect.zipRight(Effect.sleep(wait), eff) : eff
              })
          : yield* RateLimiter.make({
              limit: Math.max(1, Math.round(rate)),
              interval: "1 second",
              algorithm: "token-bucket"
            })
    const baseUrl = options.baseUrl.replace(/\/+$/, "")
    const extraHeaders: Record<string, string> = Object.fromEntries(
      Object.entries(options.headers ?? {}).map(([k, v]) => [k.toLowerCase(), Redacted.value(v)])
    )

    const sentKey = (mode: KeyMode): Redacted.Redacted<string> | undefined => {
      switch (mode) {
        case "valid":
          return options.apiKey
        case "missing":
          return undefined
        case "empty":
          return Redacted.make("")
        case "wrong":
          return Redacted.make(WRONG_KEY)
        default: {
          const near = nearKey(mode, Redacted.value(options.apiKey))
          return near === undefined ? undefined : Redacted.make(near)
        }
      }
    }

    // The slowest served answer per path so far: the target's latency, measured in this run.
    const slowest = new Map<string, number>()
    const timeoutMessage = `no response within ${Duration.format(options.timeout)}`

    const timeoutMillis = Duration.toMillis(options.timeout)
    const timedOut: NoAnswer = { text: timeoutMessage, broke: false, timedOut: true }

    /** Through the `HttpClient` of the context, within the per-request timeout. */
    const viaClient = (
      method: string,
      url: string,
      headers: Record<string, string>,
      body: Uint8Array | undefined,
      contentType: string
    ): Effect.Effect<Either.Either<RawResponse, NoAnswer>> => {
      let req = HttpClientRequest.make(method as "POST")(url)
      if (body !== undefined)
        req = HttpClientRequest.setBody(req, HttpBody.uint8Array(body, contentType))
      req = HttpClientRequest.setHeaders(req, headers)
      const read = (res: HttpClientResponse.HttpClientResponse) =>
        Effect.map(res.arrayBuffer, (buffer): RawResponse => {
          const headers = headersOf(res.headers)
          return {
            status: res.status,
            headers,
            ...readBody(answerBytes(new Uint8Array(buffer), headers["content-encoding"]))
          }
        })
      return Effect.map(
        Effect.either(
          within(Effect.flatMap(client.execute(req), read), timeoutMillis, timeoutMessage)
        ),
        Either.mapLeft((e): NoAnswer =>
          typeof e === "string"
            ? timedOut
            : {
                text: `${e._tag} (${e.reason}): ${e.message}${causeText(e.cause)}`,
                broke:
                  e._tag === "RequestError" &&
                  e.reason === "Transport" &&
                  brokeBeforeAnswer(e.cause),
                timedOut: false
              }
        )
      )
    }

    /** Each URL's origin and path, as the client reads `baseUrl + path` (a few URLs, sent thousands of times). */
    const places = new Map<string, { readonly origin: string; readonly path: string } | undefined>()
    const placeOf = (url: string) => {
      if (places.has(url)) return places.get(url)
      let place: { readonly origin: string; readonly path: string } | undefined
      try {
        const parsed = new URL(url)
        place = { origin: parsed.origin, path: parsed.pathname + parsed.search + parsed.hash }
      } catch {
        place = undefined
      }
      if (places.size >= 1024) places.clear()
      places.set(url, place)
      return place
    }

    /**
     * Straight on undici's dispatcher (one keep-alive pool per origin), with no stream or promise
     * per request: the answer's bytes collected as they come and read whole, within the
     * per-request timeout over the whole exchange, its text and errors as the `HttpClient` path
     * gives them.
     */
    const viaDispatcher =
      (dispatcher: Undici.Dispatcher) =>
      (
        method: string,
        url: string,
        headers: Record<string, string>,
        body: Uint8Array | undefined,
        contentType: string
      ): Effect.Effect<Either.Either<RawResponse, NoAnswer>> =>
        Effect.async((resume) => {
          const place = placeOf(url)
          if (place === undefined) {
            resume(
              Effect.succeed(
                Either.left({
                  text: `RequestError (InvalidUrl): InvalidUrl error (${method} ${url})`,
                  broke: false,
                  timedOut: false
                })
              )
            )
            return
          }
          const wire =
            body !== undefined && headers["content-type"] === undefined
              ? { "content-type": contentType, ...headers }
              : headers
          let settled = false
          let abort: ((reason?: Error) => void) | undefined
          let status: number | undefined
          let answer: Record<string, string> = {}
          const chunks: Array<Buffer> = []
          const settle = (outcome: Either.Either<RawResponse, NoAnswer>) => {
            if (settled) return
            settled = true
            clearTimeout(timer)
            resume(Effect.succeed(outcome))
          }
          const timer = setTimeout(() => {
            settle(Either.left(timedOut))
            abort?.()
          }, timeoutMillis)
          dispatcher.dispatch(
            {
              origin: place.origin,
              path: place.path,
              method: method as Undici.Dispatcher.HttpMethod,
              headers: wire,
              body: body ?? null,
              // The deadline is the timer above, over the whole exchange.
              headersTimeout: 0,
              bodyTimeout: 0
            },
            {
              onConnect: (a) => {
                abort = a
                if (settled) a()
              },
              onHeaders: (statusCode, rawHeaders) => {
                status = statusCode
                answer = answerHeaders(Undici.util.parseHeaders(rawHeaders))
                return true
              },
              onData: (chunk) => {
                chunks.push(chunk)
                return true
              },
              onComplete: () => {
                settle(
                  Either.right({
                    status: status ?? 0,
                    headers: answer,
                    ...readBody(answerBytes(Buffer.concat(chunks), answer["content-encoding"]))
                  })
                )
              },
              onError: (cause) =>
                settle(
                  Either.left(
                    status === undefined
                      ? {
                          text: `RequestError (Transport): Transport error (${method} ${url})${causeText(cause)}`,
                          broke: brokeBeforeAnswer(cause),
                          timedOut: false
                        }
                      : {
                          text: `ResponseError (Decode): Decode error (${status} ${method} ${url})`,
                          broke: false,
                          timedOut: false
                        }
                  )
                )
            }
          )
          // Interrupted: the request is aborted.
          return Effect.sync(() => {
            if (settled) return
            settled = true
            clearTimeout(timer)
            abort?.()
          })
        })

    const deliver = Option.isSome(dispatcher) ? viaDispatcher(dispatcher.value) : viaClient

    /** The exchanges whose connection broke before any answer (not a timeout, not a broken answer). */
    const broken = new WeakSet<Exchange>()

    // Effects per request kept few (no generator, no scope: the answer is read whole before the
    // effect ends): the runner sends thousands of requests and its own side of each is CPU.
    const once = (request: RawRequest): Effect.Effect<Exchange, BudgetExhausted> =>
      Effect.suspend(() => {
        const n = shared === undefined ? counter : Shared.takeRequest(shared)
        if (n >= options.maxRequests)
          return Effect.fail(new BudgetExhausted({ maxRequests: options.maxRequests }))
        // Counted once it goes out: a request the budget refused is not one the report counts.
        counter++
        const headers: Record<string, string> = { ...extraHeaders, ...headersOf(request.headers) }
        if (request.protocolVersion !== undefined)
          headers["connect-protocol-version"] = request.protocolVersion
        const key = sentKey(request.key)
        if (key !== undefined) headers["x-api-key"] = Redacted.value(key)
        const url = baseUrl + request.path
        let body: Uint8Array | undefined
        if (request.body !== undefined && request.contentEncoding !== undefined) {
          headers["content-encoding"] = request.contentEncoding
          body = Compression.compress(request.body, request.contentEncoding)
        } else if (request.body !== undefined) {
          body = utf8Encoder.encode(request.body)
        }
        if (request.contentType !== undefined) headers["content-type"] = request.contentType
        const contentType = request.contentType ?? "application/octet-stream"
        // The hooks' headers (a token, a signature) are asked for each request as it is sent.
        const hooked =
          options.hooks === undefined
            ? undefined
            : hookHeaders(options.hooks, request, url, headers)
        let masked: ReadonlySet<string> = new Set()
        const go = () => {
          const started = Date.now()
          const exchangeOf = (result: Either.Either<RawResponse, NoAnswer>): Exchange => {
            const receivedAt = Date.now()
            const durationMs = receivedAt - started
            const before = slowest.get(request.path)
            // Served answers only: a refusal (of the method, the key) may come before any work starts.
            if (
              result._tag === "Right" &&
              result.right.status === 200 &&
              (before === undefined || durationMs > before)
            )
              slowest.set(request.path, durationMs)
            const timedOut =
              result._tag === "Left" && result.left.timedOut
                ? { afterMs: timeoutMillis, slowestAnswerMs: before }
                : undefined
            const exchange = {
              request,
              response: result._tag === "Right" ? Option.some(result.right) : Option.none(),
              transportError: result._tag === "Left" ? result.left.text : undefined,
              receivedAt,
              durationMs,
              ...(timedOut === undefined ? {} : { timedOut })
            } satisfies Exchange
            if (result._tag === "Left" && result.left.broke) broken.add(exchange)
            if (options.onSent !== undefined) {
              const shown =
                masked.size === 0
                  ? headers
                  : Object.fromEntries(
                      Object.entries(headers).map(([k, v]) => [k, masked.has(k) ? HOOK_MASK : v])
                    )
              const sentHeaders =
                request.body !== undefined && request.contentType === undefined
                  ? { ...shown, "content-type": "application/octet-stream" }
                  : shown
              options.onSent({
                startedAt: started,
                url,
                method: request.method,
                headers: sentHeaders,
                body: request.body,
                exchange
              })
            }
            return exchange
          }
          return Effect.map(
            limiter(deliver(request.method, url, headers, body, contentType)),
            exchangeOf
          )
        }
        return hooked === undefined
          ? go()
          : Effect.flatMap(hooked, (more) => {
              masked = new Set(Object.keys(more))
              Object.assign(headers, more)
              return go()
            })
      })

    /** Whether an answer is retried: a 429 or 503 within the retries, unless it refuses the body for its size. */
    const retries = (exchange: Exchange, attempt: number): boolean => {
      const response = Option.getOrUndefined(exchange.response)
      const status = response?.status
      return (
        options.retryThrottled &&
        attempt < MAX_RETRIES &&
        (status === 429 || status === 503) &&
        !isSizeRefusal(exchange, response!)
      )
    }

    /** `once`, sent again on another connection while the connection breaks before any answer. */
    const resent = (request: RawRequest, resends = 0): Effect.Effect<Exchange, BudgetExhausted> =>
      Effect.flatMap(once(request), (exchange) =>
        broken.has(exchange) && resends < RESENDS_AFTER_BREAK
          ? resent(request, resends + 1)
          : Effect.succeed(exchange)
      )

    const send = (request: RawRequest): Effect.Effect<Exchange, BudgetExhausted> =>
      Effect.flatMap(resent(request), (first) =>
        retries(first, 0) ? retry(request, first) : Effect.succeed(first)
      )

    /** The retries of a request whose first answer was a 429 or 503. */
    const retry = (
      request: RawRequest,
      first: Exchange
    ): Effect.Effect<Exchange, BudgetExhausted> =>
      Effect.gen(function* () {
        let attempt = 0
        const retried: Array<RawResponse> = []
        let exchange = first
        while (true) {
          if (!retries(exchange, attempt))
            return retried.length === 0 ? exchange : { ...exchange, retried }
          const response = Option.getOrUndefined(exchange.response)
          retried.push(response!)
          attempt++
          // Retry-After when the answer has one (at most 5 s), else 0.1 s doubling.
          const retryAfter = response === undefined ? undefined : retryAfterSeconds(response)
          const seconds =
            retryAfter !== undefined
              ? Math.min(Math.max(retryAfter, 0.05), 5)
              : 0.1 * 2 ** (attempt - 1)
          yield* Effect.sleep(Duration.seconds(seconds))
          exchange = yield* resent(request)
        }
      })

    return { baseUrl, send, sent: Effect.sync(() => counter), sentKey } satisfies Target
  })
