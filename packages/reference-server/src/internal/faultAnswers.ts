/**
 * The answers of fault injection (`Faults`): the pipelines of the violations a fault plan turns
 * on, and the transient, proxy and drop faults and latency it adds. A faithful server never runs
 * them: the mutation run leaves this module out, and the runner's own self-proof
 * (apps/contract-tests/bench/run.mjs) runs each of them.
 *
 * @internal
 */
import { RateLimit, RetryAfter } from "@data-access/schema"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type { Decision, ViolationName } from "./faults.js"
import type { Pipeline } from "./compose.js"
import * as ConnectError from "./connectError.js"
import { response } from "./faithful.js"
import { type Answer, Fail, type Hooks, type Output } from "./pipeline-types.js"
import * as Violations from "./violations/index.js"

/** The dropped connection of a `DropConnection` fault. */
export const drop: Output = { _tag: "Drop" }

const RATE_LIMITED = "rate limit reached; retry after the Retry-After delay"

/**
 * The pipelines of the sets of violations requests got, each composed over the faithful one the
 * first time a request gets that set.
 */
export const violatedPipelines = (
  faithful: Pipeline,
  compose: (base: Pipeline, hooks: ReadonlyArray<Hooks>) => Pipeline
) => {
  const violated = new Map<string, Pipeline>()
  return (on: ReadonlySet<ViolationName>): Pipeline => {
    if (on.size === 0) return faithful
    const key = on.size === 1 ? on.values().next().value! : [...on].sort().join(",")
    let p = violated.get(key)
    if (p === undefined) {
      p = compose(
        faithful,
        Violations.records.filter((r) => on.has(r.name)).map((r) => r.hooks)
      )
      violated.set(key, p)
    }
    return p
  }
}

/** A transient, proxy or drop fault of the plan that answers before the operation runs. */
export const terminalAnswer = (
  p: Pipeline,
  terminal: Decision["terminal"],
  base: Record<string, string>
): Answer | undefined => {
  switch (terminal?._tag) {
    case undefined:
      return undefined
    case "Unavailable":
      return new Fail(
        ConnectError.make("unavailable", "the service is temporarily unavailable; try again")
      )
    case "RateLimited": {
      const headers = {
        ...base,
        [RetryAfter.HEADER]: RetryAfter.format(terminal.retryAfterSeconds),
        ...RateLimit.headers(100, 0, Date.now() / 1000 + terminal.retryAfterSeconds)
      }
      return p.stages.writeError(ConnectError.make("resource_exhausted", RATE_LIMITED), headers)
    }
    case "BareStatus":
      return response(
        terminal.status,
        { ...base, "content-type": "text/plain" },
        `upstream answered ${terminal.status}`
      )
    case "DropConnection":
      return terminal.when === "before-handling" ? drop : undefined
  }
}

/**
 * A rate limit or an overload answers a request before anything in it is read (decisions.md
 * section 2 and section 10: it may answer any request first).
 */
export const firstAnswer = (
  p: Pipeline,
  decision: Decision,
  base: Record<string, string>
): Output | undefined => {
  const first =
    decision.terminal?._tag === "RateLimited" || decision.terminal?._tag === "Unavailable"
      ? terminalAnswer(p, decision.terminal, base)
      : undefined
  return first instanceof Fail ? p.stages.writeError(first.error, base) : first
}

/** The latency a fault adds before the work. */
export const withLatency = <A>(decision: Decision, run: Effect.Effect<A>): Effect.Effect<A> =>
  decision.latencyMillis > 0
    ? Effect.zipRight(Effect.sleep(Duration.millis(decision.latencyMillis)), run)
    : run

/** Whether the fault drops the connection after the operation ran. */
export const dropsAfter = (decision: Decision): boolean =>
  decision.terminal?._tag === "DropConnection"
