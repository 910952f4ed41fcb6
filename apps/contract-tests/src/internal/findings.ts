/**
 * The one constructor of a finding and the one of a report, used by the runner and the proxy
 * alike: each field (the rule's source, the severity, the curl reproduction, the redaction of the
 * API key and of the request's secret values) is computed here and nowhere else.
 */
import * as Option from "effect/Option"
import { ContractRules, Secrets } from "@data-access/schema"
import * as Checks from "@data-access/schema/ContractChecks"
import * as Curl from "./curl.js"
import type * as Report from "./report/model.js"
import type { Exchange, RawRequest } from "./http.js"
import * as Inspect from "./inspect.js"
import type { Outcome } from "./outcome.js"

/** Where a rule is written, as a finding shows it: document, section and quote. */
export const sourceOf = (rule: ContractRules.RuleId): string => {
  const r = ContractRules.get(rule)
  return `${r.source.doc} § ${r.source.section}: “${r.source.quote}”`
}

/**
 * The request as a `curl` command against `baseUrl`, with every given secret scrubbed (a large
 * body's file is named after the scrubbed body, the finding's `request.body`).
 */
export const curlOf = (
  baseUrl: string,
  request: RawRequest,
  scrub: (s: string) => string
): string => scrub(Curl.render(baseUrl, request, scrub))

/** A request's body as its curl line sends it (secret fields masked), shown in the reports. */
export const requestBody = (
  request: RawRequest,
  scrub: (s: string) => string
): string | undefined =>
  request.body === undefined ? undefined : scrub(Curl.displayBody(request.body) ?? "")

/** The secret values of a request body sent as JSON text (none when it is not JSON). */
const bodySecrets = (request: RawRequest): ReadonlyArray<string> =>
  request.body === undefined
    ? []
    : Secrets.values(Option.getOrUndefined(Option.liftThrowable(JSON.parse)(request.body)))

/** What a finding is made of: a failed outcome of one operation, and where it came from. */
export interface FindingInput<S extends Report.Finding["side"]> {
  /** A failed outcome: its rule is set. */
  readonly outcome: Outcome
  readonly operation: string
  /** The base URL the curl reproduction is written against. */
  readonly baseUrl: string
  /**
   * Secret values to keep out of every text of the finding (the API keys seen); the secret values
   * of the request body shown are added here.
   */
  readonly secrets: Iterable<string>
  /** The exchange shown when the outcome carries none (the proxy's exchange). */
  readonly exchange?: Exchange | undefined
  /** The party it blames (the proxy's findings); absent in a run's findings. */
  readonly side?: S
  readonly seed?: number | undefined
  readonly replayId?: string | undefined
  readonly occurrences?: number | undefined
  readonly shrinkSteps?: number | undefined
  /** Characters of the answer's body shown (default 800). */
  readonly excerpt?: number | undefined
}

/**
 * A finding from a failed outcome: the rule's source and the check's severity, the request as a
 * curl command, the answer's excerpt, and every text scrubbed of the API key and the request's
 * secret values. `seed` defaults to 0 and `replayId` to empty (live traffic is not replayable).
 */
export const makeFinding = <S extends Report.Finding["side"] = undefined>(
  input: FindingInput<S>
): Report.Finding & { readonly side: S } => {
  const o = input.outcome
  const e = o.exchange ?? input.exchange
  const scrub = Secrets.scrubber([
    ...input.secrets,
    ...(e === undefined ? [] : bodySecrets(e.request))
  ])
  const rule = o.rule!
  // A custom check's failure carries its severity and rule text; a built-in's are in the catalogue.
  const custom = o.custom
  const response: Report.Finding["response"] =
    e === undefined
      ? undefined
      : Option.match(e.response, {
          onNone: () => ({
            _tag: "NoResponse" as const,
            error: scrub(e.transportError ?? "no response")
          }),
          onSome: (r) => ({
            _tag: "Response" as const,
            status: r.status,
            contentType: r.headers["content-type"],
            body: scrub(Inspect.excerpt(r, input.excerpt ?? 800))
          })
        })
  const body = e === undefined ? undefined : requestBody(e.request, scrub)
  const finding = {
    ...(input.side === undefined ? {} : { side: input.side }),
    check: o.check,
    rule,
    source: custom?.rule ?? sourceOf(rule as ContractRules.RuleId),
    severity: custom?.severity ?? Checks.byId.get(o.check as Checks.CheckId)!.severity,
    operation: input.operation,
    cause: scrub(o.cause),
    message: scrub(o.message),
    detail: o.detail === undefined ? undefined : scrub(o.detail),
    seed: input.seed ?? 0,
    replayId: input.replayId ?? "",
    curl: e === undefined ? "" : curlOf(input.baseUrl, e.request, scrub),
    request:
      e === undefined
        ? { method: "", path: "", body: undefined }
        : { method: e.request.method, path: e.request.path, body },
    response,
    occurrences: input.occurrences ?? 1,
    shrinkSteps: input.shrinkSteps ?? 0
  }
  return finding as Report.Finding & { readonly side: S }
}

/** What a report is made of; what a run leaves out is empty (or 0, or false). */
export interface ReportInput<F extends Report.Finding> {
  readonly runId: string
  readonly seed?: number | undefined
  readonly target: string
  /** Epoch millis when the run started; the duration runs until the report is made. */
  readonly started: number
  readonly requests: number
  /** Default: `requests` (the proxy's examples are its exchanges). */
  readonly examples?: number | undefined
  readonly readOnly?: boolean | undefined
  readonly replay?: string | undefined
  readonly cells: ReadonlyArray<Report.Cell>
  readonly findings: ReadonlyArray<F>
  readonly known?: ReadonlyArray<Report.Finding> | undefined
  readonly fixed?: ReadonlyArray<Report.Fixed> | undefined
  readonly observations?: ReadonlyArray<Report.Observation> | undefined
  readonly notes: ReadonlyArray<string>
  readonly coverage?: ReadonlyArray<Report.RuleCoverage> | undefined
  /** Secret values (the API key) kept out of the notes. */
  readonly secrets?: Iterable<string> | undefined
}

/** A report: start time and duration, the counts and findings given, notes scrubbed. */
export const makeReport = <F extends Report.Finding>(
  input: ReportInput<F>
): Report.Report & { readonly findings: ReadonlyArray<F> } => {
  const scrub = Secrets.scrubber(input.secrets ?? [])
  return {
    runId: input.runId,
    seed: input.seed ?? 0,
    target: input.target,
    startedAt: new Date(input.started).toISOString(),
    durationMs: Date.now() - input.started,
    requests: input.requests,
    examples: input.examples ?? input.requests,
    readOnly: input.readOnly ?? false,
    replay: input.replay,
    cells: input.cells,
    findings: input.findings,
    known: input.known ?? [],
    fixed: (input.fixed ?? []).map((e) => ({
      rule: e.rule,
      operation: e.operation,
      cause: e.cause
    })),
    observations: input.observations ?? [],
    notes: input.notes.map(scrub),
    ...(input.coverage === undefined ? {} : { coverage: input.coverage })
  }
}
