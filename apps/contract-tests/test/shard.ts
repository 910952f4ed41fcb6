import { describe, it } from "@effect/vitest"

// A long list of cases spread over several test files, so that vitest's workers share it (one file
// runs on one worker): each file defines its share with `make(n, of)`. The cases are dealt out in
// turn, in the order they are written; together the shares define each case once, in its suite.

type Body = Parameters<typeof it.scoped>[1]

/**
 * `suite` and `test` (for `describe` and `it.scoped`) that define every `of`-th case from the
 * `n`-th (1-based), each in its suite; a suite without a case of this share is not defined.
 */
export const make = (n: number, of: number) => {
  let next = 0
  let collecting: Array<readonly [string, Body]> = []
  const suite = (name: string, define: () => void) => {
    collecting = []
    define()
    const kept = collecting.filter(() => next++ % of === n - 1)
    if (kept.length > 0)
      describe(name, () => kept.forEach(([title, body]) => it.scoped(title, body)))
  }
  const test = (title: string, body: Body) => void collecting.push([title, body])
  return { suite, test }
}
