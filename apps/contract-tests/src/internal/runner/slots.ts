/**
 * The run's slots: at most `n` cases in flight, granted in the order they were asked for. A
 * finished case hands its slot straight to the next in line (Effect's semaphore wakes every
 * waiter on each release, which with hundreds of suites waiting costs more than the cases).
 */
import * as Effect from "effect/Effect"

/** Runs each effect given to it in a slot of `n`, first asked, first served. */
export const makeSlots = (n: number) => {
  let free = n
  const waiting: Array<() => void> = []
  const release = Effect.sync(() => {
    const next = waiting.shift()
    if (next === undefined) free++
    else next()
  })
  const acquire = Effect.async<void>((resume) => {
    if (free > 0) {
      free--
      resume(Effect.void)
      return
    }
    const granted = () => resume(Effect.void)
    waiting.push(granted)
    // Interrupted while waiting: out of the line.
    return Effect.sync(() => {
      const i = waiting.indexOf(granted)
      if (i >= 0) waiting.splice(i, 1)
    })
  })
  return <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.flatMap(restore(acquire), () => Effect.ensuring(restore(effect), release))
    )
}
