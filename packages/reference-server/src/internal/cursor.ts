/**
 * List cursors: a position in an ordered collection, opaque to clients (base64url of JSON).
 *
 * @internal
 */
import * as Option from "effect/Option"

/** Where a page ended: the order it was read in and the last item's sort key and id. */
export interface CursorPosition {
  readonly order: "asc" | "desc"
  readonly key: string
  readonly id: string
}

/** Writes a position as an opaque cursor. */
export const encodeCursor = (p: CursorPosition): string =>
  Buffer.from(JSON.stringify(["c1", p.order, p.key, p.id])).toString("base64url")

/** Reads a cursor written by `encodeCursor`; `undefined` for anything else. */
export const decodeCursor = (cursor: string): CursorPosition | undefined => {
  // A cursor that is not JSON reads as nothing, which the next check refuses.
  const parsed = Option.getOrUndefined(
    Option.liftThrowable(JSON.parse)(Buffer.from(cursor, "base64url").toString("utf8"))
  ) as unknown
  if (!Array.isArray(parsed)) return undefined
  if (parsed.length !== 4 || parsed[0] !== "c1") return undefined
  const [, order, key, id] = parsed as Array<unknown>
  if ((order !== "asc" && order !== "desc") || typeof key !== "string" || typeof id !== "string")
    return undefined
  return { order, key, id }
}
