import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as DefaultServices from "effect/DefaultServices"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"

/** The largest delay a JS timer keeps (longer ones fire at once). */
const MAX_TIMER_MILLIS = 2 ** 31 - 1

const liveClockSleep = Clock.make().sleep

export const usesRealTimer = (clock: Clock.Clock, millis: number): boolean =>
  clock.sleep === liveClockSleep && millis <= MAX_TIMER_MILLIS

/**
 * The race of `self` against a plain timer when the fiber runs on Effect's own real-time clock;
 * with any other clock (a `TestClock`, a user's clock), Effect's own `timeoutOption`.
 *
 * The work runs in one fiber started from the caller's context, fiber refs and runtime flags
 * (its span, its interruptibility), and the caller waits in one `Effect.async` that the work's
 * exit or the timer resumes: on time-out the work is interrupted and awaited, then `onTimeout`;
 * interrupting the caller interrupts the work. Starting the work and registering for its exit
 * happen in the one register callback, so no work is ever orphaned. (Effect's `timeoutOption`
 * races two forked fibers, which costs about as much as a whole HTTP exchange on loopback; this
 * forks one and takes three steps of the caller's fiber.)
 */
const race = <A, E, R, B, E2>(
  self: Effect.Effect<A, E, R>,
  millis: number,
  onTimeout: () => Effect.Effect<B, E2>
): Effect.Effect<A | B, E | E2, R> =>
  Effect.withFiberRuntime<A | B, E | E2, R>((fiber, status) => {
    const clock = Context.get(fiber.getFiberRef(DefaultServices.currentServices), Clock.Clock)
    if (!usesRealTimer(clock, millis)) return fallback(self, millis, onTimeout)
    const runtime = Runtime.make({
      context: fiber.currentContext as Context.Context<R>,
      fiberRefs: fiber.getFiberRefs(),
      runtimeFlags: status.runtimeFlags
    })
    return Effect.async<A | B, E | E2>((resume) => {
      const child = Runtime.runFork(runtime)(self)
      const observer = (exit: Exit.Exit<A, E>) => {
        clearTimeout(timer)
        resume(exit)
      }
      const timer = setTimeout(() => {
        child.removeObserver(observer)
        resume(Effect.zipRight(Fiber.interrupt(child), onTimeout()))
      }, millis)
      child.addObserver(observer)
      return Effect.suspend(() => {
        clearTimeout(timer)
        child.removeObserver(observer)
        return Fiber.interrupt(child)
      })
    })
  })

const fallback = <A, E, R, B, E2>(
  self: Effect.Effect<A, E, R>,
  millis: number,
  onTimeout: () => Effect.Effect<B, E2>
): Effect.Effect<A | B, E | E2, R> =>
  Effect.flatMap(
    Effect.timeoutOption(self, Duration.millis(millis)),
    (o): Effect.Effect<A | B, E2> => (Option.isSome(o) ? Effect.succeed(o.value) : onTimeout())
  )

export const timeoutOption = <A, E, R>(
  self: Effect.Effect<A, E, R>,
  millis: number
): Effect.Effect<Option.Option<A>, E, R> =>
  race(Effect.map(self, Option.some), millis, () => Effect.succeedNone)

export const timeoutFail = <A, E, R, E2>(
  self: Effect.Effect<A, E, R>,
  millis: number,
  onTimeout: () => E2
): Effect.Effect<A, E | E2, R> => race(self, millis, () => Effect.fail(onTimeout()))
