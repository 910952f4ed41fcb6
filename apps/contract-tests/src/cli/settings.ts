/**
 * The run's settings, written once: each is a flag (`--timeout-ms`), a key of the config file
 * (`timeoutMs` in `contract-tests.config.json`) and an environment variable
 * (`CONTRACT_TESTS_TIMEOUT_MS`). A flag wins over the environment, the environment over the file,
 * the file over the default; the environment and the file are read through Effect's `Config`.
 */
import * as Options from "@effect/cli/Options"
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as JSONSchema from "effect/JSONSchema"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { nearest } from "@data-access/core/Suggest"
import { outputFile } from "./reports.js"
import { defaults } from "../internal/runner/options.js"

/** How a setting is written and read. */
type Kind = "text" | "integer" | "number" | "boolean" | "list" | "input" | "output"

interface Setting {
  readonly kind: Kind
  readonly description: string
  /** The default, as the help shows it (a setting without one is unset unless given). */
  readonly default?: string | number | boolean
}

/** Every setting of a run, by config-file key (the flag is its kebab-case form). */
export const settings = {
  baseUrl: {
    kind: "text",
    description:
      "The deployment to test (https://api.example.com). Without it, the embedded reference server is started and tested."
  },
  fixtures: { kind: "input", description: "A KnownIds JSON file of existing object ids" },
  seed: { kind: "integer", description: "The run seed (default: random, printed)" },
  examples: {
    kind: "integer",
    description:
      "Distinct generated examples per operation and property, at most (one equal to an example already sent is drawn again)",
    default: 100
  },
  operations: {
    kind: "list",
    description:
      "Only these operations (method names or globs such as 'List*', comma separated or repeated)"
  },
  excludeOperations: { kind: "list", description: "Leave out these operations (names or globs)" },
  checks: { kind: "list", description: "Only these checks (check ids or globs)" },
  excludeChecks: { kind: "list", description: "Leave out these checks (ids or globs)" },
  createsPerOperation: {
    kind: "integer",
    description:
      "Valid examples per Create operation, each making an object (default: 25 against a target, --examples embedded)"
  },
  readOnly: { kind: "boolean", description: "Send no Create or Update request", default: false },
  rateLimit: {
    kind: "number",
    description:
      "Requests per second (default: 20 against a target, unlimited against the embedded server; 0 is unlimited)"
  },
  timeoutMs: {
    kind: "integer",
    description: "Per-request timeout in milliseconds",
    default: 10_000
  },
  timeBudget: {
    kind: "integer",
    description: "Stop starting new examples after this many seconds (default: no limit)"
  },
  maxFindings: {
    kind: "integer",
    description:
      "Stop starting new examples once this many findings are found, each still shrunk to a minimal reproduction (default: no limit)"
  },
  clockSkewMs: {
    kind: "integer",
    description: "Allowed clock difference with the server, in milliseconds",
    default: defaults.clockSkewMillis
  },
  maxRequests: {
    kind: "integer",
    description: "Never send more requests than this",
    default: defaults.maxRequests
  },
  concurrency: {
    kind: "integer",
    description:
      "Cases in flight at once, from any suite (an Update operation's suites and a suite that writes send theirs one after the other) (default: 4 embedded, 2 against a target)"
  },
  junit: { kind: "output", description: "Write a JUnit XML report to this file" },
  json: { kind: "output", description: "Write a JSON report to this file" },
  html: { kind: "output", description: "Write a self-contained HTML report to this file" },
  har: {
    kind: "output",
    description: "Write every exchange as HAR 1.2 to this file (the key and secret fields masked)"
  },
  harMaxBody: {
    kind: "integer",
    description:
      "Cut each body in the --har file to this many bytes, saying so in the body's comment (default: bodies whole)"
  },
  workers: {
    kind: "text",
    description:
      "Worker threads the suites are dealt to, each with its own connection pool, under one request budget, rate limit and findings limit: a number, or auto (the cores less one, kept for the embedded server)",
    default: "1"
  },
  shard: {
    kind: "text",
    description:
      "Run only the i-th of n shares of the suites, as i/n (2/4), the same share on every machine: one CI job per share with the same --seed, then `contract-tests merge` joins their --json reports"
  },
  replay: {
    kind: "text",
    description: "Run only the case of this replay id (printed with each finding)"
  },
  baseline: {
    kind: "input",
    description:
      "Known findings (a file from --write-baseline): reported as known, not failing the run; new findings fail it; entries no longer found are reported as fixed"
  },
  writeBaseline: {
    kind: "output",
    description: "Write this run's findings (new and known) to this file, for --baseline"
  },
  quiet: { kind: "boolean", description: "No progress lines on stderr", default: false },
  failOnSkip: {
    kind: "boolean",
    description:
      "Exit 1 when any example was skipped (an operation without fixtures, --read-only, a budget spent), even with no finding",
    default: false
  },
  header: {
    kind: "list",
    description:
      "A header every request carries, as 'Name: value' (a gateway's token, a tenant; repeatable): its value is kept out of every report like the key"
  },
  proxy: {
    kind: "text",
    description:
      "Reach the target through this HTTP proxy (http://proxy.internal:3128; credentials in the URL are kept out of every report)"
  },
  caCert: {
    kind: "input",
    description: "Trust the target's certificate by this CA certificate (PEM) besides the system's"
  },
  clientCert: {
    kind: "input",
    description: "Present this client certificate (PEM) to the target; with --client-key"
  },
  clientKey: { kind: "input", description: "The client certificate's private key (PEM)" },
  http2PriorKnowledge: {
    kind: "boolean",
    description:
      "Speak HTTP/2 to an http:// target from the first byte (h2c), as a server that serves HTTP/2 only without TLS needs (connect-node's http2.createServer)",
    default: false
  },
  hooks: {
    kind: "input",
    description:
      "An ES module whose default export is Hooks.defineHooks({...}): headers per request (a token refreshed when it expires), headers from the request as it goes out (a signature), which suites run"
  }
} as const satisfies Record<string, Setting>

