import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Stream from "effect/Stream"

/** Effect 4's `Stream.paginate`: the items of each page from `initial` on, until a page has no next state. */
export const paginate: <S, A, E>(
  initial: S,
  page: (state: S) => Effect.Effect<readonly [ReadonlyArray<A>, Option.Option<S>], E>
) => Stream.Stream<A, E> = Stream.paginate
