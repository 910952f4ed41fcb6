/* global process, performance, console, Response */
import { HttpClient, HttpClientResponse } from "@effect/platform"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { DataAccessClient } from "../dist/index.js"
const body = JSON.stringify({ resource: { id: "resource_1", name: "db", port: 5432, technology: "postgres", hostname: "db.internal", createdAt: "2025-01-07T03:56:48.034Z", updatedAt: "2025-01-07T03:56:48.034Z" } })
const fake = HttpClient.make((request) => Effect.succeed(HttpClientResponse.fromWeb(request, new Response(body, { status: 200, headers: { "content-type": "application/json" } }))))
const runtime = ManagedRuntime.make(DataAccessClient.layer({ baseUrl: "http://x.invalid", apiKey: Redacted.make("k") }).pipe(Layer.orDie, Layer.provide(Layer.succeed(HttpClient.HttpClient, fake))))
const client = await runtime.runPromise(DataAccessClient.DataAccessClient)
const rawClient = HttpClient.make((request) => Effect.succeed(HttpClientResponse.fromWeb(request, new Response(body, { status: 200 }))))
const paths = {
  webResponseOnly: async () => (await new Response(body, { status: 200 })).json(),
  rawEffect: () => runtime.runPromise(Effect.flatMap(rawClient.post("http://x.invalid/a"), (r) => r.json)),
  client: () => runtime.runPromise(client.getResource({ id: "resource_1" })),
}
for (let round = 0; round < 3; round++) {
  const out = []
  for (const [name, f] of Object.entries(paths)) {
    for (let i = 0; i < 500; i++) await f()
    const t0 = performance.now(); for (let i = 0; i < 3000; i++) await f(); out.push(`${name} ${((performance.now() - t0) / 3000 * 1000).toFixed(1)}µs`)
  }
  console.log(out.join(" | "))
}
process.exit(0)