type Settings = typeof settings

/** A setting's value. */
type ValueOf<K extends Kind> = K extends "integer" | "number"
  ? number
  : K extends "boolean"
    ? boolean
    : K extends "list"
      ? ReadonlyArray<string>
      : string

/** The settings of a run, each resolved from the flag, the environment, the file or its default. */
export type Resolved = {
  readonly [K in keyof Settings]: Settings[K] extends { readonly default: unknown }
    ? ValueOf<Settings[K]["kind"]>
    : ValueOf<Settings[K]["kind"]> | undefined
}

/** The name of the config file, looked for in the working directory and each one above it. */
export const CONFIG_FILE = "contract-tests.config.json"

/** The prefix of the environment variables of the settings. */
export const ENV_PREFIX = "CONTRACT_TESTS"

const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

/** A setting's flag (`timeoutMs` -> `timeout-ms`). */
export const flagOf = (key: string): string => kebab(key)

/** A setting's environment variable (`timeoutMs` -> `CONTRACT_TESTS_TIMEOUT_MS`). */
export const envOf = (key: string): string =>
  `${ENV_PREFIX}_${kebab(key).replace(/-/g, "_").toUpperCase()}`

const withDefault = (s: Setting) =>
  s.default === undefined
    ? s.description
    : `${s.description} (default: ${typeof s.default === "number" ? s.default.toLocaleString("en-US").replace(/,/g, "_") : s.default})`

const helpOf = (key: string, s: Setting) =>
  `${withDefault(s).replace(/\.$/, "")}. Also the config file's "${key}" or ${envOf(key)}.`

/**
 * The flag of one setting, as an option whose value is none when the flag is not given; its help
 * names the config file's key and the environment variable unless `flagOnly`.
 */
