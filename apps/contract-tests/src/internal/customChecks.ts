/**
 * The user's own checks (`Hooks.checks`): their ids checked against the built-in ones, each
 * exchange a case makes handed to them, and their verdicts turned into outcomes that the runner
 * counts, shrinks, replays and reports like the built-in checks' outcomes.
 */
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Option from "effect/Option"
import { ContractRules, Operations } from "@data-access/schema"
import * as Checks from "@data-access/schema/ContractChecks"
import type { Exchange, Target } from "./http.js"
import { HookFailure } from "./requestHooks.js"
import type { Outcome, Verdict } from "./outcome.js"
import { type CustomCheckId, NAMESPACED } from "./checkIds.js"

/** A request as a custom check sees it. */
export interface CheckedRequest {
  readonly method: string
  readonly path: string
  /** The headers the case set (lower-case names; never the API key nor a hook's header). */
  readonly headers: Readonly<Record<string, string>>
  /** The body as sent (before any compression); `undefined` for none. */
  readonly text: string | undefined
  /** The body parsed as JSON; `undefined` when there is none or it is not JSON. */
  readonly body: unknown
}

/** An answer as a custom check sees it. */
export interface CheckedResponse {
  readonly status: number
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>
  /** The body as text (decompressed). */
  readonly text: string
  /** The body parsed as JSON; `undefined` when it is not JSON. */
  readonly body: unknown
}

/** One exchange of a run as a custom check sees it. */
export interface CheckedExchange {
  /** The operation the request was sent to (its method name), or `_` for a route of none. */
  readonly operation: string
  /** The family of the suite that sent it (`valid`, `invalid`, `auth`, `paging`...). */
  readonly family: string
  readonly request: CheckedRequest
  /** `undefined` when no answer came (a timeout, a dropped connection): see `error`. */
  readonly response: CheckedResponse | undefined
  readonly error: string | undefined
}

/**
 * What a custom check says of an exchange: nothing (or `undefined`, `true`) when its rule holds;
 * a message, or a message with the cause findings are told apart by (no values in it; default: the
 * rule) and the detail that shows it, when it does not.
 */
export type CheckResult =
  | undefined
  | void
  | boolean
  | string
  | { readonly message: string; readonly cause?: string | undefined; readonly detail?: string }

/** A check of the user's own: its namespaced id, severity and rule, and the function that judges. */
export interface CustomCheck {
  /** Namespaced (`acme.names-lowercase`), and neither a built-in check nor a built-in rule id. */
  readonly id: `${string}.${string}`
  readonly severity: Checks.Severity
  /** The rule it holds the server to, in one sentence: shown with each of its findings. */
  readonly rule: string
  /** Judges one exchange; a check that throws (or rejects) ends the run as a failed hook. */
  readonly check: (exchange: CheckedExchange) => CheckResult | Promise<CheckResult>
}

const SEVERITIES: ReadonlyArray<string> = ["critical", "major", "minor"]

/** Why a list of custom checks cannot be run (the first problem found), or `undefined`. */
export const problem = (checks: unknown): string | undefined => {
  if (checks === undefined) return undefined
  if (!Array.isArray(checks)) return "checks is not an array of custom checks"
  const seen = new Set<string>()
  for (const [i, c] of checks.entries()) {
    const at = `checks[${i}]`
    if (c === null || typeof c !== "object") return `${at} is not a custom check`
    const { id, severity, rule, check } = c as Record<string, unknown>
    if (typeof id !== "string") return `${at} has no id`
    const name = `${at} ("${id}")`
    if (Checks.isCheckId(id))
      return `${name}: the id is a built-in check's; give a namespaced one of your own (acme.${id})`
    if (ContractRules.isRuleId(id))
      return `${name}: the id is a built-in rule's; give a namespaced one of your own (acme.${id.split(".").pop()})`
    if (!NAMESPACED.test(id))
      return `${name}: the id is namespaced, words of letters, digits, _ and - joined by dots (acme.names-lowercase)`
    if (seen.has(id)) return `${name}: two custom checks have this id`
    seen.add(id)
    if (typeof severity !== "string" || !SEVERITIES.includes(severity))
      return `${name}: severity is one of ${SEVERITIES.join(", ")}, not ${JSON.stringify(severity)}`
    if (typeof rule !== "string" || rule.trim() === "")
      return `${name}: rule is the rule it checks, in one sentence`
    if (typeof check !== "function") return `${name}: check is not a function`
  }
  return undefined
}

