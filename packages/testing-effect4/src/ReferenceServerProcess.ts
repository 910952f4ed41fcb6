/**
 * The reference server (`@data-access/reference-server`, built on the Effect 3 line) in a child
 * process on an ephemeral loopback port, for the tests of an Effect 4 app. Two Effect lines never
 * share a process or a `node_modules/effect`: the server runs with its own.
 *
 * Which server runs:
 * - `command` when given (`["data-access-reference-server"]`, `["docker", "run", ...]`);
 * - else `@data-access/reference-server` as installed next to this package, when the `effect` it
 *   resolves is on the 3 line (a monorepo, or a tools directory with its own install);
 * - else `npx -y -p @data-access/reference-server@<SERVER_RANGE> data-access-reference-server`:
 *   npm installs it once into its cache with its own Effect 3 peers.
 *
 * @since 0.1.0
 */
import * as KnownIds from "@data-access/schema-effect4/KnownIds"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"

const require = createRequire(import.meta.url)

/**
 * The version range of `@data-access/reference-server` fetched with `npx` when none is installed:
 * the range this package was released with (its development dependency on the server, which
 * `pnpm publish` writes as a semver range), else `latest`.
 *
 * @since 0.1.0
 * @category constants
 */
export const SERVER_RANGE: string = (() => {
  const manifest = require("../package.json") as {
    readonly devDependencies?: Record<string, string>
  }
  const range = manifest.devDependencies?.["@data-access/reference-server"]
  return range !== undefined && !range.startsWith("workspace:") ? range : "latest"
})()

/**
 * The API key the server accepts unless `apiKey` is given.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_API_KEY = "test-key"

/**
 * Options of the server process; each maps to a flag of `data-access-reference-server`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The API key the server accepts (default `DEFAULT_API_KEY`). */
  readonly apiKey?: string | undefined
  /** `demo` (default) seeds the demo data set; `empty` starts with nothing (`--no-demo`). */
  readonly data?: "demo" | "empty" | undefined
  /** Fixtures in wire form (the reference server's fixtures file, as an object), loaded at start. */
  readonly fixtures?: Readonly<Record<string, ReadonlyArray<unknown>>> | undefined
  /** A fault plan (`Faults.FaultPlan` of the reference server), as JSON. */
  readonly faults?: unknown
  /** Latitude switches to turn on (`["unique-names"]`, or `["all"]`). */
  readonly latitude?: ReadonlyArray<string> | undefined
  /** Write every response field, zero values too. */
  readonly emitDefaults?: boolean | undefined
  /** Request body limit in bytes. */
  readonly maxBodyBytes?: number | undefined
  /** The command that starts the server, without its flags (see the module's description). */
  readonly command?: ReadonlyArray<string> | undefined
  /** How long to wait for the server to listen (default 60 s: a first `npx` run downloads it). */
  readonly startTimeoutMillis?: number | undefined
}

/**
 * One request the server logged.
 *
 * @since 0.1.0
 * @category models
 */
export interface RequestLine {
  readonly method?: string
  readonly httpMethod: string
  readonly code: string
  readonly status: number
  readonly durationMs: number
  readonly requestId?: string
}

/**
 * A running server.
 *
 * @since 0.1.0
 * @category models
 */
export interface Running {
  /** `http://127.0.0.1:PORT` */
  readonly url: string
  readonly apiKey: string
  /** The ids of every object the server was seeded with. */
  readonly knownIds: KnownIds.KnownIds
  /** The requests the server logged so far (its log line follows each response by a moment). */
  readonly requests: Effect.Effect<ReadonlyArray<RequestLine>>
}

/**
 * The server did not start.
 *
 * @since 0.1.0
 * @category errors
 */
export class StartError extends Data.TaggedError("StartError")<{ readonly message: string }> {}

/** The installed server's bin, when the `effect` next to it is on the 3 line. */
const installedBin = (): string | undefined => {
  try {
    const dir = dirname(require.resolve("@data-access/reference-server/package.json"))
    const effect = createRequire(join(dir, "package.json"))("effect/package.json") as {
      readonly version: string
    }
    return effect.version.startsWith("3.") ? join(dir, "bin", "reference-server.js") : undefined
  } catch {
    return undefined
  }
}

