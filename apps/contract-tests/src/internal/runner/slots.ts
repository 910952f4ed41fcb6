/**
 * The run's slots: at most `n` cases in flight, granted in the order they were asked for, those
 * asked for first (`first`) before the others. A finished case hands its slot straight to the
 * next in line (Effect's semaphore wakes every waiter on each release, which with hundreds of
 * suites waiting costs more than the cases).
 */
import * as Effect from "effect/Effect"

/** Runs an effect in one of the run's slots. */
export type Slot = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>

/**
 * Slots of `n`, first asked, first served: `slotOf(true)` runs its effects ahead of every effect
 * of `slotOf(false)` still waiting.
 */
export const makeSlots = (n: number): ((first: boolean) => Slot) => {
  let free = n
  const waiting: [Array<() => void>, Array<() => void>] = [[], []]
  const release = Effect.sync(() => {
    const next = waiting[0].shift() ?? waiting[1].shift()
    if (next === undefined) free++
    else next()
  })
  const acquire = (line: Array<() => void>) =>
    Effect.async<void>((resume) => {
      if (free > 0) {
        free--
        resume(Effect.void)
        return
      }
      const granted = () => resume(Effect.void)
      line.push(granted)
      // Interrupted while waiting: out of the line.
      return Effect.sync(() => {
        const i = line.indexOf(granted)
        if (i >= 0) line.splice(i, 1)
      })
    })
  const slotOf = (first: boolean): Slot => {
    const take = acquire(waiting[first ? 0 : 1])
    return (effect) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.flatMap(restore(take), () => Effect.ensuring(restore(effect), release))
      )
  }
  return slotOf
}
