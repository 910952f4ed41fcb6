/**
 * `contract-tests` without a subcommand: the run (embedded reference server or a target) from the
 * settings, its reports and its exit code (0 all pass, 1 findings, 2 the run could not be made).
 */
import * as Options from "@effect/cli/Options"
import * as FileSystem from "@effect/platform/FileSystem"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Undici from "@effect/platform-node/Undici"
import * as Layer from "effect/Layer"
import * as Os from "node:os"
import * as Path from "node:path"
import * as Tls from "node:tls"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import { KnownIds, Secrets } from "@data-access/schema"
import * as Baseline from "../Baseline.js"
import * as ContractTests from "../ContractTests.js"
import * as Embedded from "../Embedded.js"
import * as Har from "../Har.js"
import * as Report from "../Report.js"
import { H2cDispatcher } from "../internal/h2c.js"
import { keySecrets } from "../internal/keys.js"
import { HookFailure, headerSecrets } from "../internal/requestHooks.js"
import * as CustomChecks from "../internal/customChecks.js"
import type * as Hooks from "../Hooks.js"
import { nearest } from "@data-access/core/Suggest"
import { pathToFileURL } from "node:url"
import * as GitHub from "./github.js"
import * as Progress from "./progress.js"
import * as Settings from "./settings.js"
import { writeFile, writeBodies, writeReports } from "./reports.js"
import * as DryRun from "../internal/runner/dryRun.js"
import { defaults } from "../internal/runner/options.js"
import { ReferenceServer } from "@data-access/reference-server"

/** The options of a run: every setting's flag, the config file and the API key. */
export const runOptions = {
  ...Settings.flags,
  config: Options.file("config", { exists: "yes" }).pipe(
    Options.optional,
    Options.withDescription(
      `The config file (default: the nearest ${Settings.CONFIG_FILE} from the working directory upward)`
    )
  ),
  dryRun: Options.boolean("dry-run").pipe(
    Options.withDescription(
      "Print the plan (operations, suites, cases, checks, the least requests and time at the rate limit) and send nothing"
    )
  ),
  apiKey: Options.redacted("api-key").pipe(
    Options.withFallbackConfig(Config.redacted("DATA_ACCESS_API_KEY")),
    Options.optional,
    Options.withDescription(
      "The API key (default: the DATA_ACCESS_API_KEY environment variable). Never printed, never read from the config file."
    )
  )
}

type Parsed = {
  readonly [K in keyof typeof runOptions]: (typeof runOptions)[K] extends Options.Options<infer A>
    ? A
    : never
}

const badOptions = (message: string) =>
  new ContractTests.RunError({ reason: "BadOptions", message })

/** `--workers N|auto`: a number of threads, or the cores less one (kept for the embedded server). */
const parseWorkers = (text: string) => {
  const n = text.trim() === "auto" ? Math.max(1, Os.availableParallelism() - 1) : Number(text)
  return Number.isInteger(n) && n >= 1
    ? Effect.succeed(n)
    : Effect.fail(
        badOptions(`--workers takes a whole number of threads or auto, not ${JSON.stringify(text)}`)
      )
}

/** `--shard i/n`: the i-th of n shares of the suites. */
const parseShard = (text: string) => {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text)
  const shard = m === null ? undefined : { index: Number(m[1]), total: Number(m[2]) }
  return shard !== undefined && shard.index >= 1 && shard.index <= shard.total
    ? Effect.succeed(shard)
    : Effect.fail(
        badOptions(
          `--shard takes i/n with 1 <= i <= n (2/4: the second of four), not ${JSON.stringify(text)}`
        )
      )
}

/**
 * Why `--fail-on-skip` fails a report that has no finding: the examples it skipped and their
 * reasons; undefined when it skipped none or has findings.
 */
export const skipFailure = (report: Report.Report): string | undefined => {
  const skipped = report.cells.reduce((n, c) => n + c.skipped, 0)
  if (skipped === 0 || report.findings.length > 0) return undefined
  const reasons = [...new Set(report.cells.flatMap((c) => c.skipReasons))]
  return `contract-tests: --fail-on-skip: ${skipped} examples skipped (${reasons.join("; ") || "no reason given"})`
}

