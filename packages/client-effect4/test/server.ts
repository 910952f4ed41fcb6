/**
 * The real reference server (`@data-access/reference-server`'s command line, on the Effect 3
 * line) in a child process on an ephemeral loopback port, started asynchronously and stopped when
 * the scope closes, and a client over real HTTP (undici).
 */
import * as KnownIds from "@data-access/schema-effect4/KnownIds"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { DataAccessClient } from "../src/index.js"

const require = createRequire(import.meta.url)
export const BIN = join(
  dirname(require.resolve("@data-access/reference-server/package.json")),
  "bin",
  "reference-server.js"
)

export interface ServerOptions {
  /** A fault plan (`Faults.FaultPlan` of the reference server), as JSON. */
  readonly faults?: unknown
  readonly latitude?: ReadonlyArray<string>
  readonly emitDefaults?: boolean
  readonly maxBodyBytes?: number
}

/** One line of the server's request log. */
export interface RequestLine {
  readonly method?: string
  readonly code: string
  readonly status: number
}

export interface RunningServer {
  readonly url: string
  readonly apiKey: string
  readonly knownIds: KnownIds.KnownIds
  /** The requests the server logged so far (the log line follows the response by a moment). */
  readonly requests: Effect.Effect<ReadonlyArray<RequestLine>>
}

const API_KEY = "test-key-4f1d9a"

const launch = (options: ServerOptions) =>
  new Promise<{
    child: ChildProcess
    url: string
    ids: string
    lines: Array<RequestLine>
    dir: string
  }>((resolve, reject) => {
    const dir = mkdtempSync(join(tmpdir(), "data-access-e4-"))
    const idsFile = join(dir, "ids.json")
    const args = [BIN, "--port", "0", "--api-key", API_KEY, "--write-ids", idsFile]
    if (options.faults !== undefined) args.push("--faults", JSON.stringify(options.faults))
    for (const l of options.latitude ?? []) args.push("--latitude", l)
    if (options.emitDefaults) args.push("--emit-defaults")
    if (options.maxBodyBytes !== undefined)
      args.push("--max-body-bytes", String(options.maxBodyBytes))
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] })
    const lines: Array<RequestLine> = []
    let buffer = ""
    let stderr = ""
    let started = false
    child.stdout!.setEncoding("utf8")
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    child.stdout!.on("data", (chunk: string) => {
      buffer += chunk
      let nl: number
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl).trim()
        buffer = buffer.slice(nl + 1)
        const listening = /listening on (http:\/\/\S+)/.exec(line)
        if (listening && !started) {
          started = true
          resolve({ child, url: listening[1]!, ids: readFileSync(idsFile, "utf8"), lines, dir })
        } else if (line.startsWith("{")) {
          const entry = JSON.parse(line) as { readonly annotations?: RequestLine }
          if (entry.annotations !== undefined) lines.push(entry.annotations)
        }
      }
    })
    child.on("exit", (code) => {
      if (!started)
        reject(new Error(`the reference server exited (${code}) before listening: ${stderr}`))
    })
    child.on("error", reject)
  })

/** Starts a reference server in its own process for the current scope. */
export const startServer = (options: ServerOptions = {}) =>
  Effect.gen(function* () {
    const started = yield* Effect.acquireRelease(
      Effect.promise(() => launch(options)),
      ({ child, dir }) =>
        Effect.promise(
          () =>
            new Promise<void>((resolve) => {
              rmSync(dir, { recursive: true, force: true })
              if (child.exitCode !== null) return resolve()
              child.once("exit", () => resolve())
              child.kill("SIGTERM")
            })
        )
    )
    const knownIds = yield* Effect.orDie(KnownIds.decodeJson(started.ids))
    const server: RunningServer = {
      url: started.url,
      apiKey: API_KEY,
      knownIds,
      requests: Effect.promise(
        () =>
          new Promise<ReadonlyArray<RequestLine>>((resolve) =>
            setTimeout(() => resolve([...started.lines]), 100)
          )
      )
    }
    return server
  })

/** A client layer for a server, over NodeHttpClient (undici). */
export const clientLayer = (
  server: RunningServer,
  options: Partial<DataAccessClient.Options> = {}
) =>
  DataAccessClient.layer({
    baseUrl: server.url,
    apiKey: Redacted.make(server.apiKey),
    ...options
  }).pipe(Layer.provide(NodeHttpClient.layerUndici), Layer.orDie)

/** Starts a server and returns it with a client layer. */
export const startWithClient = (
  options: ServerOptions = {},
  client: Partial<DataAccessClient.Options> = {}
) => Effect.map(startServer(options), (server) => ({ server, layer: clientLayer(server, client) }))
