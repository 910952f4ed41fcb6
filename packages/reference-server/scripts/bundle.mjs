/* global console, URL */
// Two entry points in one file each, made after `tsc`; ES modules load one by one, and the
// server's ~660 (effect, @effect/platform, fast-check through effect/Schema, undici...; ~900 with
// @effect/cli) took about three times as long as the one file does.
// - dist/internal/worker.bundle.js: the worker of `ReferenceServer.startInWorker`, which every
//   embedded run waits for. Its copy of effect is safe in a worker: nothing in its isolate shares
//   a tag with the caller.
// - dist/bin.bundle.js: the command line (bin/reference-server.js), which test suites start once
//   per test case. Its copy of effect is the only one in its process.
// The SQLite store stays out of both (its client comes from the application's own install and
// would meet another copy of effect): a server with a SQLite store runs the unbundled
// dist/internal/worker.js or dist/bin.js.
import { build } from "esbuild"
import { fileURLToPath } from "node:url"
import { nodeBundle } from "../../../scripts/node-bundle.mjs"

const dist = (path) => fileURLToPath(new URL(`../dist/${path}`, import.meta.url))

await build({
  entryPoints: {
    "internal/worker.bundle": dist("internal/worker.js"),
    "bin.bundle": dist("bin.js")
  },
  outdir: dist(""),
  ...nodeBundle,
  external: ["@effect/sql-sqlite-node", "better-sqlite3"]
})
console.log("dist/internal/worker.bundle.js, dist/bin.bundle.js")
