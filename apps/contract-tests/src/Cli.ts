/**
 * The `contract-tests` command line: options, the run (embedded reference server or a target),
 * the reports and the exit code (0 all pass, 1 findings, 2 the run could not be made).
 *
 * @since 0.1.0
 */
import type * as CliApp from "@effect/cli/CliApp"
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as FileSystem from "@effect/platform/FileSystem"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import { KnownIds, Secrets } from "@data-access/schema"
import * as Baseline from "./Baseline.js"
import * as ContractTests from "./ContractTests.js"
import * as Embedded from "./Embedded.js"
import * as Har from "./Har.js"
import * as Proxy from "./Proxy.js"
import * as Report from "./Report.js"
import { keySecrets } from "./internal/http.js"

const list = (name: string, description: string) =>
  Options.text(name).pipe(
    Options.repeated,
    Options.map((xs) =>
      xs
        .flatMap((x) => x.split(","))
        .map((x) => x.trim())
        .filter((x) => x !== "")
    ),
    Options.withDescription(description)
  )

const options = {
  baseUrl: Options.text("base-url").pipe(
    Options.optional,
    Options.withDescription(
      "The deployment to test (https://api.example.com). Without it, the embedded reference server is started and tested."
    )
  ),
  apiKey: Options.redacted("api-key").pipe(
    Options.withFallbackConfig(Config.redacted("DATA_ACCESS_API_KEY")),
    Options.optional,
    Options.withDescription(
      "The API key (default: the DATA_ACCESS_API_KEY environment variable). Never printed."
    )
  ),
  fixtures: Options.file("fixtures", { exists: "yes" }).pipe(
    Options.optional,
    Options.withDescription("A KnownIds JSON file of existing object ids")
  ),
  seed: Options.integer("seed").pipe(
    Options.optional,
    Options.withDescription("The run seed (default: random, printed)")
  ),
  examples: Options.integer("examples").pipe(
    Options.withDefault(100),
    Options.withDescription("Generated examples per operation and property")
  ),
  operations: list(
    "operations",
    "Only these operations (method names, comma separated or repeated)"
  ),
  excludeOperations: list("exclude-operations", "Leave out these operations"),
  checks: list("checks", "Only these checks (check ids)"),
  excludeChecks: list("exclude-checks", "Leave out these checks"),
  createsPerOperation: Options.integer("creates-per-operation").pipe(
    Options.optional,
    Options.withDescription(
      "Valid examples per Create operation, each making an object (default 25 against a target, --examples embedded)"
    )
  ),
  readOnly: Options.boolean("read-only").pipe(
    Options.withDescription("Send no Create or Update request")
  ),
  rateLimit: Options.float("rate-limit").pipe(
    Options.optional,
    Options.withDescription(
      "Requests per second (default 20 against a target, unlimited against the embedded server; 0 is unlimited)"
    )
  ),
  timeout: Options.integer("timeout-ms").pipe(
    Options.withDefault(10_000),
    Options.withDescription("Per-request timeout in milliseconds")
  ),
  timeBudget: Options.integer("time-budget").pipe(
    Options.optional,
    Options.withDescription("Stop starting new examples after this many seconds")
  ),
  maxFindings: Options.integer("max-findings").pipe(
    Options.optional,
    Options.withDescription(
      "Stop starting new examples once this many findings are found (each is still shrunk to a minimal reproduction)"
    )
  ),
  clockSkew: Options.integer("clock-skew-ms").pipe(
    Options.withDefault(5_000),
    Options.withDescription("Allowed clock difference with the server, in milliseconds")
  ),
  maxRequests: Options.integer("max-requests").pipe(
    Options.optional,
    Options.withDescription("Never send more requests than this (default 200000)")
  ),
  concurrency: Options.integer("concurrency").pipe(
    Options.optional,
    Options.withDescription("Suites run at once (default 4 embedded, 2 against a target)")
  ),
  junit: Options.file("junit").pipe(
    Options.optional,
    Options.withDescription("Write a JUnit XML report to this file")
  ),
  json: Options.file("json").pipe(
    Options.optional,
    Options.withDescription("Write a JSON report to this file")
  ),
  html: Options.file("html").pipe(
    Options.optional,
    Options.withDescription("Write a self-contained HTML report to this file")
  ),
  har: Options.file("har").pipe(
    Options.optional,
    Options.withDescription(
      "Write every exchange as HAR 1.2 to this file (the key and secret fields masked)"
    )
  ),
  replay: Options.text("replay").pipe(
    Options.optional,
    Options.withDescription("Run only the case of this replay id (printed with each finding)")
  ),
  baseline: Options.file("baseline", { exists: "yes" }).pipe(
    Options.optional,
    Options.withDescription(
      "Known findings (a file from --write-baseline): reported as known, not failing the run; new findings fail it; entries no longer found are reported as fixed"
    )
  ),
  writeBaseline: Options.file("write-baseline").pipe(
    Options.optional,
    Options.withDescription(
      "Write this run's findings (new and known) to this file, for --baseline"
    )
  ),
  quiet: Options.boolean("quiet").pipe(Options.withDescription("No progress lines on stderr"))
}

