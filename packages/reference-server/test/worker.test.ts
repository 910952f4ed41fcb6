/**
 * `startInWorker`: the server in a worker thread of its own. The worker runs the built server
 * (`dist`, which turbo builds before the tests), so these tests take `ReferenceServer` from the
 * build too, as an installed package is; from the TypeScript source the server stays in the
 * caller's thread (the last test).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ChildProcess from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import * as Net from "node:net"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Fixtures, ReferenceServer } from "../dist/index.js"
import { ReferenceServer as FromSource } from "../src/index.js"
import { demoData } from "../src/internal/demo.js"
import { connects, statusWhileBlocked } from "./threads.js"

/** A GetResource of the server's first resource, asked while this thread is blocked. */
const getWhileBlocked = (server: ReferenceServer.Listening) =>
  statusWhileBlocked(
    `${server.url}/core.v1.ResourceService/GetResource`,
    { "content-type": "application/json", "x-api-key": server.apiKeys[0]! },
    JSON.stringify({ id: server.knownIds.resources[0] })
  )

describe("startInWorker", () => {
  it.effect(
    "serves from a thread of its own: it answers while the caller's thread is blocked",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.startInWorker()
        expect(server.thread).toBe("worker")
        expect(getWhileBlocked(server)).toBe(200)
      }).pipe(Effect.scoped)
  )

  it.effect("stops with the scope: its port refuses connections once the scope is closed", () =>
    Effect.gen(function* () {
      const url = yield* Effect.scoped(
        Effect.gen(function* () {
          const server = yield* ReferenceServer.startInWorker()
          expect(yield* connects(server.url)).toBe(true)
          return server.url
        })
      )
      expect(yield* connects(url)).toBe(false)
    })
  )

  it.effect(
    "holds the same objects as a server in the caller's thread, fixtures with secrets included",
    () =>
      Effect.gen(function* () {
        // The demo data given as fixtures: decoded, its secrets are Redacted, which cross encoded.
        const fixtures = yield* Fixtures.decodeUnknown(Object.fromEntries(demoData()))
        const options = { data: "empty", fixtures, latitude: ["unique-names"] } as const
        const inWorker = yield* ReferenceServer.startInWorker(options)
        const inThread = yield* ReferenceServer.start(options)
        expect(inWorker.thread).toBe("worker")
        expect(inWorker.knownIds).toEqual(inThread.knownIds)
        expect(inWorker.latitude).toEqual(["unique-names"])
        expect(inWorker.knownIds.resources.length).toBeGreaterThan(0)
      }).pipe(Effect.scoped)
  )

  it.effect("keeps a SQLite store in the worker", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.startInWorker({
        store: { _tag: "Sqlite", filename: ":memory:" }
      })
      expect(server.thread).toBe("worker")
      expect(getWhileBlocked(server)).toBe(200)
    }).pipe(Effect.scoped)
  )

  it.effect("fails to start with a typed StartError, as in the caller's thread", () =>
    Effect.gen(function* () {
      const busy = yield* Effect.acquireRelease(
        Effect.async<Net.Server>((resume) => {
          const s = Net.createServer().listen(0, "127.0.0.1", () => resume(Effect.succeed(s)))
        }),
        (s) => Effect.sync(() => s.close())
      )
      const port = (busy.address() as Net.AddressInfo).port
      const reason = (options: ReferenceServer.Options) =>
        Effect.map(Effect.flip(Effect.scoped(ReferenceServer.startInWorker(options))), (e) => [
          e._tag,
          e.reason
        ])
      expect(yield* reason({ port })).toEqual(["StartError", "Listen"])
      expect(yield* reason({ latitude: ["no-such-switch" as never] })).toEqual([
        "StartError",
        "Latitude"
      ])
      expect(yield* reason({ fixtures: { resources: [{ id: 3 } as never] } })).toEqual([
        "StartError",
        "Fixtures"
      ])
      expect(
        yield* reason({ store: { _tag: "Sqlite", filename: "/no/such/directory/store.db" } })
      ).toEqual(["StartError", "Store"])
    }).pipe(Effect.scoped)
  )

  // A program of the caller's, given on the command line or in a file, started with a V8 heap
  // option (which Node refuses when it is handed to a thread explicitly): the server still starts
  // in its thread and answers. Prints the thread and the status of a GetResource.
  const program = `import { ReferenceServer } from ${JSON.stringify(new URL("../dist/index.js", import.meta.url).href)}
import * as Effect from "effect/Effect"
const answer = await Effect.runPromise(Effect.scoped(Effect.gen(function* () {
  const server = yield* ReferenceServer.startInWorker()
  const res = yield* Effect.promise(() => fetch(server.url + "/core.v1.ResourceService/GetResource", { method: "POST", headers: { "content-type": "application/json", "x-api-key": server.apiKeys[0] }, body: JSON.stringify({ id: server.knownIds.resources[0] }) }))
  return server.thread + " " + res.status
})))
console.log(answer)`
  const runNode = (args: ReadonlyArray<string>) =>
    Effect.async<string>((resume) => {
      const child = ChildProcess.spawn(process.execPath, args, {
        cwd: fileURLToPath(new URL("..", import.meta.url)),
        stdio: ["ignore", "pipe", "pipe"]
      })
      let out = ""
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()))
      child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()))
      child.on("close", (code) => resume(Effect.succeed(`${out.trim()} (exit ${code})`)))
    })
  it.scoped(
    "starts in its thread from a program run with a V8 heap option, from a file or from --input-type=module -e",
    () =>
      Effect.gen(function* () {
        // In the package, where its imports resolve as in a project of the caller's.
        const dir = yield* Effect.acquireRelease(
          Effect.sync(() =>
            mkdtempSync(fileURLToPath(new URL("../.worker-program-", import.meta.url)))
          ),
          (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
        )
        writeFileSync(join(dir, "program.mjs"), program)
        expect(yield* runNode(["--max-semi-space-size=64", join(dir, "program.mjs")])).toBe(
          "worker 200 (exit 0)"
        )
        expect(
          yield* runNode(["--max-semi-space-size=64", "--input-type=module", "-e", program])
        ).toBe("worker 200 (exit 0)")
      })
  )

  it.effect("stays in the caller's thread when its spans or its request log are the caller's", () =>
    Effect.gen(function* () {
      expect((yield* ReferenceServer.startInWorker({ tracing: true })).thread).toBe("caller")
      expect((yield* ReferenceServer.startInWorker({ logRequests: true })).thread).toBe("caller")
    }).pipe(Effect.scoped)
  )

  it.effect(
    "stays in the caller's thread when loaded from its TypeScript source (no built worker beside it)",
    () =>
      Effect.gen(function* () {
        const server = yield* FromSource.startInWorker()
        expect(server.thread).toBe("caller")
        expect(server.knownIds.resources.length).toBeGreaterThan(0)
      }).pipe(Effect.scoped)
  )
})
