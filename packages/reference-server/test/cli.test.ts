import { KnownIds } from "@data-access/schema"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { describe, expect, it } from "@effect/vitest"
import * as Console from "effect/Console"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Logger from "effect/Logger"
import { execFile } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as Cli from "../src/Cli.js"
import { Latitude } from "../src/index.js"
import { rpc } from "./helpers.js"

/** Runs the CLI in process until it prints its URL; returns the URL and the running fiber. */
const launch = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const url = yield* Deferred.make<string>()
    const lines: Array<string> = []
    const capture = (...xs: ReadonlyArray<unknown>) =>
      Effect.sync(() => {
        const line = xs.map(String).join(" ")
        lines.push(line)
        const m = /listening on (http:\/\/\S+)/.exec(line)
        if (m) Deferred.unsafeDone(url, Effect.succeed(m[1]!))
      })
    const console: Console.Console = {
      ...globalThis.console,
      log: capture,
      info: capture,
      error: capture,
      unsafe: globalThis.console
    } as any
    for (const [k, v] of Object.entries(env)) process.env[k] = v
    const logs: Array<string> = []
    const capturing = Logger.make<unknown, void>((options) => {
      logs.push(Logger.jsonLogger.log(options))
    })
    const fiber = yield* Cli.run(["node", "data-access-reference-server", ...args]).pipe(
      Effect.provide(NodeContext.layer),
      Effect.provide(Logger.replace(Logger.defaultLogger, capturing)),
      Effect.withConsole(console),
      Effect.fork
    )
    const found = yield* Deferred.await(url).pipe(Effect.timeout("20 seconds"))
    for (const k of Object.keys(env)) delete process.env[k]
    return { url: found, fiber, lines, logs }
  })

const tempDir = Effect.acquireRelease(
  Effect.sync(() => Fs.mkdtempSync(Path.join(Os.tmpdir(), "reference-cli-"))),
  (dir) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
)

