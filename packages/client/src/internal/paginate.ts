import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Stream from "effect/Stream"

/**
 * The items of each page from `initial` on, until a page has no next state: Effect 3's
 * `Stream.paginateChunkEffect`.
 */
export const paginate = <S, A, E>(
  initial: S,
  page: (state: S) => Effect.Effect<readonly [ReadonlyArray<A>, Option.Option<S>], E>
): Stream.Stream<A, E> =>
  Stream.paginateChunkEffect(initial, (state) =>
    Effect.map(page(state), ([items, next]) => [Chunk.fromIterable(items), next] as const)
  )
