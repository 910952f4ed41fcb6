import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as FileSystem from "@effect/platform/FileSystem"
import { createRequire } from "node:module"
import * as Config from "effect/Config"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import { nearestOf } from "@data-access/core/Suggest"
import * as Faults from "./faults.js"
import * as Fixtures from "./fixtures.js"
import * as Latitude from "./latitudeSelection.js"
import { describeParseError } from "./messages.js"
import * as ReferenceServer from "./referenceServer.js"

/** The CLI failed before the server ran (documented on the face). */
export class CliError extends Error {
  readonly _tag = "CliError"
}

const port = Options.integer("port").pipe(
  Options.withDefault(8080),
  Options.withDescription("Port to listen on; 0 picks a free port (the URL is printed)")
)

const host = Options.text("host").pipe(
  Options.withDefault("127.0.0.1"),
  Options.withDescription("Address to listen on (loopback by default)")
)

const apiKey = Options.text("api-key").pipe(
  Options.repeated,
  Options.withDescription(
    `An accepted X-API-KEY (repeatable). Default: the DATA_ACCESS_API_KEYS environment variable (comma separated), else "${ReferenceServer.DEFAULT_API_KEY}"`
  )
)

const store = Options.text("store").pipe(
  Options.optional,
  Options.withDescription(
    "SQLite file to keep the data in (created when missing; needs @effect/sql-sqlite-node installed); default: in memory"
  )
)

const fixtures = Options.file("fixtures").pipe(
  Options.optional,
  Options.withDescription("JSON fixtures file to load (see the README)")
)

const noDemo = Options.boolean("no-demo").pipe(
  Options.withDescription("Start an empty store instead of the built-in demo data")
)

const faults = Options.text("faults").pipe(
  Options.optional,
  Options.withDescription("Fault plan: a JSON file, or inline JSON starting with {")
)

const writeIds = Options.text("write-ids").pipe(
  Options.optional,
  Options.withDescription("Write the ids the store holds to this file (KnownIds JSON)")
)

const emitDefaults = Options.boolean("emit-defaults").pipe(
  Options.withDescription("Write every response field, zero values too")
)

const maxBodyBytes = Options.integer("max-body-bytes").pipe(
  Options.withDefault(ReferenceServer.DEFAULT_MAX_BODY_BYTES),
  Options.withDescription("Largest accepted request body in bytes")
)

const latitude = Options.text("latitude").pipe(
  Options.repeated,
  Options.withDescription(
    `Make the other faithful choice where decisions.md section 10 leaves one (repeatable, or comma separated; "all" for every one): ${Latitude.names.join(", ")}`
  )
)

const latencyMs = Options.integer("latency-ms").pipe(
  Options.withDefault(0),
  Options.withDescription(
    "Answer every request this many milliseconds late, as a target across a network does (besides any latency of --faults)"
  )
)

const quiet = Options.boolean("quiet").pipe(
  Options.withDescription("Do not log one line per request")
)

const describe = (e: unknown) =>
  ParseResult.isParseError(e) ? describeParseError(e) : e instanceof Error ? e.message : String(e)

/** The violation names a fault plan's text uses that the catalogue does not have. */
const unknownViolations = (text: string): ReadonlyArray<string> => {
  const known = new Set<string>(Faults.violations.map((v) => v.name))
  let plan: unknown
  try {
    plan = JSON.parse(text)
  } catch {
    return []
  }
  const rules = (plan as { rules?: unknown })?.rules
  return (Array.isArray(rules) ? rules : []).flatMap((r) => {
    const fault = (r as { fault?: { _tag?: unknown; name?: unknown } } | null)?.fault
    return fault?._tag === "Violation" && typeof fault.name === "string" && !known.has(fault.name)
      ? [fault.name]
      : []
  })
}

/** "unknown violation "x" (nearest: a, b, c)", for each unknown name. */
const unknownViolationsMessage = (names: ReadonlyArray<string>): string =>
  names
    .map((name) => {
      const nearest = nearestOf(
        name,
        Faults.violations.map((v) => v.name),
        3
      )
      return `unknown violation "${name}" (nearest: ${nearest.join(", ")}; \`contract-tests list violations\` lists all ${Faults.violations.length})`
    })
    .join("; ")

const readFaults = (value: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const text = value.trimStart().startsWith("{") ? value : yield* fs.readFileString(value)
    const unknown = unknownViolations(text)
    if (unknown.length > 0)
      return yield* Effect.fail(new CliError(`--faults: ${unknownViolationsMessage(unknown)}`))
    return yield* Faults.decodeJson(text)
  }).pipe(
    Effect.mapError((e) => (e instanceof CliError ? e : new CliError(`--faults: ${describe(e)}`)))
  )

