/**
 * The fake server behind both lines' fake `HttpClient`: it answers the replies in order (the last
 * one repeats) and records what it was sent; `fakeHttpClient`, the fake `HttpClient` over it, made
 * of a line's modules. Each line's `test/fake.ts` gives its modules and its transport failure.
 */
import type { Reply, Seen } from "./model.js"
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
      return {
        _tag: "Transport",
        cause: Object.assign(new Error(`connect ${reply.transport} 127.0.0.1:9`), {
          code: reply.transport
        })
      }
    }
    const text = reply.text ?? (reply.body === undefined ? "" : JSON.stringify(reply.body))
    const headers = {
      "content-type": reply.text !== undefined ? "text/plain" : "application/json",
      ...reply.headers
    }
    return { _tag: "Response", response: new Response(text, { status: reply.status, headers }) }
  }
  return { seen, interrupted, receive }
}

/** A resource as `GetResource` answers it. */
export const resource = { resource: { id: "resource_1", name: "db", port: 5432 } }

/** A Connect `unavailable` answer. */
export const unavailable = {
  status: 503,
  body: { code: "unavailable", message: "overloaded" }
} as const

/** The base URL of the clients over a fake. */
export const FAKE_BASE_URL = "http://fake.invalid"

/** A function of a line's module, typed loosely (see `FakeHttpModules`). */
type Loose = (...args: ReadonlyArray<any>) => any

/**
 * The parts of a line's modules a fake `HttpClient` is made of: both lines' `effect/Clock`,
 * `effect/Effect`, `effect/Layer`, `HttpClient` and `HttpClientResponse` have them, by these names
 * and with these meanings. They are typed loosely here: each line's `test/fake.ts` states the type
 * of the layer it gets.
 */
export interface FakeHttpModules {
  readonly Clock: { readonly currentTimeMillis: unknown }
  readonly Effect: {
    readonly flatMap: Loose
    readonly succeed: Loose
    readonly fail: Loose
    readonly sync: Loose
    readonly onInterrupt: Loose
    readonly never: unknown
  }
  readonly Layer: { readonly succeed: Loose }
  readonly HttpClient: { readonly HttpClient: unknown; readonly make: Loose }
  readonly HttpClientResponse: { readonly fromWeb: Loose }
}

/**
 * A line's fake `HttpClient`, made of the line's `modules`, answering from `replies` in order (the
 * last one repeats): each request is received by the fake server at the line's clock time and
 * answered with a response, a transport failure (`transportError` of the request and its cause,
 * the one part whose constructor differs between the lines) or an effect that never ends until
 * it is interrupted. The fake server, and a layer of the `HttpClient` (`L`).
 */
export const fakeHttpClient =
  <L>(modules: FakeHttpModules, transportError: (request: any, cause: Error) => unknown) =>
  (replies: ReadonlyArray<Reply>): FakeServer & { readonly layer: L } => {
    const { Clock, Effect, HttpClient, HttpClientResponse, Layer } = modules
    const server = fakeServer(replies)
    const execute = (request: RequestLike, url: URL): unknown =>
      Effect.flatMap(Clock.currentTimeMillis, (at: number) => {
        const answer = server.receive(request, url, at)
        switch (answer._tag) {
          case "Hang":
            return Effect.onInterrupt(Effect.never, () =>
              Effect.sync(() => void server.interrupted.count++)
            )
          case "Transport":
            return Effect.fail(transportError(request, answer.cause))
          case "Response":
            return Effect.succeed(HttpClientResponse.fromWeb(request, answer.response))
        }
      })
    return { ...server, layer: Layer.succeed(HttpClient.HttpClient, HttpClient.make(execute)) as L }
  }
