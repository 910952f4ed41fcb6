/* global process, fetch, console, URL */
// Benchmark of @data-access/client against the reference server, in one run (about 40 s). The
// server runs in a child process, so that the client's own work does not slow the server down.
//
// 1. GetResource calls per second and p50/p99 latency, through the client and through a bare
//    `fetch` of the same request (the same headers, Connect-Timeout-Ms included, so that the
//    server does the same work for both), at concurrency 1 and 64. Goal: client >= 85%.
//    The client runs on `NodeHttpClient.layerUndici` (undici's request API, keep-alive pool), the
//    layer the README tells Node users to provide; the same client on `FetchHttpClient` (Node's
//    global fetch, itself undici with keep-alive) is shown beside it, and so is each HttpClient
//    alone (no client on top) for reference. Both sides reuse keep-alive connections. p50 and p99
//    are of every call of a path's rounds together.
// 2. Decoding a 500-item ListNativeUsers page with the schemas (the client's decoder: the schema
//    compiled once to a fast path), against the official stack's codec in the same run:
//    protobuf-es's `fromJsonString` of the generated ListNativeUsersResponse (the messages
//    tools/connect-server generates from the API's .proto; build it first). Goal: parse + decode
//    at or under 0.5 of `fromJsonString`. JSON.parse alone is shown too, and the floor the secrets set:
//    each of the page's secrets (NativeUser `secret` and `basic.password`) decodes to a new
//    `Redacted` (decisions.md section 8), and Effect 3's `Redacted.make` registers each one in a
//    WeakMap; those makes alone are timed against JSON.parse too.
//
// Run: pnpm --filter @data-access/client bench   (builds the client and the server first)
import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { Effect, Layer, ManagedRuntime, Redacted, Schema } from "effect"
import { spawn } from "node:child_process"
import { createRequire } from "node:module"
import { pathToFileURL } from "node:url"
import { createInterface } from "node:readline"
import * as Os from "node:os"
import { Operations } from "@data-access/schema"
import { DataAccessClient } from "../dist/index.js"
import { makeDecoder } from "@data-access/schema/Decode"
import { USER_AGENT } from "../dist/internal/client.js"
import {
  combine,
  countSecrets,
  fetchNativeUsersPage,
  measure,
  medianMillis
} from "@data-access/client-behaviour/bench"

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4)

const child = spawn(process.execPath, [new URL("./server.mjs", import.meta.url).pathname], {
  stdio: ["pipe", "pipe", "inherit"]
})
const {
  url: serverUrl,
  apiKey,
  resourceId: id
} = JSON.parse(
  await new Promise((resolve) => createInterface({ input: child.stdout }).once("line", resolve))
)
const server = { url: serverUrl }

const clientOn = async (httpClientLayer) => {
  const runtime = ManagedRuntime.make(
    DataAccessClient.layer({ baseUrl: server.url, apiKey: Redacted.make(apiKey) }).pipe(
      Layer.orDie,
      Layer.provideMerge(httpClientLayer)
    )
  )
  return {
    runtime,
    client: await runtime.runPromise(DataAccessClient.DataAccessClient),
    httpClient: await runtime.runPromise(HttpClient.HttpClient)
  }
}
const undici = await clientOn(NodeHttpClient.layerUndici)
const fetchLayer = await clientOn(FetchHttpClient.layer)
const { runtime, client } = undici

const viaClient = () => runtime.runPromise(client.getResource({ id }))
const viaClientOnFetch = () => fetchLayer.runtime.runPromise(fetchLayer.client.getResource({ id }))
const url = `${server.url}/core.v1.ResourceService/GetResource`
const body = JSON.stringify({ id })
// The request the client sends: the same headers (its default 10 s attempt timeout as
// Connect-Timeout-Ms, which the server honours with a deadline of its own), the same body.
const headers = {
  "content-type": "application/json",
  "connect-protocol-version": "1",
  "user-agent": USER_AGENT,
  "connect-timeout-ms": "10000",
  "x-api-key": apiKey
}
const viaFetch = async () => {
  const response = await fetch(url, { method: "POST", headers, body })
  if (response.status !== 200) throw new Error(`status ${response.status}`)
  return response.json()
}

// For reference: @effect/platform's HttpClient alone, the floor under the client.
const rawRequest = HttpClientRequest.post(url, { headers }).pipe(
  HttpClientRequest.bodyText(body, "application/json")
)
const viaHttpClient = () =>
  runtime.runPromise(Effect.flatMap(undici.httpClient.execute(rawRequest), (r) => r.json))
const viaFetchHttpClient = () =>
  fetchLayer.runtime.runPromise(
    Effect.flatMap(fetchLayer.httpClient.execute(rawRequest), (r) => r.json)
  )

// Warm up every path (JIT, connection pool).
for (const path of [viaClient, viaFetch, viaHttpClient, viaClientOnFetch, viaFetchHttpClient])
  await measure(path, 8, 1)

