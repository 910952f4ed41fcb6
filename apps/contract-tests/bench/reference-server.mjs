/* global process */
// The reference server in a Node process of its own, for bench/proxy.mjs: started with the options
// given as JSON (argv[2]), it sends its URL and a resource id to its parent over IPC and serves
// until the parent goes away.
import * as Effect from "effect/Effect"
import { ReferenceServer } from "@data-access/reference-server"

process.on("disconnect", () => process.exit(0))
await Effect.runPromise(
  Effect.gen(function* () {
    const server = yield* ReferenceServer.start(JSON.parse(process.argv[2] ?? "{}"))
    process.send({ url: server.url, resource: server.knownIds.resources[0] })
    yield* Effect.never
  }).pipe(Effect.scoped)
)