/**
 * The command that starts the server by default: the installed one or `npx`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const defaultCommand = (): ReadonlyArray<string> => {
  const bin = installedBin()
  return bin !== undefined
    ? [process.execPath, bin]
    : [
        "npx",
        "-y",
        "-p",
        `@data-access/reference-server@${SERVER_RANGE}`,
        "data-access-reference-server"
      ]
}

interface Started {
  readonly child: ChildProcess
  readonly dir: string
  readonly url: string
  readonly ids: string
  readonly lines: Array<RequestLine>
}

const launch = (options: Options): Promise<Started> =>
  new Promise((resolve, reject) => {
    const dir = mkdtempSync(join(tmpdir(), "data-access-test-"))
    const idsFile = join(dir, "ids.json")
    const [command, ...prefix] = options.command ?? defaultCommand()
    const args = [
      ...prefix,
      "--port",
      "0",
      "--host",
      "127.0.0.1",
      "--api-key",
      options.apiKey ?? DEFAULT_API_KEY,
      "--write-ids",
      idsFile
    ]
    if (options.data === "empty") args.push("--no-demo")
    if (options.fixtures !== undefined) {
      const file = join(dir, "fixtures.json")
      writeFileSync(file, JSON.stringify(options.fixtures))
      args.push("--fixtures", file)
    }
    if (options.faults !== undefined) args.push("--faults", JSON.stringify(options.faults))
    for (const l of options.latitude ?? []) args.push("--latitude", l)
    if (options.emitDefaults) args.push("--emit-defaults")
    if (options.maxBodyBytes !== undefined)
      args.push("--max-body-bytes", String(options.maxBodyBytes))
    const child = spawn(command!, args, { stdio: ["ignore", "pipe", "pipe"] })
    const lines: Array<RequestLine> = []
    let buffer = ""
    let stderr = ""
    let started = false
    const timer = setTimeout(() => {
      if (started) return
      child.kill("SIGKILL")
      reject(
        new Error(
          `the reference server did not listen within ${options.startTimeoutMillis ?? 60_000} ms: ${stderr}`
        )
      )
    }, options.startTimeoutMillis ?? 60_000)
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
          clearTimeout(timer)
          resolve({ child, dir, url: listening[1]!, ids: readFileSync(idsFile, "utf8"), lines })
        } else if (line.startsWith("{")) {
          try {
            const entry = JSON.parse(line) as { readonly annotations?: RequestLine }
            if (entry.annotations !== undefined) lines.push(entry.annotations)
          } catch {
            // not a request log line
          }
        }
      }
    })
    child.on("exit", (code) => {
      clearTimeout(timer)
      if (!started)
        reject(
          new Error(`the reference server exited (${code}) before listening: ${stderr.trim()}`)
        )
    })
    child.on("error", (e) => {
      clearTimeout(timer)
      reject(e)
    })
  })

const stop = ({ child, dir }: Started): Promise<void> =>
  new Promise((resolve) => {
    const done = () => {
      rmSync(dir, { recursive: true, force: true })
      resolve()
    }
    if (child.exitCode !== null || child.signalCode !== null) return done()
    child.once("exit", done)
    child.kill("SIGTERM")
  })

/**
 * Starts a server in its own process, stopped (SIGTERM, requests in flight answered) when the
 * scope closes.
 *
 * @since 0.1.0
 * @category constructors
 */
export const start = (options: Options = {}): Effect.Effect<Running, StartError, Scope.Scope> =>
  Effect.gen(function* () {
    const started = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => launch(options),
        catch: (e) => new StartError({ message: String((e as Error).message ?? e) })
      }),
      (s) => Effect.promise(() => stop(s))
    )
    const knownIds = yield* Effect.mapError(
      KnownIds.decodeJson(started.ids),
      (e) => new StartError({ message: `--write-ids: ${e.message}` })
    )
    return {
      url: started.url,
      apiKey: options.apiKey ?? DEFAULT_API_KEY,
      knownIds,
      requests: Effect.promise(
        () =>
          new Promise<ReadonlyArray<RequestLine>>((resolve) =>
            setTimeout(() => resolve([...started.lines]), 100)
          )
      )
    }
  })