type Parsed = Command.Command.ParseConfig<typeof options>

const some = <A>(o: Option.Option<A>): A | undefined => Option.getOrUndefined(o)

const execute = (args: Parsed, exitCode: Ref.Ref<number>) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const stderr = (line: string) => process.stderr.write(line + "\n")
    let fixtures: KnownIds.KnownIds | undefined
    if (Option.isSome(args.fixtures)) {
      const text = yield* fs.readFileString(args.fixtures.value)
      fixtures = yield* KnownIds.decodeJson(text).pipe(
        Effect.mapError(
          (e) =>
            new ContractTests.RunError({
              reason: "BadOptions",
              message: `the fixtures file ${args.fixtures.pipe(Option.getOrElse(() => ""))} is not a KnownIds document: ${e.message}`
            })
        )
      )
    }
    let baseline: Baseline.Baseline | undefined
    if (Option.isSome(args.baseline)) {
      const text = yield* fs.readFileString(args.baseline.value)
      baseline = yield* Baseline.decodeJson(text).pipe(
        Effect.mapError(
          (e) =>
            new ContractTests.RunError({
              reason: "BadOptions",
              message: `the baseline file ${args.baseline.pipe(Option.getOrElse(() => ""))} is not a baseline: ${e.message}`
            })
        )
      )
    }
    const rate = some(args.rateLimit)
    const harEntries: Array<Har.Entry> = []
    const common = {
      seed: some(args.seed),
      examples: args.examples,
      operations: args.operations,
      excludeOperations: args.excludeOperations,
      checks: args.checks,
      excludeChecks: args.excludeChecks,
      readOnly: args.readOnly,
      timeout: `${args.timeout} millis`,
      timeBudget: Option.isSome(args.timeBudget) ? `${args.timeBudget.value} seconds` : undefined,
      maxFindings: some(args.maxFindings),
      clockSkew: `${args.clockSkew} millis`,
      maxRequests: some(args.maxRequests),
      replay: some(args.replay),
      baseline,
      progress: args.quiet ? undefined : stderr,
      onHarEntry: Option.isSome(args.har)
        ? (entry: Har.Entry) => void harEntries.push(entry)
        : undefined
    } satisfies Partial<ContractTests.Options>
    const report = yield* Option.match(args.baseUrl, {
      onNone: () =>
        Embedded.run({
          ...common,
          // The server in the runner's thread: measured on two cores (bench/run.mjs, BENCH_WORKER=1),
          // a worker's server was no quicker (the runner waits on each answer's hop between threads,
          // and the worker warms up a server of its own) and took more CPU.
          serverThread: "caller",
          rateLimit: rate === undefined || rate <= 0 ? undefined : rate,
          createsPerOperation: some(args.createsPerOperation),
          concurrency: some(args.concurrency) ?? 4
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
        ),
      onSome: (baseUrl) =>
        Effect.gen(function* () {
          if (Option.isNone(args.apiKey)) {
            return yield* new ContractTests.RunError({
              reason: "BadOptions",
              message:
                "an API key is needed: --api-key or the DATA_ACCESS_API_KEY environment variable"
            })
          }
          return yield* ContractTests.run({
            ...common,
            baseUrl,
            apiKey: args.apiKey.value,
            fixtures,
            rateLimit: rate === undefined ? 20 : rate <= 0 ? undefined : rate,
            createsPerOperation: some(args.createsPerOperation) ?? 25,
            concurrency: some(args.concurrency) ?? 2
          })
        })
    })
    const scrub = Secrets.scrubber(
      Option.match(args.apiKey, {
        onNone: () => [],
        onSome: (key) => keySecrets(Redacted.value(key))
      })
    )
    if (Option.isSome(args.junit))
      yield* fs.writeFileString(args.junit.value, scrub(Report.toJUnit(report)))
    if (Option.isSome(args.json))
      yield* fs.writeFileString(args.json.value, scrub(Report.toJson(report)))
    if (Option.isSome(args.html))
      yield* fs.writeFileString(args.html.value, scrub(Report.toHtml(report)))
    if (Option.isSome(args.har))
      yield* fs.writeFileString(args.har.value, scrub(Har.toJson(Har.make(harEntries))))
    if (Option.isSome(args.writeBaseline))
      yield* fs.writeFileString(
        args.writeBaseline.value,
        scrub(Baseline.toJson(Baseline.fromReport(report)))
      )
    process.stdout.write(scrub(Report.toTerminal(report)) + "\n")
    yield* Ref.set(exitCode, Report.exitCode(report))
  }).pipe(
    Effect.catchAll((e) =>
      Effect.gen(function* () {
        const message = e._tag === "RunError" ? e.message : `${e._tag}: ${e.message}`
        process.stderr.write(`contract-tests: the run could not be made: ${message}\n`)
        yield* Ref.set(exitCode, 2)
      })
    )
  )

