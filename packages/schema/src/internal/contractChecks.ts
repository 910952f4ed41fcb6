import * as Schema from "effect/Schema"
import * as Registry from "../rules/index.js"
import type { Check, CheckId } from "../ContractChecks.js"

export const checks: ReadonlyArray<Check> = Registry.checks.map(({ id, meaning, severity }) => ({
  id,
  meaning,
  severity
}))

export const ids: ReadonlyArray<CheckId> = checks.map((c) => c.id)

export const byId: ReadonlyMap<CheckId, Check> = new Map(checks.map((c) => [c.id, c]))

export const isCheckId = (s: string): s is CheckId => byId.has(s as CheckId)

export const CheckIdSchema: Schema.Schema<CheckId> = Schema.Literal(
  ...(ids as [CheckId, ...Array<CheckId>])
).annotations({
  identifier: "CheckId"
})