const optionOf = (
  key: string,
  s: Setting,
  flagOnly = false
): Options.Options<Option.Option<unknown>> => {
  const flag = flagOf(key)
  const help = flagOnly ? withDefault(s) : helpOf(key, s)
  const described = <A>(o: Options.Options<A>) => Options.withDescription(o, help)
  switch (s.kind) {
    case "text":
      return described(Options.optional(Options.text(flag)))
    case "integer":
      return described(Options.optional(Options.integer(flag)))
    case "number":
      return described(Options.optional(Options.float(flag)))
    case "boolean":
      return described(
        Options.map(Options.boolean(flag), (b) => (b ? Option.some(true) : Option.none()))
      )
    case "list":
      return described(
        Options.map(Options.repeated(Options.text(flag)), (xs) => {
          const items = xs
            .flatMap((x) => x.split(","))
            .map((x) => x.trim())
            .filter((x) => x !== "")
          return items.length === 0 ? Option.none() : Option.some(items)
        })
      )
    case "input":
      return described(Options.optional(Options.file(flag, { exists: "yes" })))
    case "output":
      return described(Options.optional(outputFile(flag)))
  }
}

/** The flags of every setting, for `Command.make`. */
export const flags = Object.fromEntries(
  Object.entries(settings).map(([key, s]) => [key, optionOf(key, s)])
) as {
  readonly [K in keyof Settings]: Options.Options<Option.Option<ValueOf<Settings[K]["kind"]>>>
}

/**
 * A run's setting as a flag of another command (`proxy`), which reads no config file: the same
 * name, kind and description.
 */
export const flagOnly = <K extends keyof Settings>(
  key: K
): Options.Options<Option.Option<ValueOf<Settings[K]["kind"]>>> =>
  optionOf(key, settings[key], true) as Options.Options<Option.Option<ValueOf<Settings[K]["kind"]>>>

/** A setting read through `Config` (a list from the environment is comma separated). */
const configOf = (key: string, s: Setting): Config.Config<unknown> => {
  switch (s.kind) {
    case "integer":
      return Config.integer(key)
    case "number":
      return Config.number(key)
    case "boolean":
      return Config.boolean(key)
    case "list":
      return Config.array(Config.string(), key)
    default:
      return Config.string(key)
  }
}

const schemaOf = (s: Setting): Schema.Schema.Any => {
  switch (s.kind) {
    case "integer":
      return Schema.Int
    case "number":
      return Schema.Number
    case "boolean":
      return Schema.Boolean
    case "list":
      return Schema.Array(Schema.String)
    default:
      return Schema.String
  }
}

/** The config file: every setting optional, nothing else (the API key is never written in it). */
export const ConfigFile = Schema.Struct({
  $schema: Schema.optional(Schema.String),
  ...Object.fromEntries(
    Object.entries(settings).map(([key, s]) => [
      key,
      Schema.optional(schemaOf(s)).annotations({ description: withDefault(s) })
    ])
  )
}).annotations({
  identifier: "ContractTestsConfig",
  title: "contract-tests configuration",
  description: `The settings of \`contract-tests\` (${CONFIG_FILE}): each key is a flag in camelCase. A flag wins over the environment (${ENV_PREFIX}_<NAME>), the environment over this file. Paths are relative to this file. The API key is not a setting of this file: pass DATA_ACCESS_API_KEY.`
})

/** The JSON Schema of the config file, for editors. */
export const configJsonSchema = (): object => JSONSchema.make(ConfigFile)

/** A config file that cannot be used, with what is wrong in it. */
export class SettingsError extends Schema.TaggedError<SettingsError>()("SettingsError", {
  message: Schema.String
}) {}

/** The config file: `explicit` when given, else the nearest `contract-tests.config.json` upward. */
const findConfigFile = (explicit: string | undefined) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    if (explicit !== undefined) return Option.some(path.resolve(explicit))
    let dir = path.resolve(".")
    for (;;) {
      const candidate = path.join(dir, CONFIG_FILE)
      if (yield* fs.exists(candidate).pipe(Effect.orElseSucceed(() => false)))
        return Option.some(candidate)
      const parent = path.dirname(dir)
      if (parent === dir) return Option.none<string>()
      dir = parent
    }
  })