const proxyOptions = {
  target: Options.text("target").pipe(
    Options.withDescription("The deployment to relay to (https://staging.example.com)")
  ),
  port: Options.integer("port").pipe(
    Options.withDefault(8788),
    Options.withDescription("The port to listen on (0 picks a free one)")
  ),
  host: Options.text("host").pipe(
    Options.withDefault("127.0.0.1"),
    Options.withDescription("The interface to listen on")
  ),
  failOn: Options.choice("fail-on", ["any", "server", "client", "none"]).pipe(
    Options.withDefault("any" as const),
    Options.withDescription(
      "Which findings make the exit code 1 at shutdown: any (default), server, client or none"
    )
  ),
  strictClient: Options.boolean("strict-client").pipe(
    Options.withDescription(
      "Also flag requests that only a lenient server accepts (decisions.md section 10)"
    )
  ),
  clockSkew: Options.integer("clock-skew-ms").pipe(
    Options.withDefault(5_000),
    Options.withDescription("Allowed clock difference with the server, in milliseconds")
  ),
  junit: Options.file("junit").pipe(
    Options.optional,
    Options.withDescription("Write a JUnit XML report to this file (at shutdown and on SIGUSR2)")
  ),
  json: Options.file("json").pipe(
    Options.optional,
    Options.withDescription("Write a JSON report to this file (at shutdown and on SIGUSR2)")
  ),
  html: Options.file("html").pipe(
    Options.optional,
    Options.withDescription(
      "Write a self-contained HTML report to this file (at shutdown and on SIGUSR2)"
    )
  ),
  har: Options.file("har").pipe(
    Options.optional,
    Options.withDescription(
      "Write every exchange as HAR 1.2 to this file, the key and secret fields masked (at shutdown and on SIGUSR2; kept in memory until then)"
    )
  ),
  quiet: Options.boolean("quiet").pipe(Options.withDescription("No live finding lines on stderr"))
}

