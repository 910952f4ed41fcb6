/**
 * What a run's hooks add to each request (headers asked for before it, headers computed from it as
 * it goes out), the headers the checks set themselves and may not be given, and the values of a
 * run's extra headers, kept out of every report like the key.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"

/** What a run's hooks add to each request (see `Hooks`). */
export interface RequestHooks {
  /** Headers asked for before each request (a token refreshed when it expires). */
  readonly headers?: (() => HeaderMap | Promise<HeaderMap>) | undefined
  /** Headers computed from the request as it goes out (a signature over method, URL and body). */
  readonly beforeRequest?:
    ((request: OutgoingRequest) => HeaderMap | Promise<HeaderMap>) | undefined
}

/** Header names to values. */
export type HeaderMap = Readonly<Record<string, string>>

/** A request as a hook sees it, about to be sent. */
export interface OutgoingRequest {
  readonly method: string
  readonly url: string
  /** Lower-case names; the API key's header is left out. */
  readonly headers: HeaderMap
  /** The body as text, before any compression. */
  readonly body: string | undefined
}

/** What a HAR shows for a header a hook set. */
export const HOOK_MASK = "[set by a hook]"

const lower = (headers: HeaderMap): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), String(v)]))

/** The headers the hooks add to one request, lower-cased, the checks' own left out. */
export const hookHeaders = (
  hooks: RequestHooks,
  request: { readonly method: string; readonly body: string | undefined },
  url: string,
  headers: Readonly<Record<string, string>>
): Effect.Effect<Record<string, string>> =>
  Effect.tryPromise(async () => {
    const { "x-api-key": _key, ...visible } = headers
    const fromHeaders = lower(hooks.headers === undefined ? {} : await hooks.headers())
    const signed = lower(
      hooks.beforeRequest === undefined
        ? {}
        : await hooks.beforeRequest({
            method: request.method,
            url,
            headers: { ...visible, ...fromHeaders },
            body: request.body
          })
    )
    const out = { ...fromHeaders, ...signed }
    for (const name of Object.keys(out)) if (RESERVED_HEADERS.has(name)) delete out[name]
    return out
  }).pipe(
    // A hook that fails ends the run: no exchange is made up for a request never sent.
    Effect.orDieWith(
      (e) => new HookFailure({ message: String((e.error as Error)?.message ?? e.error) })
    )
  )

/** A hook threw or rejected: the run ends with its message. */
export class HookFailure extends Data.TaggedError("HookFailure")<{ readonly message: string }> {}

/** The headers the checks set themselves: a run's extra headers may not name them. */
export const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  "x-api-key",
  "content-type",
  "content-encoding",
  "content-length",
  "transfer-encoding",
  "host",
  "connect-protocol-version",
  "connect-timeout-ms",
  "accept-encoding"
])

/** The values of a run's extra headers: secrets of the run as much as its key. */
export const headerSecrets = (
  headers: Readonly<Record<string, Redacted.Redacted<string>>> | undefined
): ReadonlyArray<string> => Object.values(headers ?? {}).map((v) => Redacted.value(v))
