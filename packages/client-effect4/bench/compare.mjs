/* global process, console, fetch */
// The Effect 4 client beside the Effect 3 client, in one run, against the same reference server
// (its command line, in a child process, demo data in memory, no request log):
//
// 1. GetResource calls per second and p50/p99 latency through @data-access/client-effect4 (Effect
//    4, effect/http over @effect/platform-node 4's undici layer) and @data-access/client (Effect
//    3, @effect/platform over @effect/platform-node 0.108's undici layer), at concurrency 1 and
//    32, in alternating short rounds so that both see the same machine noise.
// 2. Decoding a 500-item ListNativeUsers page (JSON.parse included): what each client does with
//    a response body, the client's decoder on each line (the schema compiled by
//    @data-access/core/Decoder), and plain Schema.decodeUnknownEither of Effect 3 beside them.
//
// Each Effect line runs with its own copy of `effect`: the Effect 3 client and its runtime are
// loaded from packages/client's own node_modules.
//
// Run: pnpm --filter @data-access/client-effect4 bench   (Node >= 22.19; the script picks one)
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"
import * as Os from "node:os"
// Effect 4
import * as Effect4 from "effect/Effect"
import * as Layer4 from "effect/Layer"
import * as ManagedRuntime4 from "effect/ManagedRuntime"
import * as Redacted4 from "effect/Redacted"
import * as Result4 from "effect/Result"
import * as NodeHttpClient4 from "@effect/platform-node/NodeHttpClient"
import * as Operations4 from "@data-access/schema-effect4/Operations"
import { DataAccessClient as DataAccessClient4 } from "../dist/index.js"
import { combine, countSecrets, measure, medianMillis } from "@data-access/client-behaviour/bench"
import { makeDecoder as makeDecoder4 } from "../dist/internal/decode.js"

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4)
const ROUNDS = 8

// ---------------------------------------------------------------------------------------------
// The Effect 3 line, from packages/client's own dependencies
// ---------------------------------------------------------------------------------------------

const require = createRequire(import.meta.url)
const client3Dir = dirname(require.resolve("@data-access/client/package.json"))
const from3 = createRequire(join(client3Dir, "package.json"))
const esm = (pkg, file) =>
  import(
    pathToFileURL(
      join(realpathSync(dirname(from3.resolve(`${pkg}/package.json`))), "dist", "esm", file)
    ).href
  )
const [Effect3, Layer3, ManagedRuntime3, Redacted3, NodeHttpClient3, Schema3] = await Promise.all([
  esm("effect", "Effect.js"),
  esm("effect", "Layer.js"),
  esm("effect", "ManagedRuntime.js"),
  esm("effect", "Redacted.js"),
  esm("@effect/platform-node", "NodeHttpClient.js"),
  esm("effect", "Schema.js")
])
const { DataAccessClient: DataAccessClient3 } = await import(
  pathToFileURL(join(client3Dir, "dist", "index.js")).href
)
const { Decode: Decode3, Operations: Operations3 } = await import(
  pathToFileURL(
    realpathSync(
      join(dirname(from3.resolve("@data-access/schema/package.json")), "dist", "index.js")
    )
  ).href
)
const makeDecoder3 = Decode3.makeDecoder

if (Effect3 === Effect4) throw new Error("the two lines share one effect")

// ---------------------------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------------------------

const serverDir = dirname(require.resolve("@data-access/reference-server/package.json"))
const tmp = mkdtempSync(join(tmpdir(), "data-access-bench-"))
const idsFile = join(tmp, "ids.json")
const API_KEY = "bench-key"
const child = spawn(
  process.execPath,
  [
    join(serverDir, "bin", "reference-server.js"),
    "--port",
    "0",
    "--api-key",
    API_KEY,
    "--write-ids",
    idsFile,
    "--quiet"
  ],
  { stdio: ["ignore", "pipe", "inherit"] }
)
const url = await new Promise((resolve, reject) => {
  let out = ""
  child.stdout.setEncoding("utf8").on("data", (d) => {
    out += d
    const m = /listening on (http:\/\/\S+)/.exec(out)
    if (m) resolve(m[1])
  })
  child.on("exit", (code) => reject(new Error(`the reference server exited (${code})`)))
})
const ids = JSON.parse(readFileSync(idsFile, "utf8"))
const id = ids.resources[0]
const stop = () => {
  child.kill("SIGTERM")
  rmSync(tmp, { recursive: true, force: true })
}

// ---------------------------------------------------------------------------------------------
// Both clients, each with its own runtime
// ---------------------------------------------------------------------------------------------

const runtime4 = ManagedRuntime4.make(
  DataAccessClient4.layer({ baseUrl: url, apiKey: Redacted4.make(API_KEY) }).pipe(
    Layer4.provide(NodeHttpClient4.layerUndici),
    Layer4.orDie
  )
)
const client4 = await runtime4.runPromise(Effect4.service(DataAccessClient4.DataAccessClient))
const runtime3 = ManagedRuntime3.make(
  DataAccessClient3.layer({ baseUrl: url, apiKey: Redacted3.make(API_KEY) }).pipe(
    Layer3.provide(NodeHttpClient3.layerUndici),
    Layer3.orDie
  )
)
const client3 = await runtime3.runPromise(DataAccessClient3.DataAccessClient)

const via4 = () => runtime4.runPromise(client4.getResource({ id }))
const via3 = () => runtime3.runPromise(client3.getResource({ id }))