// The machine is shared: alternate the two paths in short rounds so that both see the same noise.
const ROUNDS = 8
const rows = []
for (const concurrency of [1, 64]) {
  const parts = { bare: [], effect: [], raw: [], effectOnFetch: [], rawOnFetch: [] }
  for (let round = 0; round < ROUNDS; round++) {
    parts.bare.push(await measure(viaFetch, concurrency, SECONDS / ROUNDS))
    parts.effect.push(await measure(viaClient, concurrency, SECONDS / ROUNDS))
    parts.raw.push(await measure(viaHttpClient, concurrency, SECONDS / ROUNDS / 2))
    parts.effectOnFetch.push(await measure(viaClientOnFetch, concurrency, SECONDS / ROUNDS / 2))
    parts.rawOnFetch.push(await measure(viaFetchHttpClient, concurrency, SECONDS / ROUNDS / 2))
  }
  const bare = combine(parts.bare)
  const effect = combine(parts.effect)
  const ratio = (p) => `${((combine(p).rps / bare.rps) * 100).toFixed(1)}%`
  rows.push({
    scenario: `GetResource c=${concurrency}`,
    "fetch calls/s": bare.rps.toFixed(0),
    "client calls/s": effect.rps.toFixed(0),
    "client/fetch": ratio(parts.effect),
    "fetch p50/p99 ms": `${bare.p50.toFixed(2)} / ${bare.p99.toFixed(2)}`,
    "client p50/p99 ms": `${effect.p50.toFixed(2)} / ${effect.p99.toFixed(2)}`,
    goal: effect.rps / bare.rps >= 0.85 ? "ok (>= 85%)" : "MISSED (< 85%)",
    "undici HttpClient alone/fetch": ratio(parts.raw),
    "client on FetchHttpClient/fetch": ratio(parts.effectOnFetch),
    "FetchHttpClient alone/fetch": ratio(parts.rawOnFetch)
  })
}

// A 500-item ListNativeUsers page, made from the server's own native users (ids made unique).
const page = await runtime.runPromise(
  Effect.map(client.call("ListNativeUsers", { resourceId: id, limit: 500 }), (r) => r)
)
const raw = JSON.parse(await fetchNativeUsersPage(server.url, apiKey, id))
const items = []
for (let i = 0; items.length < 500; i++) {
  const source = raw.nativeUsers[i % raw.nativeUsers.length]
  items.push({ ...source, id: `${source.id}_${i}` })
}
const text = JSON.stringify({ nativeUsers: items, listMetadata: { count: 500, nextCursor: "" } })
// The client's decoder (the schema compiled to a fast path, Effect's parser for errors) and, for
// reference, Effect's parser alone.
const clientDecode = makeDecoder(Operations.operations.ListNativeUsers.response)
const decode = (u) => {
  const r = clientDecode(u)
  if (r._tag !== "Right") throw new Error("decode failed")
  return r.right
}
const effectDecode = Schema.decodeUnknownSync(Operations.operations.ListNativeUsers.response)
const check = decode(JSON.parse(text))
if (check.nativeUsers.length !== 500 || page.nativeUsers.length === 0) throw new Error("bad page")
if (JSON.stringify(check) !== JSON.stringify(effectDecode(JSON.parse(text))))
  throw new Error("the fast path differs from Schema")

// The official codec: protobuf-es, with the messages generated from the API's .proto.
const connectServer = new URL("../../../tools/connect-server/", import.meta.url)
const { fromJsonString } = await import(
  pathToFileURL(createRequire(new URL("package.json", connectServer)).resolve("@bufbuild/protobuf"))
    .href
)
const { ListNativeUsersResponseSchema } = await import(
  new URL("dist/gen/core/v1/api_pb.js", connectServer).href
)
if (fromJsonString(ListNativeUsersResponseSchema, text).nativeUsers.length !== 500)
  throw new Error("protobuf-es read another page")

const timeIt = (f) => medianMillis(f, { seconds: 2, warmup: 50 })
const parseOnly = timeIt(() => JSON.parse(text))
const parsed = JSON.parse(text)
const decodeOnly = timeIt(() => decode(parsed))
const both = timeIt(() => decode(JSON.parse(text)))
const effectOnly = timeIt(() => effectDecode(parsed))
const protobufOnly = timeIt(() => fromJsonString(ListNativeUsersResponseSchema, text))
const secrets = countSecrets(Redacted.isRedacted, check)
const redactedOnly = timeIt(() => {
  for (let i = 0; i < secrets; i++) Redacted.make("")
})
rows.push({
  scenario: `decode 500 NativeUsers (${(text.length / 1024).toFixed(0)} KiB)`,
  "JSON.parse ms": parseOnly.toFixed(3),
  "schema decode ms": decodeOnly.toFixed(3),
  "parse+decode ms": both.toFixed(3),
  "protobuf-es fromJsonString ms": protobufOnly.toFixed(3),
  "parse+decode / fromJsonString": `${(both / protobufOnly).toFixed(2)}x`,
  "parse+decode / parse": `${(both / parseOnly).toFixed(2)}x`,
  "decode / parse": `${(decodeOnly / parseOnly).toFixed(2)}x`,
  "Schema.decodeUnknownSync ms": effectOnly.toFixed(3),
  [`${secrets} Redacted.make / parse`]: `${(redactedOnly / parseOnly).toFixed(2)}x`,
  goal:
    both / protobufOnly <= 0.5 ? "ok (<= 0.5x fromJsonString)" : "MISSED (> 0.5x fromJsonString)"
})

console.log(
  `@data-access/client benchmark (Node ${process.version}, ${SECONDS} s per scenario, reference server on loopback, ${Os.cpus().length} cores, load average ${Os.loadavg()[0].toFixed(1)})`
)
console.table(rows.slice(0, 2))
console.table(rows.slice(2))

await runtime.dispose()
await fetchLayer.runtime.dispose()
child.stdin.end()