/** The config file's settings, decoded, its paths resolved against its directory. */
const readConfigFile = (file: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const text = yield* fs
      .readFileString(file)
      .pipe(
        Effect.mapError(
          (e) =>
            new SettingsError({ message: `the config file ${file} cannot be read: ${e.message}` })
        )
      )
    const json = yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: (e) =>
        new SettingsError({
          message: `the config file ${file} is not JSON: ${(e as Error).message}`
        })
    })
    if (json !== null && typeof json === "object" && !Array.isArray(json)) {
      const unknown = Object.keys(json).filter((k) => k !== "$schema" && !(k in settings))
      if (unknown.length > 0) {
        const hints = unknown.map((k) => {
          const near = nearest(k, Object.keys(settings))
          return near === undefined ? `"${k}"` : `"${k}" (did you mean "${near}"?)`
        })
        return yield* new SettingsError({
          message: `the config file ${file} has unknown keys: ${hints.join(", ")}${unknown.includes("apiKey") ? "; the API key goes in DATA_ACCESS_API_KEY, never in a file" : ""}`
        })
      }
    }
    const decoded = Schema.decodeUnknownEither(ConfigFile)(json)
    if (Either.isLeft(decoded))
      return yield* new SettingsError({
        message: `the config file ${file} is not valid: ${ParseResult.TreeFormatter.formatErrorSync(decoded.left)}`
      })
    const dir = path.dirname(file)
    const values: Record<string, unknown> = { ...decoded.right }
    delete values.$schema
    for (const [key, s] of Object.entries(settings) as Array<[string, Setting]>)
      if ((s.kind === "input" || s.kind === "output") && typeof values[key] === "string")
        values[key] = path.resolve(dir, values[key] as string)
    return values
  })

/** Where the settings come from besides the flags. */
export interface Sources {
  readonly env: ConfigProvider.ConfigProvider
  readonly file: ConfigProvider.ConfigProvider
  readonly fileName: string | undefined
}

/** The environment's and the config file's settings (`--config` or the nearest file upward). */
export const sources = (explicit: string | undefined) =>
  Effect.gen(function* () {
    const found = yield* findConfigFile(explicit)
    const values = Option.isSome(found) ? yield* readConfigFile(found.value) : {}
    return {
      env: ConfigProvider.fromEnv().pipe(
        ConfigProvider.constantCase,
        ConfigProvider.nested(ENV_PREFIX)
      ),
      file: ConfigProvider.fromJson(values),
      fileName: Option.getOrUndefined(found)
    } satisfies Sources
  })

/** Each setting: the flag's value, else the environment's, else the file's, else its default. */
export const resolve = (
  given: { readonly [K in keyof Settings]: Option.Option<unknown> },
  from: Sources
): Effect.Effect<Resolved, SettingsError> =>
  Effect.gen(function* () {
    const out: Record<string, unknown> = {}
    for (const [key, s] of Object.entries(settings) as Array<[keyof Settings, Setting]>) {
      const flag = given[key]
      if (Option.isSome(flag)) {
        out[key] = flag.value
        continue
      }
      const read = (provider: ConfigProvider.ConfigProvider, where: string) =>
        Effect.withConfigProvider(Config.option(configOf(key, s)), provider).pipe(
          Effect.mapError(
            (e) => new SettingsError({ message: `${where}: ${String(e).replace(/^\(|\)$/g, "")}` })
          )
        )
      const env = yield* read(from.env, envOf(key))
      const file = Option.isSome(env)
        ? env
        : yield* read(from.file, `the config file ${from.fileName ?? ""}, "${key}"`)
      out[key] = Option.getOrElse(file, () => s.default)
    }
    return out as Resolved
  })
