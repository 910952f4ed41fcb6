import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Effect from "effect/Effect"
import { Embedded, Report } from "./dist/index.js"
const report = await Effect.runPromise(Embedded.run({ seed: 7, examples: 10, operations: process.argv.slice(2), server: { latitude: "all" } }).pipe(Effect.scoped, Effect.provide(NodeHttpClient.layerUndici)))
console.log(report.findings.map(Report.findingText).join("\n") || "zero findings")
