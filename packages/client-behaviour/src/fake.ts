/**
 * The fake server behind both lines' fake `HttpClient`: it answers the replies in order (the last
 * one repeats) and records what it was sent. Each line's `test/fake.ts` only turns its answer into
 * that line's `HttpClient` result (a response, a transport failure, or an effect that never ends).
 */
import type { Reply, Seen } from "./index.js"
import { type RequestLike, sentOf } from "./scenario.js"

/** What the fake `HttpClient` is to do with one request. */
export type Answer =
  | { readonly _tag: "Response"; readonly response: Response }
  | { readonly _tag: "Transport"; readonly cause: Error }
  | { readonly _tag: "Hang" }

/** A fake server: what it was sent, how many hanging requests were interrupted, and how it answers. */
export interface FakeServer {
  readonly seen: ReadonlyArray<Seen>
  /** How many hanging requests were interrupted (a timeout, or the caller gave up). */
  readonly interrupted: { count: number }
  /** Records a request (sent to `url` at the (Test)Clock time `at`, in milliseconds) and tells what to answer. */
  readonly receive: (request: RequestLike, url: URL, at: number) => Answer
}

/** A fake server answering from `replies` in order (the last one repeats). */
export const fakeServer = (replies: ReadonlyArray<Reply>): FakeServer => {
  const seen: Array<Seen> = []
  const interrupted = { count: 0 }
  const receive = (request: RequestLike, url: URL, at: number): Answer => {
    seen.push({ ...sentOf(request), url: url.toString(), at })
    const reply = replies[Math.min(seen.length - 1, replies.length - 1)]!
    if ("hang" in reply) return { _tag: "Hang" }
    if ("transport" in reply) {
      return { _tag: "Transport", cause: Object.assign(new Error(`connect ${reply.transport} 127.0.0.1:9`), { code: reply.transport }) }
    }
    const text = reply.text ?? (reply.body === undefined ? "" : JSON.stringify(reply.body))
    const headers = { "content-type": reply.text !== undefined ? "text/plain" : "application/json", ...reply.headers }
    return { _tag: "Response", response: new Response(text, { status: reply.status, headers }) }
  }
  return { seen, interrupted, receive }
}

/** A resource as `GetResource` answers it. */
export const resource = { resource: { id: "resource_1", name: "db", port: 5432 } }

/** A Connect `unavailable` answer. */
export const unavailable = { status: 503, body: { code: "unavailable", message: "overloaded" } } as const
