import * as Deadline from "./deadline.js"
import * as Operation from "./operation.js"
import * as Retry from "./retry.js"
import type { Effects, Span, Clock, Failed, Plan } from "../Attempts.js"

export const run = <F, E extends Failed, S>(
  effects: Effects<F, E>,
  plan: Plan<F, E, S>,
  span: Span,
  clock: Clock,
  initial: S
): F => {
  const { attemptMillis, budgetMillis, name } = plan
  const deadline = clock.millis() + budgetMillis
  const fail = (error: E): F => {
    span.attribute("rpc.response.code", Operation.responseCode(error))
    return effects.fail(error)
  }
  const loop = (attemptNumber: number, state: S): F => {
    // Each attempt is an event on the call's span; the HttpClient adds a child span per request.
    span.event("attempt", clock.nanos(), { "rpc.attempt": attemptNumber })
    const bound = Deadline.bound(clock.millis(), deadline, budgetMillis, attemptMillis)
    const attempt =
      bound._tag === "Expired"
        ? effects.fail(
            plan.timeout({
              operation: name,
              scope: "overall",
              timeoutMillis: budgetMillis,
              attempts: attemptNumber - 1
            })
          )
        : plan.attempt(bound, () =>
            plan.timeout({
              operation: name,
              scope: bound.scope,
              timeoutMillis: bound.timeoutMillis,
              attempts: attemptNumber
            })
          )
    return effects.match(
      attempt,
      (error) => {
        if (!plan.retryable(error)) return fail(error)
        const now = clock.millis()
        return plan.step(
          now,
          error,
          state,
          (policyDelayMillis, nextState) => {
            const next = Retry.after(error, attemptNumber, now, deadline, policyDelayMillis)
            if (next._tag === "GiveUp") return fail(error)
            const delay = next.delayMillis
            span.event("retry", clock.nanos(), next.event)
            // The next attempt is built after the wait: it reads the clock for its own deadline.
            const again = effects.suspend(() => loop(attemptNumber + 1, nextState))
            return effects.logDebug(
              Retry.retryMessage(name, attemptNumber, next.reason, delay),
              delay > 0 ? effects.sleep(delay, again) : again
            )
          },
          () => fail(error)
        )
      },
      (value) => {
        span.attribute("rpc.attempts", attemptNumber)
        span.attribute("rpc.response.code", "ok")
        return effects.succeed(value)
      }
    )
  }
  return loop(1, initial)
}
