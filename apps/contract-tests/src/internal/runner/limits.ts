/** The run's budgets (time, findings, shrinking), shared by its suites and read before each example. */
import type { HookFailure } from "../requestHooks.js"

/** The run's budgets, shared by its suites: the first one spent stops every suite. */
export interface Limits {
  /** Epoch millis after which no new example starts. */
  readonly deadline: number | undefined
  /** Requests spent shrinking one failure. */
  readonly shrinkBudget: number
  /** Why the run stopped early, once a budget was spent. */
  stoppedBy: string | undefined
  /** Distinct failures after which no new example starts (their shrinking goes on); none when undefined. */
  readonly maxFindings: number | undefined
  /** Distinct failures so far (one per suite, rule and cause): this run's, or all its threads'. */
  readonly failures: { readonly count: () => number; readonly add: () => void }
  /** The hook that threw in a case, which ends the run. */
  hookFailure?: HookFailure | undefined
}

/** Whether a budget is spent, now or before: no new example starts, and no shrinking goes on. */
export const spentBudget = (limits: Limits): boolean => {
  if (limits.stoppedBy !== undefined) return true
  if (limits.deadline !== undefined && Date.now() > limits.deadline)
    limits.stoppedBy = "the time budget is spent"
  return limits.stoppedBy !== undefined
}

/** Why no new example starts: a budget spent, or enough findings (`maxFindings`); undefined while examples go on. */
export const stopReason = (limits: Limits): string | undefined =>
  spentBudget(limits)
    ? limits.stoppedBy
    : limits.maxFindings !== undefined && limits.failures.count() >= limits.maxFindings
      ? `max findings reached (${limits.maxFindings})`
      : undefined
