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

  it.effect("a flag it does not know fails with exit code 1 before listening", () =>
    Effect.gen(function* () {
      const child = spawn(process.execPath, [BIN, "--no-such-flag"], {
        stdio: ["ignore", "pipe", "pipe"]
      })
      const exit = yield* Effect.promise(
        () =>
          new Promise<Exit>((resolve) =>
            child.once("exit", (code, signal) => resolve({ code, signal }))
          )
      )
      expect(exit).toEqual({ code: 1, signal: null })
    })
  )
})