type ProxyParsed = Command.Command.ParseConfig<typeof proxyOptions>

/** The proxy until SIGINT or SIGTERM; reports then (and on SIGUSR2), exit code by --fail-on. */
const executeProxy = (args: ProxyParsed, exitCode: Ref.Ref<number>) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const stderr = (line: string) => process.stderr.write(line + "\n")
    const proxy = yield* Proxy.start({
      target: args.target,
      port: args.port,
      host: args.host,
      strictClient: args.strictClient,
      clockSkew: `${args.clockSkew} millis`,
      recordHar: Option.isSome(args.har),
      onFinding: args.quiet
        ? undefined
        : (f) =>
            stderr(
              `contract-tests proxy: ${f.side} · ${f.rule} · ${f.operation} · ${f.cause} · ${f.request.method} ${f.request.path}`
            )
    })
    const write = Effect.gen(function* () {
      const report = yield* proxy.report
      if (Option.isSome(args.junit))
        yield* fs.writeFileString(args.junit.value, Report.toJUnit(report))
      if (Option.isSome(args.json))
        yield* fs.writeFileString(args.json.value, Report.toJson(report))
      if (Option.isSome(args.html))
        yield* fs.writeFileString(args.html.value, Report.toHtml(report))
      if (Option.isSome(args.har))
        yield* fs.writeFileString(args.har.value, Har.toJson(yield* proxy.har))
      return report
    })
    stderr(
      `contract-tests proxy: ${proxy.url} → ${proxy.target} (report: GET ${proxy.url}${Proxy.REPORT_PATH}[?format=terminal|junit|html]; metrics: GET ${proxy.url}${Proxy.METRICS_PATH}; SIGUSR2 writes the report files; SIGINT or SIGTERM stops)`
    )
    const onUsr2 = () => {
      Effect.runFork(
        write.pipe(
          Effect.tap((r) => Effect.sync(() => stderr(Report.toTerminal(r)))),
          Effect.ignoreLogged
        )
      )
    }
    process.on("SIGUSR2", onUsr2)
    // The command runs until the process is signalled: the runtime interrupts it, and the
    // finalizer writes the reports and leaves the exit code in process.exitCode for bin.ts.
    const shutdown = write.pipe(
      Effect.flatMap((report) =>
        Effect.gen(function* () {
          process.removeListener("SIGUSR2", onUsr2)
          process.stdout.write(Report.toTerminal(report) + "\n")
          const code = Proxy.exitCode(report.findings, args.failOn)
          process.exitCode = code
          yield* Ref.set(exitCode, code)
        })
      ),
      Effect.catchAll((e) =>
        Effect.sync(() =>
          stderr(`contract-tests proxy: the report could not be written: ${e.message}`)
        )
      )
    )
    yield* Effect.never.pipe(Effect.ensuring(shutdown))
  }).pipe(
    Effect.scoped,
    Effect.catchAll((e) =>
      Effect.gen(function* () {
        process.stderr.write(`contract-tests proxy: ${e.message}\n`)
        yield* Ref.set(exitCode, 2)
      })
    )
  )

const judgeOptions = {
  baseUrl: Options.text("base-url").pipe(
    Options.optional,
    Options.withDescription(
      "Judge only entries under this URL (default: every origin that served an operation of the API; pages, scripts and fonts are left out)"
    )
  ),
  failOn: Options.choice("fail-on", ["any", "server", "client", "none"]).pipe(
    Options.withDefault("any" as const),
    Options.withDescription(
      "Which findings make the exit code 1: any (default), server, client or none"
    )
  ),
  strictClient: proxyOptions.strictClient,
  clockSkew: proxyOptions.clockSkew,
  junit: Options.file("junit").pipe(
    Options.optional,
    Options.withDescription("Write a JUnit XML report to this file")
  ),
  json: Options.file("json").pipe(
    Options.optional,
    Options.withDescription("Write a JSON report to this file")
  ),
  html: Options.file("html").pipe(
    Options.optional,
    Options.withDescription("Write a self-contained HTML report to this file")
  ),
  quiet: Options.boolean("quiet").pipe(
    Options.withDescription("Print only the verdict line on stdout")
  )
}

