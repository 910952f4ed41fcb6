/**
 * The vocabulary of the shared cases: what the fake does with a request, the call a case makes,
 * what the caller sees and what was sent, what a run observed, and how a line names a case's
 * method and options.
 */

/** What the fake server does with one request (the last reply repeats). */
export type Reply =
  | {
      readonly status: number
      readonly body?: unknown
      readonly text?: string
      readonly headers?: Readonly<Record<string, string>>
    }
  | { readonly transport: string }
  | { readonly hang: true }

/** A retry policy, described: none, exponential, or a fixed wait a number of times. */
export type Retry =
  | "none"
  | {
      readonly _tag: "exponential"
      readonly baseMillis: number
      readonly retries?: number
      readonly jitter: boolean
    }
  | { readonly _tag: "spaced"; readonly millis: number; readonly times: number }

/** The call a case makes. Durations are milliseconds; `Infinity` is an infinite one. */
export interface Call {
  /** The operation's method name (`GetResource`). */
  readonly method: string
  readonly request: unknown
  /** Collect the List operation's paging stream instead of one call. */
  readonly stream?: boolean
  readonly pageSize?: number
  readonly timeout?: number
  readonly attemptTimeout?: number
  /** The call's own policy. */
  readonly retry?: Retry
  /** The layer's policy (default: the client's default). */
  readonly layerRetry?: Retry
  /** The layer's base URL (default `http://fake.invalid`). */
  readonly baseUrl?: string
  /** The caller gives up (interrupts the call) after this many milliseconds. */
  readonly interruptAfter?: number
}

/** What the caller sees. */
export type Outcome =
  | {
      readonly _tag: "Success"
      /** Matched as a subset (`toMatchObject`). */
      readonly value?: unknown
      /** The items of a stream, matched as a subset. */
      readonly items?: ReadonlyArray<unknown>
    }
  | {
      readonly _tag: "Failure"
      /** The error's fields, matched as a subset (`_tag` included). */
      readonly error: Readonly<Record<string, unknown>>
      /** Whether a `ConnectError`'s code came from the status alone. */
      readonly statusFallback?: boolean
      readonly isRetryable?: boolean
      /** Text the printed error contains. */
      readonly says?: string
      /** Text neither the printed error nor its JSON may contain. */
      readonly neverShows?: string
    }
  | { readonly _tag: "Interrupted" }

/** What was sent. */
export interface Sent {
  /** How many requests were sent, or the range `[min, max]` on the real clock. */
  readonly count: number | readonly [number, number]
  readonly url?: string
  /** Headers of each request (a subset; `undefined`: absent). `USER_AGENT` stands for the line's. */
  readonly headers?: ReadonlyArray<Readonly<Record<string, string | undefined>>>
  readonly bodies?: ReadonlyArray<unknown>
  /** The clock time from each request to the next, each within `[min, max]` milliseconds. */
  readonly gaps?: ReadonlyArray<readonly [number, number]>
  /** How many requests in flight were interrupted (a timeout, or the caller gave up); `each`: every one sent. */
  readonly interrupted?: number | "each"
}

/** One behaviour. */
export interface Case {
  readonly name: string
  readonly call: Call
  readonly replies: ReadonlyArray<Reply>
  /** Run the call this many times, the clock moved by `gapMillis` between runs (default: once). */
  readonly runs?: { readonly times: number; readonly gapMillis: number }
  readonly outcome: Outcome
  readonly sent: Sent
  /** The clock time from the call's start to its end, within `[min, max]` milliseconds. */
  readonly endsAt?: readonly [number, number]
  /** Run on the real clock (the timers as a user meets them) instead of the `TestClock`. */
  readonly live?: boolean
}

/** Stands for the line's `User-Agent` in `Sent.headers`. */
export const USER_AGENT = "<the line's User-Agent>"

export const API_KEY = "test-api-key-5f0c1e9a"

/** A request the fake saw. */
export interface Seen {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: unknown
  /** The clock time of the request, in milliseconds. */
  readonly at: number
}

/** What a run observed: how the call ended and what was sent. */
export interface Observed {
  readonly result:
    | { readonly _tag: "Success"; readonly value: unknown }
    | {
        readonly _tag: "Failure"
        readonly error: unknown
        readonly statusFallback: boolean | undefined
        readonly isRetryable: boolean | undefined
      }
    | { readonly _tag: "Interrupted" }
  readonly seen: ReadonlyArray<Seen>
  /** How many requests in flight were interrupted. */
  readonly interrupted: number
  /** The clock time from the (last) call's start to its end, in milliseconds. */
  readonly endedAt: number
}

/**
 * A call's options for a line's client: its durations and its policy made by the line's
 * `duration` (of milliseconds, `Infinity` included) and `policy`.
 */
export const optionsOf = <D, P>(
  call: Pick<Call, "timeout" | "attemptTimeout" | "retry" | "pageSize">,
  duration: (millis: number) => D,
  policy: (retry: Retry) => P
) => ({
  timeout: call.timeout === undefined ? undefined : duration(call.timeout),
  attemptTimeout: call.attemptTimeout === undefined ? undefined : duration(call.attemptTimeout),
  retryPolicy: call.retry === undefined ? undefined : policy(call.retry),
  pageSize: call.pageSize
})

/** The name of an operation's method on a client (`getResource`), with `Stream` for its paging stream. */
export const methodName = (method: string, stream?: boolean): string =>
  `${method.charAt(0).toLowerCase()}${method.slice(1)}${stream === true ? "Stream" : ""}`
