/* global process, console */
// The benchmark's server process: starts the reference server (demo data, in memory) on a loopback
// port, prints one JSON line ({ url, apiKey, resourceId }), and stops when stdin closes.
import { Effect, Scope, Exit } from "effect"
import { ReferenceServer } from "@data-access/reference-server"

const scope = Effect.runSync(Scope.make())
const server = await Effect.runPromise(Scope.extend(ReferenceServer.start(), scope))
console.log(
  JSON.stringify({
    url: server.url,
    apiKey: server.apiKeys[0],
    resourceId: server.knownIds.resources[0]
  })
)
process.stdin.resume()
process.stdin.on("end", () =>
  Effect.runPromise(Scope.close(scope, Exit.void)).then(() => process.exit(0))
)