const judgeArgs = {
  file: Args.file({ name: "FILE.har", exists: "either" }).pipe(
    Args.withDescription("A HAR file (HAR 1.2)")
  )
}

type JudgeParsed = Command.Command.ParseConfig<typeof judgeOptions> &
  Command.Command.ParseConfig<typeof judgeArgs>

/** Recorded traffic judged with the proxy's oracles; exit code by --fail-on, 2 for a file that is not HAR. */
const executeJudge = (args: JudgeParsed, exitCode: Ref.Ref<number>) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs
      .readFileString(args.file)
      .pipe(
        Effect.mapError(
          (e) => new Har.HarError({ message: `${args.file} cannot be read: ${e.message}` })
        )
      )
    const har = yield* Har.decodeJson(text).pipe(
      Effect.mapError((e) => new Har.HarError({ message: `${args.file}: ${e.message}` }))
    )
    const report = Har.judge(har, {
      source: args.file,
      baseUrl: some(args.baseUrl),
      strictClient: args.strictClient,
      clockSkewMillis: args.clockSkew
    })
    if (Option.isSome(args.junit))
      yield* fs.writeFileString(args.junit.value, Report.toJUnit(report))
    if (Option.isSome(args.json)) yield* fs.writeFileString(args.json.value, Report.toJson(report))
    if (Option.isSome(args.html)) yield* fs.writeFileString(args.html.value, Report.toHtml(report))
    const terminal = Report.toTerminal(report)
    process.stdout.write(
      (args.quiet ? terminal.slice(terminal.lastIndexOf("\n") + 1) : terminal) + "\n"
    )
    yield* Ref.set(exitCode, Proxy.exitCode(report.findings, args.failOn))
  }).pipe(
    Effect.catchAll((e) =>
      Effect.gen(function* () {
        process.stderr.write(`contract-tests judge: ${e.message}\n`)
        yield* Ref.set(exitCode, 2)
      })
    )
  )

/**
 * Runs the command line with `argv` (as `process.argv`) and returns the exit code: 0 all pass,
 * 1 findings, 2 the run could not be made (bad flags, target unreachable, key not accepted).
 *
 * @since 0.1.0
 * @category running
 */
export const main = (
  argv: ReadonlyArray<string>
): Effect.Effect<number, never, HttpClient.HttpClient | CliApp.CliApp.Environment> =>
  Effect.gen(function* () {
    // --help and --version run no command and leave 0.
    const exitCode = yield* Ref.make(0)
    const proxy = Command.make("proxy", proxyOptions, (args) => executeProxy(args, exitCode)).pipe(
      Command.withDescription(
        "A conformance proxy: relays every exchange to --target unchanged and checks it (client and server findings); reports at SIGINT/SIGTERM, on SIGUSR2 and at GET /__contract/report"
      )
    )
    const judge = Command.make("judge", { ...judgeOptions, ...judgeArgs }, (args) =>
      executeJudge(args, exitCode)
    ).pipe(
      Command.withDescription(
        "Judges recorded traffic (a HAR file: from --har, Playwright's recordHar, a browser's devtools, a recording proxy) with the proxy's oracles: client and server findings, the same reports, exit code by --fail-on (2 when the file is not HAR)"
      )
    )
    const command = Command.make("contract-tests", options, (args) => execute(args, exitCode)).pipe(
      Command.withDescription("Property-based contract tests of the data-access management API"),
      Command.withSubcommands([proxy, judge])
    )
    const cli = Command.run(command, { name: "contract-tests", version: "0.1.0" })
    const ok = yield* cli(argv).pipe(
      Effect.as(true),
      Effect.catchAll(() => Effect.succeed(false))
    )
    return ok ? yield* Ref.get(exitCode) : 2
  })