/** Reads a JSON file the settings name, decoded with `decode`, or a RunError naming it. */
const readDocument = <A, E extends { readonly message: string }>(
  file: string,
  what: string,
  decode: (text: string) => Effect.Effect<A, E>
) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs
      .readFileString(file)
      .pipe(Effect.mapError((e) => badOptions(`the ${what} ${file} cannot be read: ${e.message}`)))
    return yield* decode(text).pipe(
      Effect.mapError((e) =>
        badOptions(
          `the ${what} ${file} is not ${what === "fixtures file" ? "a KnownIds document" : "a baseline"}: ${e.message}`
        )
      )
    )
  })

/** The headers of `--header 'Name: value'`, by name; a RunError for a line that is not one. */
const parseHeaders = (lines: ReadonlyArray<string> | undefined) =>
  Effect.gen(function* () {
    const headers: Record<string, Redacted.Redacted<string>> = {}
    for (const line of lines ?? []) {
      const colon = line.indexOf(":")
      const name = colon < 0 ? "" : line.slice(0, colon).trim()
      if (name === "")
        return yield* badOptions(
          `--header takes 'Name: value': ${JSON.stringify(line.slice(0, Math.max(colon, 0)) || "(no name)")} has no name and colon`
        )
      headers[name] = Redacted.make(line.slice(colon + 1).trim())
    }
    return headers
  })

/**
 * The HTTP client of a run against a target: the default one, or undici's with a proxy, a CA to
 * trust and a client certificate when the settings name them.
 */
const clientLayer = (s: Settings.Resolved) =>
  Effect.gen(function* () {
    if (s.http2PriorKnowledge) {
      if (s.baseUrl !== undefined && !s.baseUrl.startsWith("http://"))
        return yield* badOptions(
          "--http2-prior-knowledge is for an http:// target (over https://, HTTP/2 is agreed in the TLS handshake)"
        )
      if (s.proxy !== undefined || s.caCert !== undefined || s.clientCert !== undefined)
        return yield* badOptions(
          "--http2-prior-knowledge goes without --proxy, --ca-cert and --client-cert"
        )
      return NodeHttpClient.layerUndiciWithoutDispatcher.pipe(
        Layer.provideMerge(
          Layer.scoped(
            NodeHttpClient.Dispatcher,
            Effect.acquireRelease(
              Effect.sync(() => new H2cDispatcher()),
              (d) => Effect.promise(() => d.destroy())
            )
          )
        )
      )
    }
    if (s.proxy === undefined && s.caCert === undefined && s.clientCert === undefined) {
      if (s.clientKey !== undefined) return yield* badOptions("--client-key needs --client-cert")
      return undefined
    }
    if ((s.clientCert === undefined) !== (s.clientKey === undefined))
      return yield* badOptions("--client-cert and --client-key go together")
    const fs = yield* FileSystem.FileSystem
    const pem = (file: string | undefined, what: string) =>
      file === undefined
        ? Effect.succeed(undefined)
        : fs
            .readFileString(file)
            .pipe(
              Effect.mapError((e) => badOptions(`the ${what} ${file} cannot be read: ${e.message}`))
            )
    const ca = yield* pem(s.caCert, "CA certificate")
    const cert = yield* pem(s.clientCert, "client certificate")
    const key = yield* pem(s.clientKey, "client key")
    const tls = {
      ...(ca === undefined ? {} : { ca: [...Tls.rootCertificates, ca] }),
      ...(cert === undefined ? {} : { cert }),
      ...(key === undefined ? {} : { key })
    }
    if (s.proxy !== undefined && !URL.canParse(s.proxy))
      return yield* badOptions(`--proxy is not a URL: ${JSON.stringify(redactUserInfo(s.proxy))}`)
    const dispatcher = Layer.scoped(
      NodeHttpClient.Dispatcher,
      Effect.acquireRelease(
        Effect.sync(() =>
          s.proxy === undefined
            ? new Undici.Agent({ connect: tls })
            : new Undici.ProxyAgent({ uri: s.proxy, requestTls: tls })
        ),
        (d) => Effect.promise(() => d.destroy())
      )
    )
    return NodeHttpClient.layerUndiciWithoutDispatcher.pipe(Layer.provideMerge(dispatcher))
  })

