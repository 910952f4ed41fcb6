/** The nearest known name to a misspelt one, for "did you mean" hints. */

/** The edit distance of two strings (insertions, deletions, substitutions). */
export const distance = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)
      )
    previous = row
  }
  return previous[b.length]!
}

/** The known name closest to `name`, when it is close enough to be a slip (at most a third off). */
export const nearest = (name: string, known: ReadonlyArray<string>): string | undefined => {
  let best: string | undefined
  let bestDistance = Infinity
  for (const k of known) {
    const d = distance(name.toLowerCase(), k.toLowerCase())
    if (d < bestDistance) {
      best = k
      bestDistance = d
    }
  }
  return bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined
}
