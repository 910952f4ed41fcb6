/* global process, console, Buffer, TextEncoder */
// One server process of the benchmark: `node bench/server.mjs reference` starts the reference
// server (demo data, in memory); `node bench/server.mjs bare <bodies.json>` starts a bare
// node:http server answering each path with fixed bytes; `node bench/server.mjs platform
// <bodies.json>` the same bytes from a one-line @effect/platform HttpApp (the framework's floor).
// Each prints one JSON line with its URL.
import * as Http from "node:http"
import * as Fs from "node:fs"

const mode = process.argv[2]
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0))

if (mode === "reference") {
  const { ReferenceServer } = await import("../dist/index.js")
  const Effect = await import("effect/Effect")
  Effect.runFork(
    Effect.scoped(
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({ apiKeys: ["bench-key"] })
        console.log(JSON.stringify({ url: server.url, resourceId: server.knownIds.resources[0] }))
        return yield* Effect.never
      })
    )
  )
} else if (mode === "platform") {
  // The floor of @effect/platform's Node server: the same bytes from a one-line HttpApp.
  const bodies = JSON.parse(Fs.readFileSync(process.argv[3], "utf8"))
  const Effect = await import("effect/Effect")
  const HttpServer = await import("@effect/platform/HttpServer")
  const HttpMiddleware = await import("@effect/platform/HttpMiddleware")
  const HttpServerRequest = await import("@effect/platform/HttpServerRequest")
  const HttpServerResponse = await import("@effect/platform/HttpServerResponse")
  const NodeHttpServer = await import("@effect/platform-node/NodeHttpServer")
  const buffers = new Map(
    Object.entries(bodies).map(([path, body]) => [path, new TextEncoder().encode(body)])
  )
  const app = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.as(
      request.arrayBuffer,
      HttpServerResponse.uint8Array(buffers.get(request.url), {
        contentType: "application/json",
        headers: { "x-request-id": "req_platform" }
      })
    )
  )
  Effect.runFork(
    Effect.scoped(
      Effect.gen(function* () {
        const server = yield* NodeHttpServer.make(
          () => Http.createServer({ keepAliveTimeout: 5_000 }),
          { port: 0, host: "127.0.0.1" }
        )
        yield* HttpServer.serveEffect(app).pipe(
          Effect.provideService(HttpServer.HttpServer, server),
          Effect.locally(HttpMiddleware.currentTracerDisabledWhen, () => true)
        )
        console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address.port}` }))
        return yield* Effect.never
      })
    )
  )
} else if (mode === "bare") {
  const bodies = JSON.parse(Fs.readFileSync(process.argv[3], "utf8"))
  const buffers = new Map(Object.entries(bodies).map(([path, body]) => [path, Buffer.from(body)]))
  const server = Http.createServer((req, res) => {
    const chunks = []
    req.on("data", (c) => chunks.push(c))
    req.on("end", () => {
      const body = buffers.get(req.url)
      if (!body) {
        res.writeHead(404).end()
        return
      }
      res.writeHead(200, {
        "content-type": "application/json",
        "content-length": body.length,
        "x-request-id": "req_bare"
      })
      res.end(body)
    })
  })
  server.keepAliveTimeout = 5_000
  server.listen(0, "127.0.0.1", () =>
    console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` }))
  )
} else {
  console.error("usage: server.mjs reference | bare <bodies.json>")
  process.exit(2)
}