/** A proxy URL's password: a secret of the run. */
const proxySecrets = (proxy: string | undefined): ReadonlyArray<string> => {
  if (proxy === undefined || !URL.canParse(proxy)) return []
  const url = new URL(proxy)
  return [url.password, decodeURIComponent(url.password)].filter((p) => p !== "")
}

const redactUserInfo = (text: string) => text.replace(/\/\/[^@/]*@/, "//[redacted]@")

/** A plan as the terminal shows it. */
const planText = (plan: DryRun.Plan, embedded: boolean): string => {
  const n = (x: number) => x.toLocaleString("en-US")
  const rows = plan.operations.map((o) => {
    const running = o.suites.filter((s) => s.skip === undefined)
    const skipped = o.suites.filter((s) => s.skip !== undefined)
    const checks = [...new Set(running.flatMap((s) => s.checks))]
    return [
      o.method === "_" ? "(api)" : o.method,
      `${running.length}${skipped.length > 0 ? ` (+${skipped.length} skipped)` : ""}`,
      n(running.reduce((k, s) => k + s.cases, 0)),
      checks.length === plan.checks.length ? "all" : checks.join(", ")
    ]
  })
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length), 10))
  const line = (r: ReadonlyArray<string>) =>
    r.map((c, i) => (i < 3 ? c.padEnd(widths[i]!) : c)).join("  ")
  const skips = plan.operations.flatMap((o) =>
    o.suites
      .filter((s) => s.skip !== undefined)
      .map((s) => `  ${o.method === "_" ? "(api)" : o.method} ${s.family}: ${s.skip}`)
  )
  const seconds = plan.rateLimit === undefined ? undefined : plan.leastRequests / plan.rateLimit
  return [
    `contract-tests --dry-run: the plan against ${embedded ? "the embedded reference server" : plan.target}; nothing was sent`,
    `seed ${plan.seed ?? "random"} · ${plan.examples} examples per property · ${plan.checks.length} checks: ${plan.checks.join(", ")}`,
    "",
    line(["operation", "suites", "cases", "checks"]),
    ...rows.map(line),
    ...(skips.length === 0 ? [] : ["", "would skip:", ...skips]),
    "",
    `at least ${n(plan.leastRequests)} requests (one per case; most cases send more, and each finding's shrinking more still; never more than ${n(plan.maxRequests)})` +
      (seconds === undefined
        ? ", at no rate limit"
        : `: at least ${Math.ceil(seconds / 60)} min at ${plan.rateLimit} requests per second`)
  ].join("\n")
}

const HOOK_NAMES = ["headers", "beforeRequest", "filter", "checks"] as const

/** The hooks of a hooks file: its default export (or `hooks`), each hook a function, its checks checked. */
export const loadHooks = (file: string) =>
  Effect.gen(function* () {
    const module = yield* Effect.tryPromise({
      try: () => import(pathToFileURL(Path.resolve(file)).href) as Promise<Record<string, unknown>>,
      catch: (e) =>
        badOptions(`the hooks file ${file} cannot be loaded: ${(e as Error)?.message ?? String(e)}`)
    })
    const hooks = (module.default ?? module.hooks) as Record<string, unknown> | undefined
    if (hooks === null || typeof hooks !== "object")
      return yield* badOptions(
        `the hooks file ${file} has no hooks: its default export is Hooks.defineHooks({...})`
      )
    for (const [name, value] of Object.entries(hooks)) {
      if (!(HOOK_NAMES as ReadonlyArray<string>).includes(name)) {
        const near = nearest(name, HOOK_NAMES)
        return yield* badOptions(
          `the hooks file ${file} has an unknown hook "${name}"${near === undefined ? "" : ` (did you mean "${near}"?)`}; hooks are ${HOOK_NAMES.join(", ")}`
        )
      }
      if (name !== "checks" && typeof value !== "function")
        return yield* badOptions(`the hooks file ${file}: "${name}" is not a function`)
    }
    const checks = CustomChecks.problem(hooks.checks)
    if (checks !== undefined) return yield* badOptions(`the hooks file ${file}: ${checks}`)
    return hooks as Hooks.Hooks
  })

