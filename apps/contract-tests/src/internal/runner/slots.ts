/**
 * The run's slots: at most `n` cases in flight, granted in the order they were asked for, those
 * asked for first (`first`) before the others. A finished case hands its slot straight to the
 * next in line. Plain promises: a case's slot costs no fiber.
 */

/** Runs a case in one of the run's slots. */
export type Slot = <A>(run: () => Promise<A>) => Promise<A>

/** A queue of waiters, taken from the front without moving the array (`shift` is linear). */
class Line {
  private readonly items: Array<() => void> = []
  private head = 0
  push(f: () => void) {
    this.items.push(f)
  }
  take(): (() => void) | undefined {
    if (this.head === this.items.length) return undefined
    const f = this.items[this.head]!
    this.items[this.head++] = undefined as never
    if (this.head === this.items.length) {
      this.items.length = 0
      this.head = 0
    }
    return f
  }
}

/**
 * Slots of `n`, first asked, first served: `slotOf(true)` runs its cases ahead of every case of
 * `slotOf(false)` still waiting.
 */
export const makeSlots = (n: number): ((first: boolean) => Slot) => {
  let free = n
  const lines: readonly [Line, Line] = [new Line(), new Line()]
  const release = () => {
    const next = lines[0].take() ?? lines[1].take()
    if (next === undefined) free++
    else next()
  }
  const slotOf = (first: boolean): Slot => {
    const line = lines[first ? 0 : 1]
    return async (run) => {
      if (free > 0) free--
      else await new Promise<void>((granted) => line.push(granted))
      try {
        return await run()
      } finally {
        release()
      }
    }
  }
  return slotOf
}
