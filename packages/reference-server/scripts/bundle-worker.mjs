/* global console, URL */
// The worker of `ReferenceServer.startInWorker` in one file (dist/internal/worker.bundle.js), made
// after `tsc`: a worker loads its modules anew, and the server's ~660 ES modules (effect,
// @effect/platform, fast-check through effect/Schema, undici...) took three times as long to load
// one by one as the one file does, which every embedded run waits for. The bundle holds its own
// copy of effect, which is safe in a worker: nothing in its isolate shares a tag with the caller.
// The SQLite store stays out (its client comes from the application's own install and would meet
// another copy of effect): a server with a SQLite store runs the unbundled dist/internal/worker.js.
import { build } from "esbuild"
import { fileURLToPath } from "node:url"

const dist = (path) => fileURLToPath(new URL(`../dist/${path}`, import.meta.url))

await build({
  entryPoints: [dist("internal/worker.js")],
  outfile: dist("internal/worker.bundle.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  mainFields: ["module", "main"],
  external: ["@effect/sql-sqlite-node", "better-sqlite3"],
  // CommonJS dependencies (ws, undici) require Node's built-in modules.
  banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
  legalComments: "none",
  logLevel: "warning"
})
console.log("dist/internal/worker.bundle.js")
