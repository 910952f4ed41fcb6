/** Paging streams: cursors, the page size and a repeated cursor. */
import type { Case } from "../model.js"
import { page } from "./shared.js"

export const paging: ReadonlyArray<Case> = [
  {
    name: "a paging stream follows nextCursor until it is absent, with the page size",
    call: { method: "ListNativeUsers", request: { resourceId: "r" }, stream: true, pageSize: 2 },
    replies: [page(["a", "b"], "c1"), page(["c", "d"], "c2"), page(["e"])],
    outcome: {
      _tag: "Success",
      items: [{ id: "a" }, { id: "b" }, { id: "c" }, { id: "d" }, { id: "e" }]
    },
    sent: {
      count: 3,
      bodies: [
        { resourceId: "r", limit: 2 },
        { resourceId: "r", limit: 2, cursor: "c1" },
        { resourceId: "r", limit: 2, cursor: "c2" }
      ]
    }
  },
  {
    name: "the default page size is 100",
    call: { method: "ListLogQueries", request: {}, stream: true },
    replies: [page([])],
    outcome: { _tag: "Success", items: [] },
    sent: { count: 1, bodies: [{ limit: 100 }] }
  },
  {
    name: "a repeated cursor fails with CursorRepeatedError",
    call: { method: "ListNativeUsers", request: { resourceId: "r" }, stream: true },
    replies: [page(["a"], "c1"), page(["b"], "c2"), page(["c"], "c1")],
    outcome: {
      _tag: "Failure",
      error: { _tag: "CursorRepeatedError", page: 3, operation: "ResourceService/ListNativeUsers" },
      says: "ResourceService/ListNativeUsers: page 3 returned a cursor that was already followed"
    },
    sent: { count: 3 }
  }
]
