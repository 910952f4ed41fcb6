import * as Paging from "@data-access/core/Paging"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { CursorRepeatedError } from "../ClientError.js"

/** Follows `nextCursor` from page to page (`@data-access/core/Paging`'s walk), failing if a cursor repeats. */
export const pages = <A, E>(
  operation: string,
  fetchPage: (cursor: string | undefined) => Effect.Effect<{ readonly items: ReadonlyArray<A>; readonly nextCursor: string }, E>
): Stream.Stream<A, E | CursorRepeatedError> =>
  Stream.paginateChunkEffect(Paging.start(), (walk) =>
    Effect.flatMap(fetchPage(walk.cursor), (page) => {
      const step = Paging.step(walk, page.nextCursor)
      if (step._tag === "Repeated") return Effect.fail(new CursorRepeatedError({ operation, page: step.page }))
      return Effect.succeed([Chunk.fromIterable(page.items), step._tag === "Next" ? Option.some(step.walk) : Option.none()] as const)
    }))
