/** The runner's exchanges as HAR entries: each request as sent and its answer, secrets masked. */
import * as Option from "effect/Option"
import type * as Har from "../recording/model.js"
import type { Sent } from "../http.js"
import { entryOf } from "../recording/write.js"

const encoder = new TextEncoder()

/** A recorder for `makeTarget`'s `onSent`: every exchange to `onEntry`, the keys (`secrets`) masked. */
export const harRecorder =
  (onEntry: (entry: Har.Entry) => void, secrets: ReadonlyArray<string>) =>
  (sent: Sent): void => {
    const response = Option.getOrUndefined(sent.exchange.response)
    const body = sent.body === undefined ? undefined : encoder.encode(sent.body)
    onEntry(
      entryOf({
        startedAt: sent.startedAt,
        durationMs: sent.exchange.durationMs,
        method: sent.method,
        url: sent.url,
        requestHeaders: sent.headers,
        requestBody: body ?? new Uint8Array(0),
        requestBodyBytes: body?.length ?? 0,
        status: response?.status ?? 0,
        // The runner's client reads answers decoded: the encoding is not the body's any more.
        responseHeaders: response === undefined ? {} : response.headers,
        responseBody: response === undefined ? undefined : encoder.encode(response.text),
        error: sent.exchange.transportError,
        secrets,
        limit: 64 * 1024 * 1024
      })
    )
  }
