/**
 * A run's options checked and resolved: the replay id decoded, the operations and checks
 * selected, the defaults filled in. A run that cannot be made fails with a `RunFailure`, which
 * `ContractTests.run` reports as its public `RunError`.
 */
import * as Data from "effect/Data"
import * as Either from "effect/Either"
import { Operations } from "@data-access/schema"
import * as Checks from "@data-access/schema/ContractChecks"
import type { Options } from "./types.js"
import * as ReplayId from "../replayId.js"
import type { Op } from "../context.js"
import { RESERVED_HEADERS } from "../requestHooks.js"
import type { AnyCheckId, CustomCheckId } from "../checkIds.js"
import * as CustomChecks from "../customChecks.js"

/** Why a run cannot be made (`ContractTests.RunError` carries the same reason and message). */
export class RunFailure extends Data.TaggedError("RunFailure")<{
  readonly reason: "BadOptions" | "Unreachable" | "Unauthenticated"
  readonly message: string
}> {}

/** Every operation of the table. */
export const allOps = Operations.all as ReadonlyArray<Op>

/**
 * Each default of a run's options, said once: the runner, the dry run, the command line, the proxy
 * and the HAR judge fill in what the options leave out from here.
 */
export const defaults = {
  /** Never send more requests than this. */
  maxRequests: 200_000,
  /** Distinct generated examples per operation and property. */
  examples: 100,
  /** The clock difference with the server a timestamp check allows, in milliseconds. */
  clockSkewMillis: 5_000,
  /** Cases in flight at once against the embedded server (and in a library run). */
  concurrency: 4,
  /** Cases in flight at once against a target, from the command line. */
  targetConcurrency: 2,
  /** Valid examples per Create operation against a target, from the command line. */
  createsPerOperation: 25,
  /** Requests per second against a target, from the command line. */
  targetRateLimit: 20
} as const

/** Requests spent shrinking one failure, unless the options say otherwise. */
export const SHRINK_BUDGET = 60

/** Cases in flight at once (and lists read at once by discovery): the options' `concurrency`, or its default. */
export const concurrencyOf = (options: Options): number =>
  options.concurrency ?? defaults.concurrency

/** Whether `pattern` names `name`: the name itself, or a glob where `*` is any run of characters and `?` one. */
export const namesIt = (pattern: string, name: string): boolean => {
  if (!/[*?]/.test(pattern)) return pattern === name
  const source = pattern
    .split("")
    .map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
    .join("")
  return new RegExp(`^${source}$`).test(name)
}

/** The names of `all` that `include` keeps (all when empty) and `exclude` does not drop; both may be globs. */
export const selectList = <A extends string>(
  all: ReadonlyArray<A>,
  include: ReadonlyArray<string> | undefined,
  exclude: ReadonlyArray<string> | undefined
): Array<A> =>
  all.filter(
    (x) =>
      (include === undefined || include.length === 0 || include.some((p) => namesIt(p, x))) &&
      !(exclude ?? []).some((p) => namesIt(p, x))
  )

/** The checks the options select. */
export const selectedChecks = (options: Options): Array<Checks.CheckId> =>
  selectList(Checks.ids, options.checks, options.excludeChecks)

/** The custom checks (`Hooks.checks`) the options select, by the same filters as the built-in ones. */
export const selectedCustom = (options: Options): Array<CustomChecks.CustomCheck> => {
  const all = options.hooks?.checks ?? []
  const ids = new Set<string>(
    selectList(
      all.map((c) => c.id),
      options.checks,
      options.excludeChecks
    )
  )
  return all.filter((c) => ids.has(c.id))
}

/** Every selected check's id: the built-in ones, then the custom ones. */
export const selectedIds = (options: Options): Array<AnyCheckId> => [
  ...selectedChecks(options),
  ...selectedCustom(options).map((c) => c.id as CustomCheckId)
]

/**
 * The built-in checks whose suites run: the selected ones, or every one when a custom check is
 * selected, since a custom check judges the exchanges of every suite.
 */
export const plannedChecks = (options: Options): Array<Checks.CheckId> =>
  selectedCustom(options).length > 0 ? [...Checks.ids] : selectedChecks(options)

/** The methods the options select. */
export const selectedMethods = (options: Options): Array<string> =>
  selectList(
    allOps.map((o) => o.method),
    options.operations,
    options.excludeOperations
  )

const bad = (message: string) => Either.left(new RunFailure({ reason: "BadOptions", message }))

/** The options checked; the decoded replay id when there is one. */
export const validate = (
  options: Options
): Either.Either<ReplayId.ReplayId | undefined, RunFailure> => {
  const methods = allOps.map((o) => o.method)
  const badOps = [...(options.operations ?? []), ...(options.excludeOperations ?? [])].filter(
    (m) => !methods.some((name) => namesIt(m, name))
  )
  if (badOps.length > 0)
    return bad(
      `unknown operations (or patterns naming none): ${badOps.join(", ")} (known: ${methods.join(", ")})`
    )
  const custom = CustomChecks.problem(options.hooks?.checks)
  if (custom !== undefined) return bad(`the hooks' custom checks: ${custom}`)
  const known: ReadonlyArray<string> = [
    ...Checks.ids,
    ...(options.hooks?.checks ?? []).map((c) => c.id)
  ]
  const badChecks = [...(options.checks ?? []), ...(options.excludeChecks ?? [])].filter(
    (c) => !known.some((id) => namesIt(c, id))
  )
  if (badChecks.length > 0)
    return bad(
      `unknown checks (or patterns naming none): ${badChecks.join(", ")} (known: ${known.join(", ")})`
    )
  const counts = {
    workers: options.workers,
    examples: options.examples,
    "max-requests": options.maxRequests,
    "max-findings": options.maxFindings
  }
  for (const [name, n] of Object.entries(counts))
    if (n !== undefined && (!Number.isInteger(n) || n < 1))
      return bad(`${name} must be a positive integer`)
  const reserved = Object.keys(options.headers ?? {}).filter((h) =>
    RESERVED_HEADERS.has(h.toLowerCase())
  )
  if (reserved.length > 0)
    return bad(
      `the checks set these headers themselves: ${reserved.join(", ")} (the key goes in --api-key)`
    )
  const badNames = Object.keys(options.headers ?? {}).filter(
    (h) => !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(h)
  )
  if (badNames.length > 0)
    return bad(`not a header name: ${badNames.map((h) => JSON.stringify(h)).join(", ")}`)
  if (options.rateLimit !== undefined && !(options.rateLimit > 0))
    return bad("the rate limit must be a positive number of requests per second")
  const shard = options.shard
  if (
    shard !== undefined &&
    !(
      Number.isInteger(shard.index) &&
      Number.isInteger(shard.total) &&
      shard.index >= 1 &&
      shard.index <= shard.total
    )
  )
    return bad(
      `a shard is i/n with 1 <= i <= n, both whole numbers: not ${shard.index}/${shard.total}`
    )
  if (options.replay !== undefined) {
    const r = ReplayId.decode(options.replay)
    if (Either.isLeft(r)) return bad(r.left.message)
    if (!Checks.isCheckId(r.right.check) && !known.includes(r.right.check))
      return bad(
        `replay id ${options.replay} names the custom check ${r.right.check}, which the hooks do not define (give the run's --hooks file)`
      )
    return Either.right(r.right)
  }
  return Either.right(undefined)
}

/** A short random id that names the objects a run creates. */
export const newRunId = (): string => Math.random().toString(36).slice(2, 8).padEnd(6, "0")
