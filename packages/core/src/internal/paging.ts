import { messageOf } from "./operation.js"
import type { Walk, Step } from "../Paging.js"

export const start = (): Walk => ({ cursor: undefined, page: 1, seen: new Set() })

export const step = (walk: Walk, nextCursor: string): Step => {
  if (nextCursor === "") return { _tag: "Last" }
  if (walk.seen.has(nextCursor) || nextCursor === walk.cursor)
    return { _tag: "Repeated", page: walk.page }
  return {
    _tag: "Next",
    walk: { cursor: nextCursor, page: walk.page + 1, seen: new Set(walk.seen).add(nextCursor) }
  }
}

export const pageRequest = (
  request: unknown,
  pageSize: number,
  cursor: string | undefined
): Record<string, unknown> => ({
  ...(request as object),
  limit: pageSize,
  ...(cursor !== undefined ? { cursor } : {})
})

export const pageOf = (
  response: unknown,
  itemField: string
): { readonly items: ReadonlyArray<unknown>; readonly nextCursor: string } => {
  const r = response as Record<string, unknown> & {
    readonly listMetadata?: { readonly nextCursor?: string }
  }
  return {
    items: (r[itemField] ?? []) as ReadonlyArray<unknown>,
    nextCursor: r.listMetadata?.nextCursor ?? ""
  }
}

export const plan = (
  op: { readonly itemField?: string | undefined },
  request: unknown,
  pageSize: number
): {
  readonly request: (cursor: string | undefined) => Record<string, unknown>
  readonly page: (response: unknown) => {
    readonly items: ReadonlyArray<unknown>
    readonly nextCursor: string
  }
} => {
  const itemField = op.itemField ?? ""
  return {
    request: (cursor) => pageRequest(request, pageSize, cursor),
    page: (response) => pageOf(response, itemField)
  }
}

export const repeatedMessage = (operation: string, page: number): string =>
  messageOf(
    operation,
    `page ${page} returned a cursor that was already followed; stopping to avoid a loop`
  )