/** The exchanges of the case running in this fiber, when custom checks are to judge them. */
export const caseExchanges = FiberRef.unsafeMake<Array<Exchange> | undefined>(undefined)

/** The target with every exchange also written to the running case's log (`caseExchanges`). */
export const observed = (target: Target): Target => ({
  ...target,
  send: (request) =>
    Effect.tap(target.send(request), (e) =>
      FiberRef.getWith(caseExchanges, (log) => Effect.sync(() => log?.push(e)))
    )
})

const paths: ReadonlyMap<string, string> = new Map(Operations.all.map((o) => [o.path, o.method]))

const parsed = (text: string | undefined): unknown =>
  text === undefined ? undefined : Option.getOrUndefined(Option.liftThrowable(JSON.parse)(text))

/** An exchange as a custom check sees it. */
const checkedOf = (e: Exchange, family: string): CheckedExchange => {
  const r = Option.getOrUndefined(e.response)
  return {
    operation: paths.get(e.request.path) ?? "_",
    family,
    request: {
      method: e.request.method,
      path: e.request.path,
      headers: e.request.headers,
      text: e.request.body,
      body: parsed(e.request.body)
    },
    response:
      r === undefined
        ? undefined
        : {
            status: r.status,
            headers: r.headers,
            text: r.text,
            body: Option.getOrUndefined(r.json)
          },
    error: e.transportError
  }
}

/**
 * A custom check's verdict on one exchange as an outcome: a pass, or a failure of its rule (texts
 * read as strings, whatever plain JavaScript returned).
 */
const outcomeOf = (c: CustomCheck, result: CheckResult, exchange: Exchange): Outcome => {
  const id = c.id as CustomCheckId
  if (result === undefined || result === null || result === true)
    return { check: id, rule: undefined, ok: true, cause: "", message: "", exchange: undefined }
  const r: { message?: unknown; cause?: unknown; detail?: unknown } =
    typeof result === "object" ? result : { message: result === false ? c.rule : result }
  return {
    check: id,
    rule: id,
    ok: false,
    cause: r.cause === undefined ? c.rule : String(r.cause),
    message: r.message === undefined ? c.rule : String(r.message),
    exchange,
    detail: r.detail === undefined ? undefined : String(r.detail),
    custom: { severity: c.severity, rule: c.rule }
  }
}

/**
 * The case's verdicts with the custom checks' outcomes on each exchange it made added; a check
 * that throws ends the run (a `HookFailure` defect naming the check).
 */
export const judged = <E>(
  checks: ReadonlyArray<CustomCheck>,
  family: string,
  self: Effect.Effect<ReadonlyArray<Verdict>, E>
): Effect.Effect<ReadonlyArray<Verdict>, E> =>
  Effect.suspend(() => {
    const log: Array<Exchange> = []
    return Effect.flatMap(Effect.locally(self, caseExchanges, log), (verdicts) =>
      log.length === 0
        ? Effect.succeed(verdicts)
        : Effect.map(
            Effect.tryPromise({
              try: async () => {
                const out: Array<Outcome> = []
                for (const e of log) {
                  const seen = checkedOf(e, family)
                  for (const c of checks) {
                    try {
                      out.push(outcomeOf(c, await c.check(seen), e))
                    } catch (error) {
                      throw new HookFailure({
                        message: `the check ${c.id} threw: ${(error as Error)?.message ?? String(error)}`
                      })
                    }
                  }
                }
                return out
              },
              catch: (e) => e as HookFailure
            }).pipe(Effect.orDie),
            (outcomes) => [...verdicts, ...outcomes]
          )
    )
  })
