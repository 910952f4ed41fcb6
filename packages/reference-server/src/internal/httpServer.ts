/**
 * The HTTP lifecycle of `start`: a plain Node server (no `@effect/platform` `HttpServer`) that
 * listens, runs each request through the pipeline in real time (`nodeAnswer.ts` reads and writes
 * it), opens the spans of the `tracing` option, and closes when its scope ends after the requests
 * in flight are answered. Plumbing, not answers of the API: the mutation run leaves this module
 * out (the reference server's own tests judge the listen, the spans and the close).
 *
 * @internal
 */
import type * as Headers from "@effect/platform/Headers"
import * as HttpTraceContext from "@effect/platform/HttpTraceContext"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import type * as Scope from "effect/Scope"
import * as Http from "node:http"
import type { Core } from "./core.js"
import { answer, inputOf, methodOf } from "./nodeAnswer.js"
import type { Options, StartFailure } from "./options.js"
import type { Output } from "./pipeline-types.js"

/** Listens on the Node server, or fails with the start error of a listen that failed. */
const listen = <E>(
  nodeServer: Http.Server,
  port: number,
  host: string,
  fail: (failure: StartFailure) => E
) =>
  Effect.async<void, E>((resume) => {
    const onError = (cause: Error) =>
      resume(
        Effect.fail(
          fail({
            reason: "Listen",
            // Node's code and message say why: EADDRINUSE (the port is taken), EACCES, EADDRNOTAVAIL.
            message: `could not listen on ${host}:${port}: ${cause.message}`,
            cause
          })
        )
      )
    nodeServer.once("error", onError)
    nodeServer.listen({ port, host }, () => {
      nodeServer.off("error", onError)
      resume(Effect.void)
    })
  })

/** A span per request, as `@effect/platform`'s HTTP tracer opens one (the `tracing` option). */
const withRequestSpan = (
  incoming: Http.IncomingMessage,
  method: string,
  self: Effect.Effect<Output>
): Effect.Effect<Output> =>
  Effect.useSpan(
    `http.server ${method}`,
    {
      parent: Option.getOrUndefined(
        HttpTraceContext.fromHeaders(incoming.headers as Headers.Headers)
      ),
      kind: "server",
      captureStackTrace: false
    },
    (span) => {
      span.attribute("http.request.method", method)
      span.attribute("url.path", (incoming.url ?? "/").split("?")[0]!)
      return Effect.tap(Effect.withParentSpan(self, span), (out) => {
        if (out._tag === "Response") span.attribute("http.response.status_code", out.status)
      })
    }
  )

/**
 * Serves the core on a port (0: an ephemeral one) inside the current scope and returns its URL;
 * closing the scope stops it after the requests in flight have been answered.
 */
export const serve = <E>(
  core: Core,
  options: Options,
  fail: (failure: StartFailure) => E
): Effect.Effect<string, E, Scope.Scope> =>
  Effect.gen(function* () {
    const host = options.host ?? "127.0.0.1"
    const nodeServer = Http.createServer({ keepAliveTimeout: 5_000 })
    const lifecycle = { closing: false }
    // The requests being answered: once closing, the last one to finish ends every connection left.
    let inFlight = 0
    // A server on a socket lives in real time, even when started from a test with a TestClock.
    const runFork = Runtime.runFork(yield* Effect.withClock(Effect.runtime<never>(), Clock.make()))
    const traced = options.tracing === true
    nodeServer.on("request", (incoming: Http.IncomingMessage, response: Http.ServerResponse) => {
      inFlight++
      const method = methodOf(incoming)
      const output = core.handle(inputOf(incoming, method))
      const fiber = runFork(traced ? withRequestSpan(incoming, method, output) : output)
      fiber.addObserver((exit) => {
        if (Exit.isSuccess(exit)) return answer(incoming, response, exit.value, lifecycle.closing)
        // The pipeline answers its own defects; a fiber ends otherwise only when its client went away.
        if (!response.headersSent) {
          response.writeHead(500)
          response.end()
        }
      })
      response.once("close", () => {
        // The client went away before its answer: the work for it stops.
        if (!response.writableEnded) fiber.unsafeInterruptAsFork(fiber.id())
        inFlight--
        if (lifecycle.closing && inFlight === 0) nodeServer.closeAllConnections()
      })
    })
    yield* listen(nodeServer, options.port ?? 0, host, fail)
    // On close: stop listening; answer the requests in flight, and any that arrive on a connection
    // already open, with `Connection: close`; end the connections with no request in flight (idle
    // keep-alive ones, and those opened but silent) at once, or when the last request is answered.
    // This finalizer waits for every connection to end, with the request handler still attached
    // meanwhile (removing it first could leave a request read in between unanswered).
    yield* Effect.addFinalizer(() =>
      Effect.async<void>((resume) => {
        lifecycle.closing = true
        nodeServer.close(() => resume(Effect.void))
        void (inFlight === 0 ? nodeServer.closeAllConnections() : nodeServer.closeIdleConnections())
      })
    )
    const address = nodeServer.address()
    const port = address !== null && typeof address === "object" ? address.port : 0
    const urlHost = host.includes(":") ? `[${host}]` : host
    return `http://${urlHost}:${port}`
  })
