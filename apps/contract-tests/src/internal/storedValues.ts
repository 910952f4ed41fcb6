/** What a served write stored, read from its answer, as the create-echo and update-semantics verdicts read it. */
import type { ContractRules } from "@data-access/schema"
import { type FieldPath, type Op, pathText, show, storedValue } from "./context.js"
import type { Exchange } from "./http.js"
import { fail, type Outcome, passes } from "./outcome.js"
import { answeredFirst, statusOf } from "./answerReading.js"

/** A served write's answer (`what` it sent) holds `value` at `path`: `rule` passes, or fails naming what it holds. */
export const storedExactly = (
  rule: ContractRules.RuleId,
  op: Op,
  e: Exchange,
  path: FieldPath,
  value: unknown,
  what: string
): Outcome | undefined => {
  if (statusOf(e) !== 200 || answeredFirst(e)) return undefined
  const field = pathText(path)
  const stored = storedValue(op, e, path)
  return stored === value
    ? passes([rule])
    : fail(
        rule,
        `${what}: accepted but stored otherwise`,
        `${what} in ${field} was accepted, but the answer holds ${show(stored)} instead of the value sent`,
        e,
        `${field} = ${show(stored)}`
      )
}
