/** The replies and calls the cases share. */
import { resource } from "../fake.js"
import type { Case, Reply } from "../model.js"

export const ok: Reply = { status: 200, body: resource }
export const getResource = { method: "GetResource", request: { id: "resource_1" } } as const
export const createConnector = { method: "CreateConnector", request: { name: "edge-1" } } as const
export const created: Reply = {
  status: 200,
  body: { connector: { id: "connector_1", name: "edge-1" } }
}
export const page = (ids: ReadonlyArray<string>, nextCursor?: string): Reply => ({
  status: 200,
  body: {
    nativeUsers: ids.map((id) => ({ id })),
    listMetadata: { count: ids.length, ...(nextCursor ? { nextCursor } : {}) }
  }
})
export const noRetryFailure = (status: number, code: string): Case => ({
  name: `a bare ${status} without a Connect body falls back to ${code}`,
  call: { ...getResource, retry: "none" },
  replies: [{ status, text: "Bad Gateway" }],
  outcome: {
    _tag: "Failure",
    error: { _tag: "ConnectError", code, httpStatus: status },
    statusFallback: true,
    says: `ResourceService/GetResource: [${code}] HTTP ${status} without a Connect error body`
  },
  sent: { count: 1 }
})