describe("CLI", () => {
  it.scoped("port 0 prints the URL; keys, fixtures, faults and --write-ids are honoured", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const fixtures = Path.join(dir, "fixtures.json")
      Fs.writeFileSync(
        fixtures,
        JSON.stringify({
          spaces: [
            {
              id: "space_fixture",
              name: "from-file",
              createdAt: "2024-05-01T10:00:00Z",
              updatedAt: "2024-05-01T10:00:00+02:00"
            }
          ],
          resources: [
            {
              id: "resource_fixture",
              name: "db",
              technology: "postgres",
              port: 5432,
              spaceId: "space_fixture"
            }
          ],
          users: [{ id: "user_fixture", email: "dev@example.com", username: "dev" }]
        })
      )
      const ids = Path.join(dir, "ids.json")
      const { url, fiber } = yield* launch([
        "--port",
        "0",
        "--no-demo",
        "--quiet",
        "--api-key",
        "cli-key-1",
        "--api-key",
        "cli-key-2",
        "--fixtures",
        fixtures,
        "--write-ids",
        ids,
        "--faults",
        JSON.stringify({ rules: [{ methods: ["ListSatellites"], fault: { _tag: "Unavailable" } }] })
      ])
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const server = { url, apiKeys: ["cli-key-2"] }
      const resource = yield* rpc(server, "GetResource", { id: "resource_fixture" })
      expect(resource.status).toBe(200)
      expect(resource.json.resource).toEqual({
        id: "resource_fixture",
        name: "db",
        technology: "postgres",
        port: 5432,
        spaceId: "space_fixture"
      })
      expect(
        (yield* rpc({ url, apiKeys: ["reference-key"] }, "GetResource", { id: "resource_fixture" }))
          .status
      ).toBe(401)
      expect((yield* rpc(server, "ListSatellites", { limit: 1 })).status).toBe(503)
      const written = yield* KnownIds.decodeJson(Fs.readFileSync(ids, "utf8"))
      expect(written.spaces).toEqual(["space_fixture"])
      expect(written.users).toEqual([
        { id: "user_fixture", email: "dev@example.com", username: "dev" }
      ])
      expect(written.satellites).toEqual([])
      yield* Fiber.interrupt(fiber)
    })
  )

  it.scoped("keys come from DATA_ACCESS_API_KEYS; one JSON line per request with no secret", () =>
    Effect.gen(function* () {
      const { url, fiber, logs } = yield* launch(["--port", "0"], {
        DATA_ACCESS_API_KEYS: "env-key-1, env-key-2"
      })
      const server = { url, apiKeys: ["env-key-2"] }
      const ok = yield* rpc(server, "ListScenarioMonitors", { limit: 2 })
      expect(ok.status).toBe(200)
      const denied = yield* rpc({ url, apiKeys: ["not-a-key"] }, "CreateBIIntegration", {
        name: "x",
        biVendorA: { apiKey: "bi-secret-key", apiSecret: "bi-secret-secret" }
      })
      expect(denied.status).toBe(401)
      const created = yield* rpc(server, "CreateBIIntegration", {
        name: "x",
        biVendorA: { apiKey: "bi-secret-key", apiSecret: "bi-secret-secret" }
      })
      expect(created.status).toBe(200)
      yield* Fiber.interrupt(fiber)
      const requests = logs.map((l) => JSON.parse(l)).filter((l) => l.message === "request")
      expect(requests.map((r) => [r.annotations.method, r.annotations.code])).toEqual([
        ["ListScenarioMonitors", "ok"],
        ["CreateBIIntegration", "unauthenticated"],
        ["CreateBIIntegration", "ok"]
      ])
      for (const r of requests) {
        expect(typeof r.annotations.durationMs).toBe("number")
        expect(r.annotations.requestId).toMatch(/^req_/)
      }
      const all = logs.join("\n")
      for (const secret of [
        "env-key-1",
        "env-key-2",
        "not-a-key",
        "bi-secret-key",
        "bi-secret-secret"
      ])
        expect(all).not.toContain(secret)
    })
  )

  it.scoped("--latitude turns switches on, repeated or comma separated, or all", () =>
    Effect.gen(function* () {
      const some = yield* launch([
        "--port",
        "0",
        "--quiet",
        "--latitude",
        "unique-names",
        "--latitude",
        "strict-formats,return-secrets"
      ])
      expect(some.lines.join("\n")).toContain(
        "latitude: strict-formats, unique-names, return-secrets"
      )
      const server = { url: some.url, apiKeys: ["reference-key"] }
      const first = yield* rpc(server, "CreateConnector", { name: "cli-edge" })
      const second = yield* rpc(server, "CreateConnector", { name: "cli-edge" })
      expect([first.status, second.status, second.json.code]).toEqual([200, 409, "already_exists"])
      const loader = {
        name: "cli-loader",
        key: "k",
        workerCode: "x",
        workerSchedule: "every minute",
        workerRuntime: "python3.11",
        status: "draft"
      }
      expect((yield* rpc(server, "CreatePolicyDataLoader", loader)).json.code).toBe(
        "invalid_argument"
      )
      const ids = yield* rpc(server, "ListIntegrationsMDM", { limit: 1 })
      expect(ids.json.integrations[0].mdmVendorA.apiKey).toMatch(/^demo-mdm-key-/)
      // not switched on: the default choices
      expect((yield* rpc(server, "ListSatellites", { limit: 1, filter: {} })).status).toBe(200)
      yield* Fiber.interrupt(some.fiber)

      const all = yield* launch(["--port", "0", "--quiet", "--latitude", "all"])
      const reply = yield* rpc({ url: all.url, apiKeys: ["reference-key"] }, "ListSatellites", {
        limit: 1,
        filter: {}
      })
      expect([
        reply.status,
        reply.headers.get("x-ratelimit-limit"),
        reply.headers.has("x-request-id")
      ]).toEqual([400, "10000", false])
      yield* Fiber.interrupt(all.fiber)
    })
  )

  it.scoped("--latency-ms answers every request that late, and the answers are unchanged", () =>
    Effect.gen(function* () {
      const slow = yield* launch(["--port", "0", "--quiet", "--latency-ms", "150"])
      const server = { url: slow.url, apiKeys: ["reference-key"] }
      for (const method of ["ListSatellites", "GetResource"] as const) {
        const t0 = Date.now()
        const reply = yield* rpc(
          server,
          method,
          method === "GetResource" ? { id: "x" } : { limit: 1 }
        )
        expect(Date.now() - t0, method).toBeGreaterThanOrEqual(150)
        expect(reply.status, method).toBe(method === "GetResource" ? 404 : 200)
      }
      yield* Fiber.interrupt(slow.fiber)
      const error = yield* Cli.run([
        "node",
        "data-access-reference-server",
        "--port",
        "0",
        "--latency-ms",
        "-5"
      ]).pipe(Effect.provide(NodeContext.layer), Effect.flip)
      expect(String((error as Error).message)).toBe("--latency-ms must be 0 or more, not -5")
    })
  )

  it.effect("an unknown --latitude name is an error that lists the known ones", () =>
    Effect.gen(function* () {
      const error = yield* Cli.run([
        "node",
        "data-access-reference-server",
        "--port",
        "0",
        "--latitude",
        "unique-names,no-such-switch"
      ]).pipe(Effect.provide(NodeContext.layer), Effect.flip)
      const message = String((error as Error).message)
      expect(message).toContain('--latitude: unknown latitude switch "no-such-switch"')
      for (const name of Latitude.names) expect(message).toContain(name)
    })
  )

  it.effect(
    "an unknown violation in --faults names the nearest ones; the executable prints it on one line, exit 2, no stack trace",
    () =>
      Effect.gen(function* () {
        const plan = JSON.stringify({
          rules: [{ fault: { _tag: "Violation", name: "paging-dupes" } }]
        })
        const error = yield* Cli.run([
          "node",
          "data-access-reference-server",
          "--port",
          "0",
          "--faults",
          plan
        ]).pipe(Effect.provide(NodeContext.layer), Effect.flip)
        const message = String((error as Error).message)
        expect(message).toContain('--faults: unknown violation "paging-dupes" (nearest: ')
        expect(message).toContain("paging-duplicates")
        const bin = new URL("../bin/reference-server.js", import.meta.url).pathname
        const spawned = yield* Effect.async<{ code: number | null; stderr: string }>((resume) => {
          execFile(process.execPath, [bin, "--port", "0", "--faults", plan], (e, _out, stderr) =>
            resume(Effect.succeed({ code: e === null ? 0 : (e.code as number), stderr }))
          )
        })
        expect(spawned.code).toBe(2)
        expect(spawned.stderr).toContain(
          'data-access-reference-server: --faults: unknown violation "paging-dupes"'
        )
        expect(spawned.stderr).not.toMatch(/\n\s+at /)
        // Its version is the package's.
        const version = yield* Effect.async<string>((resume) => {
          execFile(process.execPath, [bin, "--version"], (_e, out) =>
            resume(Effect.succeed(out.trim()))
          )
        })
        expect(version).toBe(
          (
            JSON.parse(Fs.readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
              version: string
            }
          ).version
        )
      }),
    60_000
  )

  it.effect("a malformed fixtures file or fault plan is a clear error that names the problem", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const fixtures = Path.join(dir, "bad.json")
      Fs.writeFileSync(
        fixtures,
        JSON.stringify({
          resources: [{ id: "r", port: 70000 }],
          mdmIntegrations: [{ id: "m", mdmVendorA: { apiKey: 12345678 } }]
        })
      )
      const run = (args: ReadonlyArray<string>) =>
        Cli.run(["node", "data-access-reference-server", "--port", "0", ...args]).pipe(
          Effect.provide(NodeContext.layer),
          Effect.flip
        )
      const bad = yield* run(["--fixtures", fixtures])
      expect(String((bad as Error).message)).toContain("resources.0.port")
      const secret = Path.join(dir, "secret.json")
      Fs.writeFileSync(
        secret,
        JSON.stringify({ mdmIntegrations: [{ id: "m", mdmVendorA: { apiKey: 12345678 } }] })
      )
      const hidden = yield* run(["--fixtures", secret])
      expect(String((hidden as Error).message)).toContain("mdmIntegrations.0.mdmVendorA.apiKey")
      expect(String((hidden as Error).message)).not.toContain("12345678")
      const plan = yield* run([
        "--faults",
        '{"rules":[{"fault":{"_tag":"Violation","name":"no-such-violation"}}]}'
      ])
      expect(String((plan as Error).message)).toContain("--faults")
    }).pipe(Effect.scoped)
  )
})
