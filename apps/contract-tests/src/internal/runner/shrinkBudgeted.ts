/** An arbitrary whose shrinking ends with the shrink budget (`suite.ts` shrinks with it). */
import * as fc from "effect/FastCheck"

/**
 * An arbitrary whose shrink candidates stop coming once `spent()` says so. fast-check walks every
 * candidate of a value until one fails; a property that passes them all once the request budget
 * is spent would still have each candidate generated (for a request with many fields, hundreds of
 * them, each deriving its mutations): the walk ends with the budget instead.
 */
export class ShrinkBudgeted<T> extends fc.Arbitrary<T> {
  constructor(
    readonly inner: fc.Arbitrary<T>,
    readonly spent: () => boolean
  ) {
    super()
  }
  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    return this.inner.generate(mrng, biasFactor)
  }
  canShrinkWithoutContext(value: unknown): value is T {
    return this.inner.canShrinkWithoutContext(value)
  }
  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.spent()
      ? fc.Stream.nil()
      : this.inner.shrink(value, context).takeWhile(() => !this.spent())
  }
}
