/**
 * `contract-tests proxy`: the conformance proxy until SIGINT or SIGTERM; its reports then (and on
 * SIGUSR2), its exit code by `--fail-on`.
 */
import * as Options from "@effect/cli/Options"
import type * as Command from "@effect/cli/Command"
import * as FileSystem from "@effect/platform/FileSystem"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Har from "../Har.js"
import * as Proxy from "../Proxy.js"
import * as Report from "../Report.js"
import { outputFile, reportOptions, writeFile, writeBodies, writeReports } from "./reports.js"
import { defaults } from "../internal/runner/options.js"
import { flagOnly } from "./settings.js"

export const proxyOptions = {
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
    Options.withDefault(defaults.clockSkewMillis),
    Options.withDescription("Allowed clock difference with the server, in milliseconds")
  ),
  ...reportOptions("at shutdown and on SIGUSR2"),
  har: outputFile("har").pipe(
    Options.optional,
    Options.withDescription(
      "Write every exchange as HAR 1.2 to this file, the key and secret fields masked (at shutdown and on SIGUSR2; kept in memory until then)"
    )
  ),
  harMaxBody: flagOnly("harMaxBody"),
  annotate: Options.boolean("annotate").pipe(
    Options.withDescription(
      "Judge each exchange before its answer is relayed and name its findings in the answer's X-Contract-Findings header (off: answers relayed unchanged)"
    )
  ),
  http2PriorKnowledge: Options.boolean("http2-prior-knowledge").pipe(
    Options.withDescription(
      "Speak HTTP/2 to an http:// target from the first byte (h2c), as a target that serves HTTP/2 only without TLS needs (connect-node's http2.createServer)"
    )
  ),
  quiet: Options.boolean("quiet").pipe(Options.withDescription("No live finding lines on stderr"))
}

type ProxyParsed = Command.Command.ParseConfig<typeof proxyOptions>

/** The proxy until SIGINT or SIGTERM; reports then (and on SIGUSR2), exit code by --fail-on. */
export const executeProxy = (args: ProxyParsed, exitCode: Ref.Ref<number>) =>
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
      annotate: args.annotate,
      http2PriorKnowledge: args.http2PriorKnowledge,
      onFinding: args.quiet
        ? undefined
        : (f) =>
            stderr(
              `contract-tests proxy: ${f.side} · ${f.rule} · ${f.operation} · ${f.cause} · ${f.request.method} ${f.request.path}`
            )
    })
    const write = Effect.gen(function* () {
      const report = Report.withVerdict(yield* proxy.report, { failOn: args.failOn })
      yield* writeReports(fs, "contract-tests proxy", args, report)
      yield* writeBodies(fs, "contract-tests proxy", report)
      if (Option.isSome(args.har)) {
        const har = yield* proxy.har
        yield* writeFile(
          fs,
          "contract-tests proxy",
          "HAR",
          args.har.value,
          Har.toJson(
            Option.match(args.harMaxBody, {
              onNone: () => har,
              onSome: (max) => Har.limitBodies(har, max)
            })
          )
        )
      }
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
          const code = Report.exitCode(report)
          process.exitCode = code
          yield* Ref.set(exitCode, code)
        })
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
