/**
 * Connect deadlines (`Connect-Timeout-Ms`) as an Effect combinator that both sides of a call use:
 * the client bounds each attempt, the server bounds each handler.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"

/** The largest delay a JS timer keeps (longer ones fire at once). */
const MAX_TIMER_MILLIS = 2 ** 31 - 1

const liveClockSleep = Clock.make().sleep

/**
 * `Effect.timeoutOption`, made cheap for a hot path. On Effect's own real-time clock the work
 * runs in one fiber started from the caller's runtime (its context, span and fiber refs) and a
 * plain timer races it: whichever ends first resumes the caller. On time-out the work is
 * interrupted and awaited, then `None`; interrupting the caller interrupts the work. With any
 * other clock (a `TestClock`, a user's clock) it is `Effect.timeoutOption` itself.
 * (`timeoutOption`'s race of two forked fibers costs about 100 µs, as much as a whole HTTP
 * exchange on loopback; this costs a few.)
 *
 * @since 0.1.0
 * @category combinators
 */
export const timeoutOption = <A, E, R>(self: Effect.Effect<A, E, R>, millis: number): Effect.Effect<Option.Option<A>, E, R> =>
  Effect.clockWith((clock) => {
    if (clock.sleep !== liveClockSleep || millis > MAX_TIMER_MILLIS) return Effect.timeoutOption(self, Duration.millis(millis))
    // The runtime is read outside the mask, so that the work runs interruptible; starting it and
    // registering for its exit happen with no interruption in between (no orphaned work).
    return Effect.flatMap(Effect.runtime<R>(), (runtime) =>
      Effect.uninterruptibleMask((restore) => {
        const child = Runtime.runFork(runtime)(self)
        return Effect.flatMap(
          restore(
            Effect.async<Exit.Exit<A, E> | undefined>((resume) => {
              const observer = (exit: Exit.Exit<A, E>) => {
                clearTimeout(timer)
                resume(Effect.succeed(exit))
              }
              const timer = setTimeout(() => {
                child.removeObserver(observer)
                resume(Effect.succeed(undefined))
              }, millis)
              child.addObserver(observer)
              return Effect.suspend(() => {
                clearTimeout(timer)
                child.removeObserver(observer)
                return Fiber.interrupt(child)
              })
            })
          ),
          (exit): Effect.Effect<Option.Option<A>, E> =>
            exit === undefined ? Effect.as(Fiber.interrupt(child), Option.none()) : Effect.map(exit, Option.some)
        )
      })
    )
  })
