/**
 * The run's progress on stderr: on a terminal one line written over as the run goes (examples
 * done of planned, findings so far, the time taken and an estimate of the time left); elsewhere
 * (a CI log) that line every few seconds; the run's own lines (its seed, what discovery found)
 * above it.
 */
import type { Progress } from "../internal/runner/types.js"

/** How often the line is written when stderr is not a terminal. */
export const CI_INTERVAL_MS = 5_000

/** How often the terminal's line is written over, at most. */
const TTY_INTERVAL_MS = 200

const seconds = (millis: number) => {
  const s = Math.round(millis / 1000)
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`
}

/** The progress line: `120/400 examples · 3 findings so far · 12 s elapsed · about 28 s left`. */
export const progressText = (p: Progress, elapsedMs: number): string => {
  const left =
    p.done === 0 || p.done >= p.planned
      ? ""
      : ` · about ${seconds((elapsedMs * (p.planned - p.done)) / p.done)} left`
  return `${p.done}/${p.planned} examples · ${p.findings} findings so far · ${seconds(elapsedMs)} elapsed${left}`
}

/** A display on `stream`: `line` for the run's own lines, `update` for its progress, `end` after. */
export const display = (
  stream: { readonly isTTY?: boolean; write: (text: string) => unknown },
  now: () => number = Date.now
) => {
  const started = now()
  const tty = stream.isTTY === true
  let shown: string | undefined
  let last: Progress | undefined
  let writtenAt = -Infinity
  const write = (p: Progress, force: boolean) => {
    last = p
    const at = now()
    const finished = p.done >= p.planned
    if (!force && !finished && at - writtenAt < (tty ? TTY_INTERVAL_MS : CI_INTERVAL_MS)) return
    writtenAt = at
    const text = progressText(p, at - started)
    if (tty) {
      stream.write(`\r\u001b[K${text}`)
      shown = text
    } else if (text !== shown) {
      stream.write(`${text}\n`)
      shown = text
    }
  }
  return {
    line: (text: string) => {
      stream.write(tty && shown !== undefined ? `\r\u001b[K${text}\n` : `${text}\n`)
      if (tty && last !== undefined) write(last, true)
    },
    update: (p: Progress) => write(p, false),
    end: () => {
      if (tty && shown !== undefined) stream.write("\n")
      shown = undefined
    }
  }
}
