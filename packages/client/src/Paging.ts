/**
 * Paging: a `Stream` of every item of a List operation, following `listMetadata.nextCursor`
 * until it is empty or absent, and failing with `CursorRepeatedError` if a cursor comes back.
 * Each List operation has its stream on the clients (`listNativeUsersStream`); `pages` is the
 * building block for custom page fetchers.
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import type * as Stream from "effect/Stream"
import type { CursorRepeatedError } from "./ClientError.js"
import * as internal from "./internal/client.js"

/**
 * Follows cursors from page to page: `fetchPage(undefined)` first, then `fetchPage(nextCursor)`
 * until `nextCursor` is `""`. Fails with `CursorRepeatedError` if a cursor repeats.
 *
 * @example
 * ```ts
 * import { Paging, Services } from "@data-access/client"
 * import { Effect, Stream } from "effect"
 *
 * // every native user of a resource, 200 a page, from the plain List call (what
 * // `listNativeUsersStream` does; `pages` fits any cursor-paged source)
 * const nativeUsers = (resourceId: string) =>
 *   Stream.unwrap(Effect.gen(function*() {
 *     const resources = yield* Services.ResourceService
 *     return Paging.pages("ResourceService/ListNativeUsers", (cursor) =>
 *       resources.listNativeUsers({ resourceId, limit: 200, ...(cursor === undefined ? {} : { cursor }) }).pipe(
 *         Effect.map((page) => ({ items: page.nativeUsers, nextCursor: page.listMetadata.nextCursor }))
 *       ))
 *   }))
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const pages: <A, E>(
  operation: string,
  fetchPage: (
    cursor: string | undefined
  ) => Effect.Effect<{ readonly items: ReadonlyArray<A>; readonly nextCursor: string }, E>
) => Stream.Stream<A, E | CursorRepeatedError> = internal.pages

export {
  /**
   * The default page size of paging streams (100).
   *
   * @since 0.1.0
   * @category constants
   */
  DEFAULT_PAGE_SIZE
} from "@data-access/schema/Requests"
