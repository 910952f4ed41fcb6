/**
 * The server's own request log: what it saw of each request (`Running.requests`, for tests) and
 * the log line of `logRequests` (for operators). Not an answer of the API: the mutation run leaves
 * this module out.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as ConnectError from "./connectError.js"
import type { Input, Op, Output, RecordedRequest } from "./pipeline-types.js"
import { truncate } from "./messages.js"
import { Secrets } from "@data-access/schema"

/** How many requests the log keeps. */
const MAX_RECORDED = 10_000

/** The last 10,000 requests in a ring, and a log line per request when `logRequests` is on. */
export const makeRequestLog = (options: { readonly logRequests?: boolean }) => {
  const logRequests = options.logRequests === true
  const recorded: Array<RecordedRequest> = []
  let next = 0
  const onRequest = (entry: RecordedRequest): Effect.Effect<void> =>
    Effect.suspend(() => {
      if (recorded.length < MAX_RECORDED) recorded.push(entry)
      else recorded[next] = entry
      next = (next + 1) % MAX_RECORDED
      if (!logRequests) return Effect.void
      return Effect.logInfo("request").pipe(
        Effect.annotateLogs({
          requestId: entry.requestId,
          method: entry.method ?? entry.path,
          httpMethod: entry.httpMethod,
          code: entry.code,
          status: entry.status,
          durationMs: entry.durationMs
        })
      )
    })
  const requests: Effect.Effect<ReadonlyArray<RecordedRequest>> = Effect.sync(() =>
    recorded.length < MAX_RECORDED
      ? recorded.slice()
      : [...recorded.slice(next), ...recorded.slice(0, next)]
  )
  return { onRequest, requests }
}

/** What the log keeps of one request (its headers without secrets) and its answer. */
export const record = (
  input: Input,
  op: Op | undefined,
  path: string,
  requestId: string,
  started: number,
  output: Output
): RecordedRequest => {
  const headers: Record<string, string> = {}
  for (const [k, value] of Object.entries(input.headers))
    if (value !== undefined && !Secrets.headerNames.has(k)) headers[k] = value
  let code = "dropped"
  if (output._tag === "Response") {
    const bare = output.headers["content-type"] === "text/plain"
    code =
      output.status === 200
        ? "ok"
        : bare
          ? "bare-status"
          : (ConnectError.parseBody(String(output.body))?.code ?? "invalid-error-body")
  }
  return {
    requestId,
    method: op?.method,
    httpMethod: input.method,
    path: truncate(path, 200),
    headers,
    code,
    status: output._tag === "Response" ? output.status : 0,
    durationMs: Math.round((performance.now() - started) * 1000) / 1000
  }
}
