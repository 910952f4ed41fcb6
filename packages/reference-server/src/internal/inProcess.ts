/**
 * The in-process transport of `layerHttpClient`: an `HttpClient` that hands each request to the
 * pipeline as bytes, without a socket.
 *
 * @internal
 */
import * as Headers from "@effect/platform/Headers"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Effect from "effect/Effect"
import type { Core } from "./core.js"

// The runner and the typed client build Uint8Array bodies (bodyUint8Array, bodyText, bodyJson),
// and set Content-Type on every request: the other bodies and the header's fallback below are
// for other callers of the client, marked "in-process" (no judge sends them).
const bodyBytes = (request: HttpClientRequest.HttpClientRequest): Uint8Array | undefined => {
  const body = request.body
  switch (body._tag) {
    case "Empty":
      return new Uint8Array(0)
    case "Uint8Array":
      return body.body
    case "Raw":
      return typeof body.body === "string"
        ? new TextEncoder().encode(body.body)
        : body.body instanceof Uint8Array
          ? body.body
          : undefined
    default:
      return undefined
  }
}

/** An `HttpClient` that calls the core in process. */
export const makeClient = (core: Core): HttpClient.HttpClient =>
  HttpClient.make((request, url) =>
    Effect.gen(function* () {
      const bytes = bodyBytes(request)
      if (bytes === undefined) {
        return yield* new HttpClientError.RequestError({
          request,
          reason: "Encode",
          description: "only Uint8Array and string bodies are supported in process"
        })
      }
      const contentType = request.body._tag === "Empty" ? undefined : request.body.contentType
      const headers: Record<string, string | undefined> = { ...request.headers }
      if (contentType !== undefined && headers["content-type"] === undefined)
        headers["content-type"] = contentType
      headers["content-length"] = String(bytes.length)
      const out = yield* core.handle({
        method: request.method,
        url: url.pathname + url.search,
        headers,
        body: (max) => Effect.succeed(bytes.length > max ? "too-large" : bytes)
      })
      if (out._tag === "Drop") {
        return yield* new HttpClientError.RequestError({
          request,
          reason: "Transport",
          description: "the connection was closed without a response"
        })
      }
      return HttpClientResponse.fromWeb(
        request,
        new Response(out.body, { status: out.status, headers: Headers.fromInput(out.headers) })
      )
    })
  )
