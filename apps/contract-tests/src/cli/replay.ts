/**
 * `contract-tests replay FILE.har --base-url URL`: the API calls of recorded traffic sent again,
 * one after the other, to another server (a new build), and its answers judged with the proxy's
 * oracles: the same findings, reports and exit code as `judge`.
 */
import * as Args from "@effect/cli/Args"
import type * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as FileSystem from "@effect/platform/FileSystem"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import { Secrets } from "@data-access/schema"
import * as Har from "../Har.js"
import * as Report from "../Report.js"
import { keySecrets } from "../internal/keys.js"
import { entryOf, KEY_MASK } from "../internal/recording/write.js"
import * as GitHub from "./github.js"
import { judgeOptions } from "./judge.js"
import { readHar } from "./harFile.js"
import { outputFile, printReport, writeFile, writeReports } from "./reports.js"

export const replayOptions = {
  baseUrl: Options.text("base-url").pipe(
    Options.withDescription(
      "The server to send the recorded calls to (https://staging.example.com)"
    )
  ),
  apiKey: Options.redacted("api-key").pipe(
    Options.withFallbackConfig(Config.redacted("DATA_ACCESS_API_KEY")),
    Options.optional,
    Options.withDescription(
      "The key sent where the recording masked one (default: the DATA_ACCESS_API_KEY environment variable). Never printed."
    )
  ),
  failOn: judgeOptions.failOn,
  strictClient: judgeOptions.strictClient,
  clockSkew: judgeOptions.clockSkew,
  junit: judgeOptions.junit,
  json: judgeOptions.json,
  html: judgeOptions.html,
  har: outputFile("har").pipe(
    Options.optional,
    Options.withDescription("Write the new exchanges as HAR 1.2 (the key and secret fields masked)")
  ),
  quiet: judgeOptions.quiet
}

export const replayArgs = {
  file: Args.file({ name: "FILE.har", exists: "yes" }).pipe(
    Args.withDescription("A HAR file (HAR 1.2) of recorded traffic")
  )
}

type ReplayParsed = Command.Command.ParseConfig<typeof replayOptions> &
  Command.Command.ParseConfig<typeof replayArgs>

/** Headers a client's HTTP stack sets itself, or that no longer describe the body sent again. */
const NOT_SENT = new Set([
  "host",
  "content-length",
  "connection",
  "transfer-encoding",
  "keep-alive",
  "content-encoding",
  "accept-encoding"
])

/** Sends one recorded API call to `base` and records what came back. */
const sendAgain = (
  entry: Har.Entry,
  base: string,
  key: string | undefined,
  secrets: ReadonlyArray<string>
) =>
  Effect.promise(async () => {
    const recorded = new URL(entry.request.url)
    const url = base + recorded.pathname + recorded.search
    const headers: Record<string, string> = {}
    for (const { name, value } of entry.request.headers) {
      const lower = name.toLowerCase()
      if (NOT_SENT.has(lower) || lower.startsWith(":")) continue
      headers[lower] = lower === "x-api-key" && value === KEY_MASK ? (key ?? "") : value
    }
    const post = entry.request.postData
    const body =
      post?.text === undefined
        ? undefined
        : post.encoding === "base64"
          ? Buffer.from(post.text, "base64")
          : Buffer.from(post.text, "utf8")
    const startedAt = Date.now()
    const common = {
      startedAt,
      method: entry.request.method,
      url,
      requestHeaders: headers,
      requestBody: body === undefined ? new Uint8Array(0) : new Uint8Array(body),
      requestBodyBytes: body?.length ?? 0,
      secrets,
      limit: 64 * 1024 * 1024
    }
    try {
      const answer = await fetch(url, {
        method: entry.request.method,
        headers,
        ...(body === undefined || entry.request.method === "GET" ? {} : { body })
      })
      const bytes = new Uint8Array(await answer.arrayBuffer())
      const responseHeaders: Record<string, string> = {}
      // fetch has decoded the answer: its encoding no longer describes the bytes kept.
      answer.headers.forEach((v, k) => {
        if (k !== "content-encoding" && k !== "content-length") responseHeaders[k] = v
      })
      return entryOf({
        ...common,
        durationMs: Date.now() - startedAt,
        status: answer.status,
        responseHeaders,
        responseBody: bytes,
        error: undefined
      })
    } catch (e) {
      return entryOf({
        ...common,
        durationMs: Date.now() - startedAt,
        status: 0,
        responseHeaders: {},
        responseBody: undefined,
        error: `RequestError (Transport): ${(e as Error)?.message ?? String(e)}`
      })
    }
  })

/** The recorded API calls sent again and judged; exit code by --fail-on, 2 when the file is not HAR. */
export const executeReplay = (args: ReplayParsed, exitCode: Ref.Ref<number>) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const recorded = yield* readHar(fs, args.file)
    if (!URL.canParse(args.baseUrl))
      return yield* new Har.HarError({ message: `--base-url is not a URL: ${args.baseUrl}` })
    const base = args.baseUrl.replace(/\/+$/, "")
    const key = Option.getOrUndefined(Option.map(args.apiKey, Redacted.value))
    const secrets = key === undefined ? [] : keySecrets(key)
    const calls = recorded.log.entries.filter((e) =>
      URL.canParse(e.request.url) ? new URL(e.request.url).pathname.includes("/core.v1.") : false
    )
    const entries: Array<Har.Entry> = []
    for (const entry of calls) entries.push(yield* sendAgain(entry, base, key, secrets))
    const judged = Har.judge(Har.make(entries), {
      source: `${args.file} sent again to ${base}`,
      strictClient: args.strictClient,
      clockSkewMillis: args.clockSkew
    })
    const report = Report.withVerdict(judged, { failOn: args.failOn })
    const scrub = Secrets.scrubber(secrets)
    yield* writeReports(fs, "contract-tests replay", args, report, scrub)
    if (Option.isSome(args.har))
      yield* writeFile(
        fs,
        "contract-tests replay",
        "HAR",
        args.har.value,
        scrub(Har.toJson(Har.make(entries)))
      )
    printReport(report, args.quiet, scrub)
    GitHub.publish(report, "client and server findings of the calls sent again", scrub)
    yield* Ref.set(exitCode, Report.exitCode(report))
  }).pipe(
    Effect.catchAll((e) =>
      Effect.gen(function* () {
        process.stderr.write(`contract-tests replay: ${e.message}\n`)
        yield* Ref.set(exitCode, 2)
      })
    )
  )
