/**
 * One request of a Node HTTP server through the pipeline: its `Input` (method, URL, headers and
 * a body read up to the limit) and its answer written back (`httpServer.ts` runs the server).
 *
 * @internal
 */
import { ContentType } from "@data-access/schema"
import * as Effect from "effect/Effect"
import type * as Http from "node:http"
import type { Input, Output } from "./pipeline-types.js"

/** Reads a Node request body, keeping at most `maxBytes` bytes (the rest is drained). */
const readNodeBody = (incoming: Http.IncomingMessage, maxBytes: number) =>
  Effect.async<Uint8Array | "too-large", Error>((resume) => {
    const chunks: Array<Buffer> = []
    let size = 0
    let over = false
    incoming.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) {
        over = true
        chunks.length = 0
      } else if (!over) chunks.push(chunk)
    })
    incoming.once("end", () => resume(Effect.succeed(over ? "too-large" : Buffer.concat(chunks))))
    incoming.once("error", (error) => resume(Effect.fail(error)))
  })

/** What the pipeline reads of a Node request. */
export const inputOf = (incoming: Http.IncomingMessage, method: string): Input => ({
  method,
  url: incoming.url ?? "/",
  headers: incoming.headers as Readonly<Record<string, string | undefined>>,
  body: (max) => readNodeBody(incoming, max)
})

/** The request's method, upper-cased. */
export const methodOf = (incoming: Http.IncomingMessage) => (incoming.method ?? "GET").toUpperCase()

/**
 * Writes an answer as `@effect/platform`'s server wrote a text or byte response: its headers (the
 * pipeline names them in lower case), `Content-Type` (JSON when the answer names none) and
 * `Content-Length`; with `closing`, `Connection: close`.
 */
const writeAnswer = (
  response: Http.ServerResponse,
  out: Extract<Output, { _tag: "Response" }>,
  closing: boolean
) => {
  const headers: Record<string, string> = { ...out.headers }
  if (closing) headers["connection"] = "close"
  headers["content-type"] ??= ContentType.JSON_MEDIA_TYPE
  const length = typeof out.body === "string" ? Buffer.byteLength(out.body) : out.body.byteLength
  if (length > 0) headers["content-length"] = String(length)
  response.writeHead(out.status, headers)
  response.end(out.body)
}

/** Sends the pipeline's output: an answer, or the dropped connection of a fault. */
export const answer = (
  incoming: Http.IncomingMessage,
  response: Http.ServerResponse,
  out: Output,
  closing: boolean
) => {
  if (out._tag === "Drop") incoming.socket.destroy()
  else writeAnswer(response, out, closing)
}
