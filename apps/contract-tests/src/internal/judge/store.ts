/**
 * The proxy's store: exchanges judged one at a time, findings deduplicated (by side, rule,
 * operation and cause) and counted, a cell per operation and check, the keys seen, the live line
 * of each new finding, and the report so far. The judging thread keeps one for a running proxy
 * (`proxy/worker.ts`, with the HAR entries and the metrics' tally); `judge` keeps one for a HAR file.
 */
import * as Option from "effect/Option"
import { Secrets } from "@data-access/schema"
import { type AnyCheckId, checkRank, compareChecks } from "../checkIds.js"
import type { Finding, Tally } from "./types.js"
import type * as Report from "../report/model.js"
import { makeFinding, makeReport } from "../findings.js"
import { entryOf } from "../recording/write.js"
import { type Job, judge, type Judgement, type Settings } from "./judging.js"
import * as ObjectModel from "../objectModel.js"

/** A failure of the model held until no write seen later may explain it (`ObjectModel.observe`). */
interface Held {
  readonly id: string
  readonly start: number
  readonly end: number
  readonly operation: string
  readonly judgement: Judgement
  readonly outcome: Judgement["verdicts"][number]["outcome"]
}

/** What the store is kept for. */
export interface StoreOptions extends Settings {
  /** The deployment relayed to: the base URL of the curl reproductions. */
  readonly target: string
  /** Called once per new finding (first occurrence). */
  readonly onFinding?: ((finding: Finding) => void) | undefined
  /** Called with every exchange once judged (the HAR recorder, the metrics). */
  readonly onJudged?:
    ((job: Job, judgement: Judgement, keys: ReadonlySet<string>) => void) | undefined
  /** What the traffic is, for the report's first note (default: the proxy in front of `target`). */
  readonly source?: string | undefined
  /** When the traffic started (default: now). */
  readonly startedAt?: number | undefined
}

interface Cell {
  passed: number
  failed: number
}