/** The run the parsed command line asks for; its exit code goes to `exitCode`. */
export const execute = (args: Parsed, exitCode: Ref.Ref<number>) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const stderr = (line: string) => process.stderr.write(line + "\n")
    const from = yield* Settings.sources(Option.getOrUndefined(args.config))
    const s = yield* Settings.resolve(args, from)
    const fixtures =
      s.fixtures === undefined
        ? undefined
        : yield* readDocument(s.fixtures, "fixtures file", KnownIds.decodeJson)
    const baseline =
      s.baseline === undefined
        ? undefined
        : yield* readDocument(s.baseline, "baseline file", Baseline.decodeJson)
    const headers = yield* parseHeaders(s.header)
    const shard = s.shard === undefined ? undefined : yield* parseShard(s.shard)
    const workers = yield* parseWorkers(s.workers)
    if (
      workers > 1 &&
      (s.proxy !== undefined ||
        s.caCert !== undefined ||
        s.clientCert !== undefined ||
        s.http2PriorKnowledge)
    )
      return yield* badOptions(
        "--workers reaches the target with each thread's own connections: leave it out with --proxy, --ca-cert, --client-cert or --http2-prior-knowledge"
      )
    const hooks = s.hooks === undefined ? undefined : yield* loadHooks(s.hooks)
    const client = yield* clientLayer(s)
    if (client !== undefined && s.baseUrl === undefined)
      return yield* badOptions(
        "--proxy, --ca-cert, --client-cert and --http2-prior-knowledge are for a target: give --base-url"
      )
    const rate = s.rateLimit
    const shown = s.quiet ? undefined : Progress.display(process.stderr)
    const harEntries: Array<Har.Entry> = []
    const common = {
      seed: s.seed,
      examples: s.examples,
      operations: s.operations,
      excludeOperations: s.excludeOperations,
      checks: s.checks,
      excludeChecks: s.excludeChecks,
      readOnly: s.readOnly,
      timeout: `${s.timeoutMs} millis`,
      timeBudget: s.timeBudget === undefined ? undefined : `${s.timeBudget} seconds`,
      maxFindings: s.maxFindings,
      clockSkew: `${s.clockSkewMs} millis`,
      maxRequests: s.maxRequests,
      replay: s.replay,
      shard,
      workers,
      headers,
      hooks,
      baseline,
      progress: shown?.line,
      // Each suite's line when the suites run in worker threads: they are not counted together.
      onProgress: workers > 1 ? undefined : shown?.update,
      onHarEntry:
        s.har === undefined ? undefined : (entry: Har.Entry) => void harEntries.push(entry)
    } satisfies Partial<ContractTests.Options>
    if (args.dryRun) {
      const planned = yield* Effect.scoped(
        Effect.gen(function* () {
          if (s.baseUrl !== undefined)
            return yield* DryRun.dryRun({
              ...common,
              baseUrl: s.baseUrl,
              apiKey: Option.getOrElse(args.apiKey, () => Redacted.make("")),
              fixtures,
              rateLimit:
                rate === undefined ? defaults.targetRateLimit : rate <= 0 ? undefined : rate,
              createsPerOperation: s.createsPerOperation ?? defaults.createsPerOperation
            })
          // The embedded server is started for its data only: the plan sends it nothing either.
          const server = yield* ReferenceServer.start({})
          return yield* DryRun.dryRun({
            ...common,
            baseUrl: server.url,
            apiKey: Redacted.make(ReferenceServer.DEFAULT_API_KEY),
            fixtures: server.knownIds,
            rateLimit: rate === undefined || rate <= 0 ? undefined : rate,
            createsPerOperation: s.createsPerOperation
          })
        })
      ).pipe(
        Effect.mapError((e) =>
          e._tag === "RunFailure"
            ? new ContractTests.RunError({ reason: e.reason, message: e.message })
            : new ContractTests.RunError({ reason: "Unreachable", message: e.message })
        )
      )
      process.stdout.write(planText(planned, s.baseUrl === undefined) + "\n")
      return yield* Ref.set(exitCode, 0)
    }
    const ran =
      s.baseUrl === undefined
        ? yield* Embedded.run({
            ...common,
            // The server in the runner's thread: a worker's server was no quicker on two cores.
            serverThread: workers > 1 ? "worker" : "caller",
            rateLimit: rate === undefined || rate <= 0 ? undefined : rate,
            createsPerOperation: s.createsPerOperation,
            concurrency: s.concurrency ?? defaults.concurrency
          }).pipe(
            Effect.catchTag("StartError", (e) =>
              Effect.fail(
                new ContractTests.RunError({
                  reason: "Unreachable",
                  message: `the embedded reference server did not start: ${e.message}`
                })
              )
            ),
            Effect.scoped
          )
        : yield* Option.match(args.apiKey, {
            onNone: () =>
              Effect.fail(
                badOptions(
                  "an API key is needed: --api-key or the DATA_ACCESS_API_KEY environment variable"
                )
              ),
            onSome: (apiKey) =>
              ContractTests.run({
                ...common,
                baseUrl: s.baseUrl!,
                apiKey,
                fixtures,
                rateLimit:
                  rate === undefined ? defaults.targetRateLimit : rate <= 0 ? undefined : rate,
                createsPerOperation: s.createsPerOperation ?? defaults.createsPerOperation,
                concurrency: s.concurrency ?? defaults.targetConcurrency
              }).pipe(client === undefined ? (e) => e : Effect.provide(client))
          })
    shown?.end()
    // The replay line of each finding runs as printed: this run's target, fixtures and config.
    const shell = (word: string) =>
      /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
    const rerun = [
      "contract-tests",
      ...(s.baseUrl === undefined ? [] : ["--base-url", shell(s.baseUrl)]),
      ...(s.fixtures === undefined ? [] : ["--fixtures", shell(Path.resolve(s.fixtures))]),
      // The hooks' headers and custom checks: a custom check's finding replays with them only.
      ...(s.hooks === undefined ? [] : ["--hooks", shell(Path.resolve(s.hooks))]),
      ...(from.fileName === undefined ? [] : ["--config", shell(from.fileName)])
    ].join(" ")
    const report = Report.withVerdict({ ...ran, rerun }, { failOnSkip: s.failOnSkip })
    const scrub = Secrets.scrubber([
      ...Option.match(args.apiKey, {
        onNone: () => [],
        onSome: (key) => keySecrets(Redacted.value(key))
      }),
      ...headerSecrets(headers),
      ...proxySecrets(s.proxy)
    ])
    // A file that cannot be written is said on stderr; the others, stdout and the exit code stand.
    yield* writeReports(fs, "contract-tests", s, report, scrub)
    yield* writeBodies(fs, "contract-tests", report, scrub)
    if (s.har !== undefined)
      yield* writeFile(
        fs,
        "contract-tests",
        "HAR",
        s.har,
        scrub(
          Har.toJson(
            s.harMaxBody === undefined
              ? Har.make(harEntries)
              : Har.limitBodies(Har.make(harEntries), s.harMaxBody)
          )
        )
      )
    if (s.writeBaseline !== undefined)
      yield* writeFile(
        fs,
        "contract-tests",
        "baseline",
        s.writeBaseline,
        scrub(Baseline.toJson(Baseline.fromReport(report)))
      )
    process.stdout.write(scrub(Report.toTerminal(report)) + "\n")
    GitHub.publish(report, "the server's answers", scrub)
    const judged = report.cells.reduce((n, c) => n + c.passed + c.failed, 0)
    if (s.replay !== undefined && judged === 0) {
      const reasons = [...new Set(report.cells.flatMap((c) => c.skipReasons))]
      stderr(
        scrub(
          `contract-tests: the replayed case did not run${reasons.length === 0 ? "" : `: ${reasons.join("; ")}`}`
        )
      )
      return yield* Ref.set(exitCode, 2)
    }
    const skipFailed = s.failOnSkip ? skipFailure(report) : undefined
    if (skipFailed !== undefined) stderr(skipFailed)
    yield* Ref.set(exitCode, Report.exitCode(report))
  }).pipe(
    // A hook that threw ends the run with its message (HookFailure); any other defect is a bug.
    Effect.catchSomeDefect((defect) =>
      defect instanceof HookFailure
        ? Option.some(
            Effect.fail(
              new ContractTests.RunError({
                reason: "BadOptions",
                message: `a hook failed: ${defect.message}`
              })
            )
          )
        : Option.none()
    ),
    Effect.catchAll((e) =>
      Effect.gen(function* () {
        process.stderr.write(`contract-tests: the run could not be made: ${e.message}\n`)
        yield* Ref.set(exitCode, 2)
      })
    )
  )
