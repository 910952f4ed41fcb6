/**
 * The nearest known name to a misspelt one, for the "did you mean" of a command line or a file
 * of settings.
 *
 * @since 0.2.0
 */

/**
 * The edit distance of two strings: the fewest insertions, deletions and substitutions that turn
 * one into the other.
 *
 * @example
 * ```ts
 * import { Suggest } from "@data-access/core"
 *
 * Suggest.distance("exampels", "examples") // 2
 * ```
 *
 * @since 0.2.0
 * @category suggestions
 */
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

/**
 * The known names nearest to `name`, closest first (case ignored), at most `count` of them.
 *
 * @example
 * ```ts
 * import { Suggest } from "@data-access/core"
 *
 * Suggest.nearestOf("paging-dupes", ["paging-duplicates", "paging-skips", "auth-ignored"], 2)
 * // the two names of the three closest to it
 * ```
 *
 * @since 0.2.0
 * @category suggestions
 */
export const nearestOf = (
  name: string,
  known: Iterable<string>,
  count: number
): ReadonlyArray<string> =>
  [...known]
    .map((k) => ({ k, d: distance(name.toLowerCase(), k.toLowerCase()) }))
    .sort((a, b) => a.d - b.d)
    .slice(0, count)
    .map((x) => x.k)

/**
 * The known name closest to `name` when it is close enough to be a slip (at most two edits, or a
 * third of the name's length); otherwise `undefined`.
 *
 * @example
 * ```ts
 * import { Suggest } from "@data-access/core"
 *
 * Suggest.nearest("--exampels", ["--examples", "--seed"]) // "--examples"
 * Suggest.nearest("--zzz", ["--examples", "--seed"]) // undefined
 * ```
 *
 * @since 0.2.0
 * @category suggestions
 */
export const nearest = (name: string, known: Iterable<string>): string | undefined => {
  const [best] = nearestOf(name, known, 1)
  return best !== undefined &&
    distance(name.toLowerCase(), best.toLowerCase()) <= Math.max(2, Math.floor(name.length / 3))
    ? best
    : undefined
}
