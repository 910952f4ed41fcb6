/**
 * The `data-access-reference-server` executable as an installed package runs it: bin/reference-server.js
 * in a process of its own, over the build (`dist`, which turbo builds before the tests), from its
 * one-file bundle or, with a SQLite store, from the unbundled modules.
 */
import { KnownIds } from "@data-access/schema"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { rpc } from "./helpers.js"

const BIN = fileURLToPath(new URL("../bin/reference-server.js", import.meta.url))

interface Exit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

/** Starts the bin; once it prints its URL, runs `use` against it, then stops it with SIGTERM. */
const withBin = <A>(
  args: ReadonlyArray<string>,
  use: (url: string, lines: ReadonlyArray<string>) => Effect.Effect<A>
) =>
  Effect.gen(function* () {
    const child = spawn(process.execPath, [BIN, "--port", "0", ...args], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    const exited = new Promise<Exit>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal }))
    )
    const lines: Array<string> = []
    let stderr = ""
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    const url = yield* Effect.promise(
      () =>
        new Promise<string | undefined>((resolve) => {
          let buffer = ""
          child.stdout.setEncoding("utf8").on("data", (d: string) => {
            buffer += d
            const parts = buffer.split("\n")
            buffer = parts.pop()!
            for (const line of parts) {
              lines.push(line)
              const m = /listening on (http:\/\/\S+)/.exec(line)
              if (m) resolve(m[1]!)
            }
          })
          void exited.then(() => resolve(undefined))
        })
    )
    expect(url, stderr).toBeDefined()
    const result = yield* use(url!, lines)
    child.kill("SIGTERM")
    return { result, exit: yield* Effect.promise(() => exited), stderr }
  })

const tempDir = Effect.acquireRelease(
  Effect.sync(() => Fs.mkdtempSync(Path.join(Os.tmpdir(), "reference-bin-"))),
  (dir) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
)

/** The first resource of the ids file, asked for; its status and name. */
const getFirstResource = (url: string, idsFile: string) =>
  Effect.gen(function* () {
    const ids = yield* Effect.orDie(KnownIds.decodeJson(Fs.readFileSync(idsFile, "utf8")))
    const reply = yield* rpc({ url, apiKeys: ["bin-key"] }, "GetResource", { id: ids.resources[0] })
    return { status: reply.status, name: typeof reply.json?.resource?.name }
  })

describe("bin/reference-server.js", () => {
  it.scoped("serves the demo data, logs its requests and exits 0 on SIGTERM", () =>
    Effect.gen(function* () {
      const ids = Path.join(yield* tempDir, "ids.json")
      const { result, exit, stderr } = yield* withBin(
        ["--api-key", "bin-key", "--write-ids", ids],
        (url, lines) =>
          Effect.gen(function* () {
            const answer = yield* getFirstResource(url, ids)
            // The request's log line follows its answer by a moment.
            yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 200)))
            return { answer, lines: [...lines] }
          })
      )
      expect(result.answer).toEqual({ status: 200, name: "string" })
      expect(result.lines[0]).toMatch(
        /^data-access reference server listening on http:\/\/127\.0\.0\.1:\d+ \(1 API key\(s\) from --api-key\)$/
      )
      expect(result.lines.slice(1).map((l) => JSON.parse(l).annotations)).toEqual([
        expect.objectContaining({ method: "GetResource", code: "ok", status: 200 })
      ])
      expect({ exit, stderr }).toEqual({ exit: { code: 0, signal: null }, stderr: "" })
    })
  )

  it.scoped("keeps a SQLite store (--store), and exits 0 on SIGTERM", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const ids = Path.join(dir, "ids.json")
      const store = Path.join(dir, "store.sqlite")
      const { result, exit, stderr } = yield* withBin(
        ["--api-key", "bin-key", "--quiet", `--store=${store}`, "--write-ids", ids],
        (url) => getFirstResource(url, ids)
      )
      expect(result).toEqual({ status: 200, name: "string" })
      expect(Fs.statSync(store).size).toBeGreaterThan(0)
      expect({ exit, stderr }).toEqual({ exit: { code: 0, signal: null }, stderr: "" })
    })
  )

  /** Runs the bin to its end with `args`, its output piped (not a terminal). */
  const runBin = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env) =>
    Effect.promise(
      () =>
        new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
          const child = spawn(process.execPath, [BIN, ...args], {
            stdio: ["ignore", "pipe", "pipe"],
            env
          })
          let stdout = ""
          let stderr = ""
          child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
          child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
          child.once("close", (code) => resolve({ code, stdout, stderr }))
        })
    )

  it.effect(
    "a misspelt flag or a value that is not a number is one plain line and exit code 2",
    () =>
      Effect.gen(function* () {
        expect(yield* runBin(["--prot", "8080"])).toEqual({
          code: 2,
          stdout: "",
          stderr:
            "data-access-reference-server: unknown option --prot: did you mean --port? (data-access-reference-server --help lists them)\n"
        })
        expect(yield* runBin(["--port", "abc"])).toEqual({
          code: 2,
          stdout: "",
          stderr: "data-access-reference-server: --port takes a whole number, not 'abc'\n"
        })
      })
  )

  it.effect("--help piped describes each option in words, without colour", () =>
    Effect.gen(function* () {
      const help = yield* runBin(["--help"], { ...process.env, FORCE_COLOR: "1" })
      expect(help.code).toBe(0)
      expect(help.stdout).toContain("--port integer\n\n  Port to listen on")
      expect(help.stdout).not.toContain("An integer.")
      expect(help.stdout).not.toContain("A user-defined piece of text.")
      expect(help.stdout).not.toContain("\u001b[")
    })
  )

  it.scoped("the start line names the faults switched on", () =>
    Effect.gen(function* () {
      const plan = JSON.stringify({
        rules: [
          { fault: { _tag: "Violation", name: "secret-in-error" } },
          { methods: ["GetResource"], fault: { _tag: "Latency", millis: 30 } }
        ]
      })
      const { result } = yield* withBin(["--quiet", "--faults", plan], (_, lines) =>
        Effect.succeed(lines[0])
      )
      expect(result).toMatch(
        /\(1 API key\(s\) from the default key; faults on: violation secret-in-error; latency 30 ms on GetResource\)$/
      )
    })
  )

  it.scoped("a port already taken is exit code 2 with the reason", () =>
    Effect.gen(function* () {
      const { result } = yield* withBin(["--quiet"], (url) =>
        runBin(["--quiet", "--port", new URL(url).port])
      )
      expect(result.code).toBe(2)
      expect(result.stderr).toMatch(
        /^data-access-reference-server: could not listen on 127\.0\.0\.1:\d+: listen EADDRINUSE: address already in use 127\.0\.0\.1:\d+\n$/
      )
    })
  )
})