// The same answer from both, before timing anything.
const [a4, a3] = [await via4(), await via3()]
if (a4.resource.id !== id || a3.resource.id !== id || a4.resource.port !== a3.resource.port)
  throw new Error("the clients disagree")

// ---------------------------------------------------------------------------------------------
// 1. Calls per second
// ---------------------------------------------------------------------------------------------

for (const path of [via4, via3]) await measure(path, 8, 1) // warm up: JIT, connection pools

const rows = []
for (const concurrency of [1, 32]) {
  const parts = { e4: [], e3: [] }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ["e4", "e3"] : ["e3", "e4"]
    for (const line of order)
      parts[line].push(await measure(line === "e4" ? via4 : via3, concurrency, SECONDS / ROUNDS))
  }
  const e4 = combine(parts.e4)
  const e3 = combine(parts.e3)
  rows.push({
    scenario: `GetResource c=${concurrency}`,
    "Effect 4 calls/s": e4.rps.toFixed(0),
    "Effect 3 calls/s": e3.rps.toFixed(0),
    "4 vs 3 ratio": (e4.rps / e3.rps).toFixed(2),
    "Effect 4 p50/p99 ms": `${e4.p50.toFixed(2)} / ${e4.p99.toFixed(2)}`,
    "Effect 3 p50/p99 ms": `${e3.p50.toFixed(2)} / ${e3.p99.toFixed(2)}`
  })
}

// ---------------------------------------------------------------------------------------------
// 2. Decode time of a 500-item page
// ---------------------------------------------------------------------------------------------

const served = await fetch(`${url}/core.v1.ResourceService/ListNativeUsers`, {
  method: "POST",
  headers: { "content-type": "application/json", "x-api-key": API_KEY },
  body: JSON.stringify({ resourceId: id, limit: 500 })
}).then((r) => r.json())
// 500 items, the server's own native users repeated (ids made unique), as packages/client/bench does.
const users = Array.from({ length: 500 }, (_, i) => {
  const source = served.nativeUsers[i % served.nativeUsers.length]
  return { ...source, id: `${source.id}_${i}` }
})
const page = JSON.stringify({ nativeUsers: users, listMetadata: { count: 500, nextCursor: "" } })
const items = users.length
// Each client's decoder: the schema compiled by @data-access/core/Decoder, the parser for errors.
const decode4 = makeDecoder4(Operations4.operations.ListNativeUsers.response)
const decode3 = makeDecoder3(Operations3.operations.ListNativeUsers.response)
const time = (f) => medianMillis(f, { seconds: 1.5, warmup: 30 })
const parseOnly = time(() => JSON.parse(page))
const d4 = time(() => {
  if (!Result4.isSuccess(decode4(JSON.parse(page)))) throw new Error("Effect 4 decode failed")
})
const d3 = time(() => {
  if (decode3(JSON.parse(page))._tag !== "Right") throw new Error("Effect 3 decode failed")
})
const plain3 = Schema3.decodeUnknownEither(Operations3.operations.ListNativeUsers.response)
const p3 = time(() => {
  if (plain3(JSON.parse(page))._tag !== "Right") throw new Error("Effect 3 decode failed")
})
// The floor under both: the schema makes a new Redacted for each secret of each decode (an absent
// one is an empty Redacted), and a Redacted's value lives in a WeakMap entry.
const secrets = countSecrets(Redacted3.isRedacted, decode3(JSON.parse(page)).right)
const makes3 = time(() => {
  for (let i = 0; i < secrets; i++) Redacted3.make("")
})
rows.push({
  scenario: `decode ListNativeUsers (${items} items), median ms`,
  "Effect 4 calls/s": "",
  "Effect 3 calls/s": "",
  "4 vs 3 ratio": (d4 / d3).toFixed(2),
  "Effect 4 p50/p99 ms": d4.toFixed(2),
  "Effect 3 p50/p99 ms": d3.toFixed(2)
})

console.log(
  `Effect 4 client vs Effect 3 client, ${Os.cpus().length} cores, Node ${process.versions.node}, ${SECONDS} s per scenario and line`
)
console.table(rows)
console.log(`  JSON.parse alone of the page       ${parseOnly.toFixed(2)} ms`)
console.log(
  `  Effect 3 plain Schema decode       ${p3.toFixed(2)} ms (ratio: Effect 4 / plain Effect 3 ${(d4 / p3).toFixed(2)})`
)
console.log(
  `  decode alone / JSON.parse          Effect 4 ${((d4 - parseOnly) / parseOnly).toFixed(2)}, Effect 3 ${((d3 - parseOnly) / parseOnly).toFixed(2)} (JSON.parse + decode / JSON.parse: Effect 4 ${(d4 / parseOnly).toFixed(2)}, Effect 3 ${(d3 / parseOnly).toFixed(2)})`
)
console.log(
  `  Redacted.make alone / JSON.parse    Effect 3 ${(makes3 / parseOnly).toFixed(2)} (the ${secrets} secrets of the page, each a new Redacted per decode)`
)
console.log(
  `  calls/s ratio                      ${rows
    .slice(0, 2)
    .map((r) => `${r.scenario}: ${r["4 vs 3 ratio"]}`)
    .join(", ")} (ratio: Effect 4 / Effect 3, above 1 is faster)`
)
console.log(
  `  decode time ratio                  ${(d4 / d3).toFixed(2)} (ratio: Effect 4 / Effect 3, below 1 is faster)`
)

await runtime4.dispose()
await runtime3.dispose()
stop()
process.exit(0)
