/**
 * A server in front of another (the reference server), for tests that need a faulty target: it
 * answers some requests itself and forwards the rest, changed or not.
 */
import * as Compression from "@data-access/schema/Compression"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"

/** A request as the front server received it. */
export interface Incoming {
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
  /** The body, when it is a JSON object. */
  readonly json: Record<string, unknown> | undefined
}

/** What the front server does with a request: answer it, or forward it with other headers or another body. */
export type Decision =
  | { readonly _tag: "Answer"; readonly status: number; readonly body: unknown }
  | { readonly _tag: "Hang" }
  | { readonly _tag: "Close" }
  | {
      readonly _tag: "Forward"
      readonly headers?: Readonly<Record<string, string>>
      readonly text?: string
      readonly reply?: (text: string, status: number) => string
    }

export const answer = (status: number, body: unknown): Decision => ({
  _tag: "Answer",
  status,
  body
})
export const connectError = (status: number, code: string, message: string): Decision =>
  answer(status, { code, message })
/** Never answers (the connection stays open until the front server closes). */
export const hang: Decision = { _tag: "Hang" }
/** Closes the connection without an answer, as a server closes an idle keep-alive connection. */
export const close: Decision = { _tag: "Close" }
export const forward = (
  change: {
    readonly headers?: Readonly<Record<string, string>>
    readonly text?: string
    readonly reply?: (text: string, status: number) => string
  } = {}
): Decision => ({ _tag: "Forward", ...change })

const HOP = new Set([
  "host",
  "content-length",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-encoding"
])

const parse = (text: string): Record<string, unknown> | undefined => {
  try {
    const v: unknown = text === "" ? undefined : JSON.parse(text)
    return v !== null && typeof v === "object" && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

/**
 * Starts a front server for `inner` (closed with the scope); `decide` says what to do with each
 * request, `seen` gets each forwarded answer (after the decision's `reply` changed it).
 * Resolves to the front server's base URL.
 */
export const front = (
  inner: string,
  decide: (req: Incoming) => Decision,
  seen?: (req: Incoming, status: number, text: string) => void
) =>
  Effect.map(
    Effect.acquireRelease(
      Effect.async<Http.Server>((resume) => {
        const server = Http.createServer((req, res) => {
          const chunks: Array<Buffer> = []
          req.on("data", (c: Buffer) => chunks.push(c))
          req.on("end", () => {
            void (async () => {
              const headers: Record<string, string> = {}
              for (const [k, v] of Object.entries(req.headers))
                if (typeof v === "string" && !HOP.has(k)) headers[k] = v
              // A compressed body is read decompressed (and forwarded so, without its Content-Encoding).
              const raw = Buffer.concat(chunks)
              const encoding = Compression.parseContentEncoding(req.headers["content-encoding"])
              const text = Buffer.from(
                encoding._tag === "Compressed"
                  ? Either.getOrElse(
                      Compression.decompress(raw, encoding.encoding, 64 << 20),
                      () => raw
                    )
                  : raw
              ).toString("utf8")
              const incoming: Incoming = {
                method: req.method ?? "POST",
                url: req.url ?? "/",
                headers,
                text,
                json: parse(text)
              }
              const decision = decide(incoming)
              if (decision._tag === "Hang") return
              if (decision._tag === "Close") return void req.socket.destroy()
              if (decision._tag === "Answer") {
                const body =
                  typeof decision.body === "string" ? decision.body : JSON.stringify(decision.body)
                res.writeHead(decision.status, {
                  "content-type": "application/json",
                  "content-length": String(Buffer.byteLength(body))
                })
                return res.end(body)
              }
              const bodyless = incoming.method === "GET" || incoming.method === "HEAD"
              const reply = await fetch(inner + incoming.url, {
                method: incoming.method,
                headers: { ...headers, ...decision.headers },
                ...(bodyless ? {} : { body: decision.text ?? text })
              })
              const received = Buffer.from(await reply.arrayBuffer())
              // The answer's body, changed when the decision says how.
              const out =
                decision.reply === undefined
                  ? received
                  : Buffer.from(decision.reply(received.toString("utf8"), reply.status))
              seen?.(incoming, reply.status, out.toString("utf8"))
              const back: Record<string, string> = {}
              reply.headers.forEach((v, k) => {
                if (!HOP.has(k)) back[k] = v
              })
              res.writeHead(reply.status, { ...back, "content-length": String(out.length) })
              res.end(out)
            })()
          })
        })
        server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
      }),
      (server) =>
        Effect.async<void>((resume) => {
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    ),
    (server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  )
