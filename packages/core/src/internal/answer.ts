import * as CodeTable from "./code.js"
import * as RateLimit from "./rateLimit.js"
import { messageOf } from "./operation.js"
import * as Retry from "./retry.js"
import type {
  Header,
  Json,
  ErrorDetail,
  ErrorBody,
  RateLimitInfo,
  Failure,
  Decoded
} from "../Answer.js"

export const REQUEST_ID_HEADER = "x-request-id"

export const parseJson = (text: string): Json => {
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch {
    return { ok: false, message: "the body is not valid JSON" }
  }
}

const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

const hasOwn = Object.prototype.hasOwnProperty

const readDetail = (u: unknown): ErrorDetail | undefined => {
  if (!isRecord(u) || typeof u.type !== "string" || typeof u.value !== "string") return undefined
  return hasOwn.call(u, "debug")
    ? { type: u.type, value: u.value, debug: u.debug }
    : { type: u.type, value: u.value }
}

export const readErrorBody = (json: unknown): ErrorBody | undefined => {
  if (!isRecord(json) || !CodeTable.isCode(json.code)) return undefined
  const message = json.message
  if (message !== undefined && typeof message !== "string") return undefined
  const rawDetails = json.details
  let details: Array<ErrorDetail> | undefined
  if (rawDetails !== undefined) {
    if (!Array.isArray(rawDetails)) return undefined
    details = []
    for (const raw of rawDetails) {
      const detail = readDetail(raw)
      if (detail === undefined) return undefined
      details.push(detail)
    }
  }
  return {
    code: json.code,
    ...(message !== undefined ? { message } : {}),
    ...(details !== undefined ? { details } : {})
  }
}

const numberHeader = (header: Header, name: string): number | undefined => {
  const value = header(name)
  if (value === undefined || value.trim() === "") return undefined
  const n = Number(value)
  return Number.isFinite(n) ? n : undefined
}

export const readRateLimit = (header: Header, nowMillis: number): RateLimitInfo | undefined => {
  const limit = numberHeader(header, RateLimit.LIMIT_HEADER)
  const remaining = numberHeader(header, RateLimit.REMAINING_HEADER)
  const reset = numberHeader(header, RateLimit.RESET_HEADER)
  const retryAfterMillis = Retry.retryAfterMillis(header, nowMillis)
  if (
    limit === undefined &&
    remaining === undefined &&
    reset === undefined &&
    retryAfterMillis === undefined
  )
    return undefined
  return {
    ...(limit !== undefined ? { limit } : {}),
    ...(remaining !== undefined ? { remaining } : {}),
    ...(reset !== undefined ? { reset } : {}),
    ...(retryAfterMillis !== undefined ? { retryAfterMillis } : {})
  }
}

export const readUnknownCode = (
  json: unknown,
  status: number
): { readonly body: ErrorBody; readonly rawCode: string } | undefined => {
  if (!isRecord(json) || typeof json.code !== "string" || CodeTable.isCode(json.code))
    return undefined
  const body = readErrorBody({ ...json, code: CodeTable.codeFromStatus(status) })
  return body === undefined ? undefined : { body, rawCode: json.code }
}

export const readFailure = (
  operation: string,
  status: number,
  header: Header,
  text: string,
  nowMillis: number
): Failure => {
  const requestId = header(REQUEST_ID_HEADER)
  const rateLimit = readRateLimit(header, nowMillis)
  const extra = {
    httpStatus: status,
    operation,
    ...(requestId !== undefined ? { requestId } : {}),
    ...(rateLimit !== undefined ? { rateLimit } : {})
  }
  const json = parseJson(text)
  const body = json.ok ? readErrorBody(json.value) : undefined
  const unknown = json.ok && body === undefined ? readUnknownCode(json.value, status) : undefined
  const read = body ?? unknown?.body
  if (read !== undefined) {
    const rawMessage = read.message ?? ""
    const text =
      unknown === undefined
        ? rawMessage
        : `${rawMessage}${rawMessage === "" ? "" : " "}(the code ${JSON.stringify(unknown.rawCode)} is not a Connect code; ${read.code} from HTTP ${status})`
    return {
      code: read.code,
      message: messageOf(operation, `[${read.code}]${text === "" ? "" : ` ${text}`}`),
      details: read.details ?? [],
      ...extra,
      rawMessage,
      ...(unknown !== undefined ? { rawCode: unknown.rawCode } : {}),
      statusFallback: unknown !== undefined
    }
  }
  const code = CodeTable.codeFromStatus(status)
  return {
    code,
    message: messageOf(operation, `[${code}] HTTP ${status} without a Connect error body`),
    details: [],
    ...extra,
    statusFallback: true
  }
}

export const isSuccess = (status: number): boolean => status === 200

export const decodeFailure = (
  operation: string,
  path: string,
  message: string,
  header: Header
): {
  readonly operation: string
  readonly path: string
  readonly message: string
  readonly httpStatus: number
  readonly requestId?: string
} => {
  const requestId = header(REQUEST_ID_HEADER)
  return {
    operation,
    path,
    message: messageOf(operation, message),
    httpStatus: 200,
    ...(requestId !== undefined ? { requestId } : {})
  }
}

export const readBody = (
  operation: string,
  text: string,
  header: Header,
  decode: (json: unknown) => Decoded
):
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly failure: ReturnType<typeof decodeFailure> } => {
  const json = parseJson(text)
  if (!json.ok)
    return { ok: false, failure: decodeFailure(operation, "$", `$: ${json.message}`, header) }
  const decoded = decode(json.value)
  return decoded.ok
    ? decoded
    : { ok: false, failure: decodeFailure(operation, decoded.path, decoded.message, header) }
}
