/* global console, URL */
// The proxy's judging thread in one file (dist/internal/proxy/worker.bundle.js), made after `tsc`,
// as packages/reference-server does for its worker: a thread loads its modules anew, and the
// judging module's hundreds of ES modules (effect, effect/Schema, the contract's schemas, the
// checks...) loaded one by one are most of a proxy's start. The bundle holds its own copy of
// effect, which is safe in a worker: nothing in its isolate shares a tag with the relay's thread,
// and the two threads exchange plain structured-cloned messages.
import { build } from "esbuild"
import { fileURLToPath } from "node:url"
import { nodeBundle } from "../../../scripts/node-bundle.mjs"

const dist = (path) => fileURLToPath(new URL(`../dist/${path}`, import.meta.url))

await build({
  entryPoints: [dist("internal/proxy/worker.js")],
  outfile: dist("internal/proxy/worker.bundle.js"),
  ...nodeBundle
})
console.log("dist/internal/proxy/worker.bundle.js")
