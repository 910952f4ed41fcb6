/**
 * HTTP Archive (HAR 1.2) out and in. The runner (`--har`) and the proxy (`--har`) write the
 * exchanges they saw with the API key and every secret field masked (`[redacted]`, as in every
 * report); `judge` reads a HAR (written by them, by Playwright's `recordHar`, by a browser's
 * devtools or by a recording proxy) and judges each exchange with the proxy's oracles: the same
 * rules, client and server findings, the same report.
 *
 * @since 0.5.0
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { Operations } from "@data-access/schema"
import * as Offline from "./internal/har/read.js"
import * as Write from "./internal/recording/write.js"
import type * as Proxy from "./Proxy.js"
import type * as Report from "./Report.js"

import * as Model from "./internal/recording/model.js"
import { defaults } from "./internal/runner/options.js"

/**
 * One exchange of a HAR 1.2 log (`log.entries[]`): the fields the runner and the proxy write and
 * `contract-tests judge` reads.
 *
 * @since 0.5.0
 * @category models
 */
export const Entry = Model.Entry

/**
 * @since 0.5.0
 * @category models
 */
export type Entry = Model.Entry

/**
 * A HAR 1.2 file.
 *
 * @since 0.5.0
 * @category models
 */
export const Har = Model.Har

/**
 * @since 0.5.0
 * @category models
 */
export type Har = Model.Har

/**
 * A file that is not a HAR document: not JSON, or not HAR 1.2 (the path of the first field that
 * is not).
 *
 * @since 0.5.0
 * @category errors
 */
export class HarError extends Schema.TaggedError<HarError>("@data-access/contract-tests/HarError")(
  "HarError",
  {
    message: Schema.String
  }
) {}

/**
 * Reads a HAR document from its JSON text.
 *
 * @since 0.5.0
 * @category decoding
 */
export const decodeJson = (text: string): Effect.Effect<Har, HarError> =>
  Effect.try({
    try: (): unknown => JSON.parse(text),
    catch: (e) =>
      new HarError({
        message: `the file is not JSON (${e instanceof Error ? e.message : String(e)})`
      })
  }).pipe(
    Effect.flatMap((json) =>
      Schema.decodeUnknown(Har)(json).pipe(
        Effect.mapError((e) => {
          const first = ParseResult.ArrayFormatter.formatErrorSync(e)[0]
          const where =
            first === undefined || first.path.length === 0 ? "" : ` at ${first.path.join(".")}`
          return new HarError({
            message: `the file is not a HAR 1.2 document${where}: ${first?.message ?? e.message}`
          })
        })
      )
    )
  )

/**
 * The creator written into every HAR of this package.
 *
 * @since 0.5.0
 * @category constants
 */
export const creator: { readonly name: string; readonly version: string } = Write.creator

/**
 * A HAR document of the given entries.
 *
 * @since 0.5.0
 * @category constructors
 */
export const make: (entries: ReadonlyArray<Entry>, comment?: string) => Har = Write.make

/**
 * The HAR with every request and answer body longer than `maxBytes` bytes cut to that length,
 * each saying so in its HAR 1.2 `comment` (`--har-max-body`); sizes stay the whole bodies'.
 *
 * @since 0.7.0
 * @category constructors
 */
export const limitBodies: (har: Har, maxBytes: number) => Har = Write.limitBodies

/**
 * A HAR document as JSON text.
 *
 * @since 0.5.0
 * @category encoding
 */
export const toJson = (har: Har): string => JSON.stringify(har, null, 1)

/**
 * Options of `judge`.
 *
 * @since 0.5.0
 * @category models
 */
export interface JudgeOptions {
  /** Where the HAR came from (its file name), for the report. */
  readonly source?: string | undefined
  /**
   * Judge only entries whose URL starts with this. Default: every entry of an origin that served at
   * least one operation of the API (a browser's HAR also holds pages, scripts and fonts).
   */
  readonly baseUrl?: string | undefined
  /** Also flag requests only a lenient server accepts (as the proxy's `--strict-client`). */
  readonly strictClient?: boolean | undefined
  /** Allowed clock difference with the server, in milliseconds (default 5000). */
  readonly clockSkewMillis?: number | undefined
}

/**
 * Judges the exchanges of a HAR document with the proxy's oracles: a report with client and
 * server findings, as the proxy would have made from the same traffic live. Bodies compressed
 * with `gzip`, `deflate` or `br` are read as the proxy reads them (whether the HAR holds them
 * decoded, as HAR 1.2 says, or as sent), and a binary-codec exchange is judged by its status and
 * headers only.
 *
 * @since 0.5.0
 * @category judging
 */
export const judge = (
  har: Har,
  options: JudgeOptions = {}
): Report.Report & { readonly findings: ReadonlyArray<Proxy.Finding> } =>
  Offline.judge(har, {
    source: options.source ?? "a HAR file",
    baseUrl: options.baseUrl,
    strict: options.strictClient === true,
    skewMillis: options.clockSkewMillis ?? defaults.clockSkewMillis
  })

/**
 * Whether a URL's path names an operation of the API.
 *
 * @since 0.5.0
 * @category judging
 */
export const isOperationUrl = (url: string): boolean =>
  Either.getOrElse(
    Either.try(() => Operations.byPath.has(new URL(url).pathname)),
    () => false
  )