const readFixtures = (path: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    return yield* Fixtures.decodeJson(yield* fs.readFileString(path))
  }).pipe(Effect.mapError((e) => new CliError(`--fixtures ${path}: ${describe(e)}`)))

/** One fault in words, as the start line names it. */
const faultWords = (fault: Faults.Fault): string => {
  switch (fault._tag) {
    case "Violation":
      return `violation ${fault.name}`
    case "Latency":
      return `latency ${fault.millis} ms`
    case "Unavailable":
      return "unavailable"
    case "RateLimited":
      return `rate limited (Retry-After ${fault.retryAfterSeconds} s)`
    case "BareStatus":
      return `bare status ${fault.status}`
    case "DropConnection":
      return "dropped connection"
  }
}

/** "; faults on: ..." naming every rule of the plan (and the operations it is limited to), or "". */
const faultsOn = (plan: Faults.FaultPlan): string =>
  plan.rules.length === 0
    ? ""
    : `; faults on: ${plan.rules
        .map(
          (r) =>
            `${faultWords(r.fault)}${r.methods !== undefined ? ` on ${r.methods.join(", ")}` : ""}`
        )
        .join("; ")}`

const keysFromEnv = Config.string("DATA_ACCESS_API_KEYS").pipe(
  Config.map((s) =>
    s
      .split(",")
      .map((k) => k.trim())
      .filter((k) => k !== "")
  ),
  Config.withDefault([] as Array<string>)
)

export const command = Command.make(
  "data-access-reference-server",
  {
    port,
    host,
    apiKey,
    store,
    fixtures,
    noDemo,
    faults,
    writeIds,
    emitDefaults,
    maxBodyBytes,
    latitude,
    latencyMs,
    quiet
  },
  Effect.fn("Cli.run")(function* (flags) {
    const envKeys = yield* keysFromEnv.pipe(Effect.orElseSucceed(() => [] as Array<string>))
    const apiKeys =
      flags.apiKey.length > 0
        ? flags.apiKey
        : envKeys.length > 0
          ? envKeys
          : [ReferenceServer.DEFAULT_API_KEY]
    const given = Option.isSome(flags.faults) ? yield* readFaults(flags.faults.value) : Faults.none
    if (flags.latencyMs < 0)
      return yield* Effect.fail(
        new CliError(`--latency-ms must be 0 or more, not ${flags.latencyMs}`)
      )
    const plan: Faults.FaultPlan =
      flags.latencyMs === 0
        ? given
        : {
            ...given,
            rules: [{ fault: { _tag: "Latency", millis: flags.latencyMs } }, ...given.rules]
          }
    const extra = Option.isSome(flags.fixtures)
      ? yield* readFixtures(flags.fixtures.value)
      : undefined
    const switches = yield* Either.mapLeft(
      Latitude.parse(flags.latitude),
      (e) => new CliError(`--latitude: ${e.message}`)
    )
    const server = yield* ReferenceServer.start({
      port: flags.port,
      host: flags.host,
      apiKeys,
      ...(Option.isSome(flags.store)
        ? { store: { _tag: "Sqlite", filename: flags.store.value } as const }
        : {}),
      data: flags.noDemo ? "empty" : "demo",
      ...(extra ? { fixtures: extra } : {}),
      faults: plan,
      emitDefaults: flags.emitDefaults,
      maxBodyBytes: flags.maxBodyBytes,
      latitude: switches,
      logRequests: !flags.quiet
    }).pipe(Effect.mapError((e) => new CliError(e.message)))
    if (Option.isSome(flags.writeIds)) {
      const fs = yield* FileSystem.FileSystem
      yield* fs
        .writeFileString(flags.writeIds.value, yield* Fixtures.knownIdsJson(server.knownIds))
        .pipe(Effect.mapError((e) => new CliError(`--write-ids: ${e.message}`)))
    }
    const keySource =
      flags.apiKey.length > 0
        ? "--api-key"
        : envKeys.length > 0
          ? "DATA_ACCESS_API_KEYS"
          : "the default key"
    const choices = server.latitude.length > 0 ? `; latitude: ${server.latitude.join(", ")}` : ""
    yield* Console.log(
      `data-access reference server listening on ${server.url} (${apiKeys.length} API key(s) from ${keySource}${choices}${faultsOn(plan)})`
    )
    return yield* Effect.never
  }, Effect.scoped)
).pipe(
  Command.withDescription(
    "A faithful reference server of the data-access management API (Connect, JSON)"
  )
)

export const run = Command.run(command, {
  name: "data-access-reference-server",
  // The package's version, by its own name: resolves from the sources, the build and the bundle.
  version: (
    createRequire(import.meta.url)("@data-access/reference-server/package.json") as {
      readonly version: string
    }
  ).version
})
