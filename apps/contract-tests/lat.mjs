import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Effect from "effect/Effect"
import { Embedded, Report } from "./dist/index.js"
for (const seed of [1, 2, 3]) {
  const report = await Effect.runPromise(Embedded.run({ seed, examples: 30, server: { latitude: "all" } }).pipe(Effect.scoped, Effect.provide(NodeHttpClient.layerUndici)))
  console.log("latitude all seed", seed, report.findings.map(Report.findingText).join("\n") || "zero findings")
}
