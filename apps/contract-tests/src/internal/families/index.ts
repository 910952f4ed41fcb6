/**
 * The check families, in run order: one list, from which the runner builds every suite. Each
 * family's module (or folder, one module per suite) holds its checks and the rules they judge;
 * `checks` of every family together cover the catalogue (`ContractChecks.checks`), which a test
 * asserts. No family imports another: what several use lives in `shared/`, which imports no
 * family, and the create budget they share out in `creates.ts`.
 */
import type { CheckId } from "@data-access/schema/ContractChecks"
import type { Context, Family, Op, Suite } from "../context.js"
import { auth } from "./auth.js"
import { invalid } from "./invalid.js"
import { latitude } from "./latitude/index.js"
import { listEnums } from "./listEnums.js"
import { paging } from "./pagingSuites.js"
import { protocol } from "./protocolSuites.js"
import { reads } from "./reads.js"
import { references } from "./references.js"
import { relations } from "./relations/index.js"
import { search } from "./search/index.js"
import { spellings } from "./spellings/index.js"
import { succession } from "./succession.js"
import { updates } from "./updates.js"
import { valid } from "./valid.js"

export const families: ReadonlyArray<Family> = [
  valid,
  invalid,
  listEnums,
  references,
  auth,
  protocol,
  spellings,
  latitude,
  updates,
  reads,
  paging,
  search,
  relations,
  succession
]

/** The families that report on one of `checks` (every family when none are given). */
const reporting = (checks: ReadonlySet<CheckId> | undefined): ReadonlyArray<Family> =>
  checks === undefined ? families : families.filter((f) => f.checks.some((c) => checks.has(c)))

/**
 * Every suite of an operation, in run order; given `checks`, only the suites of the families that
 * report on one of them (a family's suites report on its checks only), the others not even built.
 */
export const suitesOf = (
  op: Op,
  ctx: Context,
  checks?: ReadonlySet<CheckId>
): ReadonlyArray<Suite> => reporting(checks).flatMap((f) => f.suites(op, ctx))

/** Suites of the whole API, not tied to one operation; given `checks`, as `suitesOf` keeps them. */
export const globalSuites = (ctx: Context, checks?: ReadonlySet<CheckId>): ReadonlyArray<Suite> =>
  reporting(checks).flatMap((f) => f.global?.(ctx) ?? [])