/** The findings, counts and keys seen, and how a judgement adds to them. */
export const makeStore = (options: StoreOptions) => {
  const startedAt = options.startedAt ?? Date.now()
  const runId = `${options.source === undefined ? "proxy" : "har"}-${startedAt.toString(36)}`
  const findings = new Map<string, { finding: Finding; count: number }>()
  const cells = new Map<string, Cell>()
  const keys = new Set<string>()
  const counters = { exchanges: 0, unchecked: 0 }
  // The model of the objects created through this traffic (update-semantics' updates.model).
  const model = ObjectModel.make(false)
  let held: Array<Held> = []

  const cell = (operation: string, check: AnyCheckId) => {
    const k = `${operation}\u0000${check}`
    let c = cells.get(k)
    if (c === undefined) cells.set(k, (c = { passed: 0, failed: 0 }))
    return c
  }

  /** Counts each verdict; a failure's first occurrence becomes a finding, a later one a count. */
  const record = (judgement: Judgement) => {
    if (judgement.unread) counters.unchecked++
    for (const { operation, outcome: o, side } of judgement.verdicts) {
      const c = cell(operation, o.check)
      if (o.ok || o.rule === undefined) {
        c.passed++
        continue
      }
      c.failed++
      const k = `${side}\u0000${o.rule}\u0000${operation}\u0000${o.cause}`
      const seen = findings.get(k)
      if (seen !== undefined) {
        seen.count++
        continue
      }
      const finding = makeFinding({
        outcome: o,
        operation,
        side,
        baseUrl: options.target,
        secrets: [...judgement.secrets, ...keys],
        exchange: judgement.exchange
      })
      findings.set(k, { finding, count: 1 })
      options.onFinding?.(finding)
    }
  }

  /**
   * The model's verdicts on an exchange: its passes at once, its failures held; a write seen now
   * drops the failures it overlaps (it may have come before or after their answers).
   */
  const modelled = (job: Job, judgement: Judgement): Judgement => {
    const name = judgement.verdicts.find((v) => v.side === "server")?.operation ?? "_"
    const start = job.span?.start ?? job.started
    const end = job.span?.end ?? job.receivedAt
    const { judged, written } = ObjectModel.observe(model, judgement.exchange, start, end)
    if (written !== undefined)
      held = held.filter((h) => !ObjectModel.overlaps(written, h.id, h.start, h.end))
    if (judged.length === 0) return judgement
    const passed = []
    for (const { id, outcome } of judged) {
      if (outcome.ok) passed.push({ side: "server" as const, operation: name, outcome })
      else
        held.push({
          id,
          start,
          end,
          operation: name,
          judgement,
          outcome
        })
    }
    return passed.length === 0
      ? judgement
      : { ...judgement, verdicts: [...judgement.verdicts, ...passed] }
  }

  /** The held failures of the model, recorded: no write seen since explains them. */
  const settle = (): void => {
    for (const h of held)
      record({
        ...h.judgement,
        unread: false,
        verdicts: [{ side: "server", operation: h.operation, outcome: h.outcome }]
      })
    held = []
  }

  /** Judges one exchange into the store. */
  const check = (job: Job): void => {
    counters.exchanges++
    if (job.key !== undefined && job.key.length >= Secrets.MIN_LENGTH) keys.add(job.key)
    const judgement = modelled(job, judge(job, options))
    record(judgement)
    options.onJudged?.(job, judgement, keys)
  }

  /** The findings with their counts: the server's first, then by check. */
  const currentFindings = (): Array<Finding> => {
    settle()
    const all = [...findings.values()].map(({ count, finding }) => ({
      ...finding,
      occurrences: count
    }))
    const order = (f: Finding) => (f.side === "server" ? 0 : 1) * 1e6 + checkRank(f.check) * 1000
    return all.sort((a, b) => order(a) - order(b))
  }

  const reportCells = (): Array<Report.Cell> =>
    [...cells.entries()]
      .map(([k, c]) => {
        const [operation, check] = k.split("\u0000") as [string, AnyCheckId]
        return { operation, check, passed: c.passed, failed: c.failed, skipped: 0, skipReasons: [] }
      })
      .sort((a, b) =>
        a.operation < b.operation
          ? -1
          : a.operation > b.operation
            ? 1
            : compareChecks(a.check, b.check)
      )

  const report = (fs: ReadonlyArray<Finding>, extraNotes: ReadonlyArray<string> = []) => {
    settle()
    const { exchanges, unchecked } = counters
    return makeReport({
      runId,
      target: options.target,
      started: startedAt,
      requests: exchanges,
      cells: reportCells(),
      findings: fs,
      notes: [
        `${options.source ?? `conformance proxy in front of ${options.target}`}: ${exchanges} exchanges checked; ${fs.filter((f) => f.side === "server").length} server and ${fs.filter((f) => f.side === "client").length} client findings${options.strict ? " (strict client)" : ""}`,
        ...(unchecked === 0
          ? []
          : [
              `${unchecked} of them relayed with a body left unread (binary codec, or a Content-Encoding that could not be decompressed): judged by status and headers only`
            ]),
        ...extraNotes
      ],
      secrets: keys
    })
  }

  /** The API keys seen so far (to scrub from any text). */
  const keysSeen = (): ReadonlySet<string> => keys

  return { check, currentFindings, report, keysSeen }
}

/** A judged job as a HAR entry, every secret masked. */
export const entryOfJob = (
  target: string,
  limit: number,
  job: Job,
  judgement: Judgement,
  keys: ReadonlySet<string>
) =>
  entryOf({
    startedAt: job.started,
    durationMs: job.receivedAt - job.started,
    method: job.request.method,
    url: target + job.request.path + (job.request.query === "" ? "" : `?${job.request.query}`),
    requestHeaders: job.request.headers,
    requestBody: job.request.body,
    requestBodyBytes: job.request.bodyBytes,
    status: job.transportError === undefined ? job.status : 0,
    responseHeaders: job.headers,
    responseBody: job.body,
    error: job.transportError,
    secrets: keys,
    limit,
    read: {
      requestSecrets: judgement.secrets,
      responseJson: Option.getOrUndefined(
        Option.flatMap(judgement.exchange.response, (r) => r.json)
      )
    }
  })

/** No exchange judged yet: what the metrics are told of judged exchanges, summed. */
export const emptyTally = (): Tally => ({ judged: 0, unread: {}, findings: {} })

/** Adds one judged exchange to a tally: one more judged, its body's reason if unread, each broken rule. */
export const addToTally = (tally: Tally, judgement: Judgement): void => {
  tally.judged++
  if (judgement.unreadReason !== undefined)
    tally.unread[judgement.unreadReason] = (tally.unread[judgement.unreadReason] ?? 0) + 1
  for (const v of judgement.verdicts) {
    if (v.outcome.ok || v.outcome.rule === undefined) continue
    const k = `${v.side}\u0000${v.outcome.rule}\u0000${v.operation}`
    tally.findings[k] = (tally.findings[k] ?? 0) + 1
  }
}
