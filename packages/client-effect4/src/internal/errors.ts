import { secretFields } from "@data-access/schema-effect4/Primitives"
import * as SchemaIssue from "effect/SchemaIssue"

const formatPath = (path: ReadonlyArray<PropertyKey>): string => {
  let out = "$"
  for (const segment of path) {
    out += typeof segment === "number" ? `[${segment}]` : `.${String(segment)}`
  }
  return out
}

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * The first issue of a schema failure as a JSON path and a message that never shows a value: the
 * `got ...` part is cut, and a secret field (generated list) gets a fixed message.
 */
export const describeIssue = (issue: SchemaIssue.Issue): { readonly path: string; readonly message: string } => {
  const issues = formatter(issue).issues
  const first = issues[0]
  if (first === undefined) return { path: "$", message: "does not match the schema" }
  const segments = (first.path ?? []).map((s) => (typeof s === "object" && s !== null && "key" in s ? s.key : s)) as ReadonlyArray<PropertyKey>
  const path = formatPath(segments)
  if (segments.some((segment) => typeof segment === "string" && secretFields.has(segment))) {
    return { path, message: `${path}: invalid value for a secret field (value not shown)` }
  }
  const text = first.message.replace(/,?\s*(got|actual)\b[\s\S]*$/, "").trim()
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more issue(s))` : ""
  return { path, message: `${path}: ${text === "" ? "does not match the schema" : text}${more}` }
}

const connectPhaseCodes: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT"
])

/** Finds a system error code (`ECONNREFUSED`) in an error and its causes. */
export const systemErrorCode = (u: unknown, depth = 0): string | undefined => {
  if (depth > 5 || u === null || typeof u !== "object") return undefined
  const code = (u as { readonly code?: unknown }).code
  if (typeof code === "string" && /^[A-Z_]+$/.test(code)) return code
  return systemErrorCode((u as { readonly cause?: unknown }).cause, depth + 1)
}

/** Whether a system error code means the connection never opened. */
export const isConnectPhase = (code: string | undefined): boolean => code !== undefined && connectPhaseCodes.has(code)
