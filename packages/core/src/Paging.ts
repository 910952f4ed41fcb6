/**
 * The paging walk: follow `listMetadata.nextCursor` from page to page until it is empty or absent,
 * and stop with the page number when a cursor comes back (the service would loop forever). Each
 * Effect line drives the walk with its own `Stream`.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/paging.js"

/**
 * Where a walk is: the cursor to ask for next (none for the first page), the page number (1-based)
 * and the cursors already followed.
 *
 * @since 0.1.0
 * @category models
 */
export interface Walk {
  readonly cursor: string | undefined
  readonly page: number
  readonly seen: ReadonlySet<string>
}

/**
 * The start of a walk: the first page, no cursor.
 *
 * @since 0.1.0
 * @category walking
 */
export const start: () => Walk = internal.start

/**
 * The step after a page: `Last` when its `nextCursor` is empty, `Next` with the walk at the next
 * page, or `Repeated` with the page whose cursor was already followed.
 *
 * @since 0.1.0
 * @category models
 */
export type Step =
  | { readonly _tag: "Last" }
  | { readonly _tag: "Next"; readonly walk: Walk }
  | { readonly _tag: "Repeated"; readonly page: number }

/**
 * The step after the page the walk is at, given the page's `nextCursor`.
 *
 * @since 0.1.0
 * @category walking
 */
export const step: (walk: Walk, nextCursor: string) => Step = internal.step

/**
 * The request of one page: the stream's request with `limit` and, after the first page, `cursor`.
 *
 * @since 0.1.0
 * @category walking
 */
export const pageRequest: (
  request: unknown,
  pageSize: number,
  cursor: string | undefined
) => Record<string, unknown> = internal.pageRequest

/**
 * A page of a List response: the items of its one list field and its `nextCursor` (`""` when
 * absent: the last page).
 *
 * @since 0.1.0
 * @category walking
 */
export const pageOf: (
  response: unknown,
  itemField: string
) => {
  readonly items: ReadonlyArray<unknown>
  readonly nextCursor: string
} = internal.pageOf

/**
 * The pages of one paging stream of a List operation: the request of the page after a cursor (the
 * stream's request with `limit` and `cursor`) and the page read from its response.
 *
 * @since 0.1.0
 * @category walking
 */
export const plan: (
  op: {
    readonly itemField?: string | undefined
  },
  request: unknown,
  pageSize: number
) => {
  readonly request: (cursor: string | undefined) => Record<string, unknown>
  readonly page: (response: unknown) => {
    readonly items: ReadonlyArray<unknown>
    readonly nextCursor: string
  }
} = internal.plan

/**
 * The message of a repeated cursor.
 *
 * @since 0.1.0
 * @category messages
 */
export const repeatedMessage: (operation: string, page: number) => string = internal.repeatedMessage

/**
 * The request of a paging stream: a List request without `limit` and `cursor`, which the stream
 * sets.
 *
 * @since 0.1.0
 * @category types
 */
export type PageRequest<Request> = Omit<Request, "limit" | "cursor">

/**
 * The item type of a List response: the element type of its one array field (`listMetadata`
 * aside).
 *
 * @since 0.1.0
 * @category types
 */
export type ItemOf<Response> = {
  [K in keyof Response]: K extends "listMetadata"
    ? never
    : Response[K] extends ReadonlyArray<infer I>
      ? I
      : never
}[keyof Response]
