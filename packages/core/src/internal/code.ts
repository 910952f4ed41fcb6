import type { Code } from "../Code.js"

export const statusByCode = {
  canceled: 499,
  unknown: 500,
  invalid_argument: 400,
  deadline_exceeded: 504,
  not_found: 404,
  already_exists: 409,
  permission_denied: 403,
  resource_exhausted: 429,
  failed_precondition: 400,
  aborted: 409,
  out_of_range: 400,
  unimplemented: 501,
  internal: 500,
  unavailable: 503,
  data_loss: 500,
  unauthenticated: 401
} as const

export const codes = Object.keys(statusByCode) as ReadonlyArray<Code>

const codeSet: ReadonlySet<string> = new Set(codes)

export const isCode = (u: unknown): u is Code => typeof u === "string" && codeSet.has(u)

export const statusOf = (code: Code): number => statusByCode[code]

export const statusAgrees = (code: Code, status: number): boolean =>
  statusByCode[code] === status || (code === "unimplemented" && status === 404)

export const codeFromStatus = (status: number): Code => {
  switch (status) {
    case 401:
      return "unauthenticated"
    case 403:
      return "permission_denied"
    case 404:
      return "unimplemented"
    case 429:
    case 502:
    case 503:
    case 504:
      return "unavailable"
    default:
      return "unknown"
  }
}

export const transientCodes: ReadonlySet<Code> = new Set<Code>([
  "unavailable",
  "resource_exhausted",
  "deadline_exceeded",
  "aborted",
  "internal",
  "unknown"
])
