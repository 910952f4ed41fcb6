/**
 * The rules one exchange can decide, for the conformance proxy: what the request breaks (the
 * client's side) and what the answer breaks (the server's side). Both reuse the runner's
 * response inspection and the operation table; nothing here lists the operations.
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import { ContentType, ContractRules, JsonBody, Operations } from "@data-access/schema"
import * as Compression from "@data-access/schema/Compression"
import type { Exchange } from "../http.js"
import { asRecord } from "../json.js"
import * as Oracles from "../oracles/index.js"
import { decodeBreach, decodedBodies } from "./decodeBreach.js"
import * as TextLength from "../textLength.js"
import type { Breach } from "../exchangeOracle.js"
import { isNote, type Outcome } from "../outcome.js"

type Op = Operations.Operation

/** A request as the proxy saw it (header names lower case, the key left out). */
export interface SeenRequest {
  readonly method: string
  /** The path, without the query. */
  readonly path: string
  readonly query: string
  readonly headers: Readonly<Record<string, string>>
  /** Whether an `X-API-KEY` header with a value came. */
  readonly keyPresent: boolean
  /** The body's bytes, when the whole body was kept (it fitted the checking limit). */
  readonly body: Uint8Array | undefined
  /** The body's length in bytes. */
  readonly bodyBytes: number
}

export type { Breach } from "../exchangeOracle.js"

/** The body as a JSON object with lowerCamelCase keys, or why not (a request rule). */
export type ParsedBody =
  | {
      readonly _tag: "Object"
      readonly value: Record<string, unknown>
      readonly asSent: Record<string, unknown>
    }
  | { readonly _tag: "Invalid"; readonly breach: Breach }
  | { readonly _tag: "Unknown" }

/** Whether headers (a request's or an answer's) say the body is in the binary codec, which a server may serve or answer 415 (decisions.md section 10). */
export const isBinaryContentType = (headers: Readonly<Record<string, string>>): boolean =>
  ContentType.isProto(headers["content-type"])

/** Whether a request is in the binary codec, whose body the proxy does not read. */
export const isBinaryCodec = (r: SeenRequest): boolean =>
  r.method === "POST" && isBinaryContentType(r.headers)

export const parseBody = (r: SeenRequest): ParsedBody => {
  if (r.body === undefined || isBinaryCodec(r)) return { _tag: "Unknown" }
  const parsed = JsonBody.parse(r.body)
  switch (parsed._tag) {
    case "Object":
      return { _tag: "Object", value: parsed.value, asSent: parsed.raw }
    case "Empty":
      return {
        _tag: "Invalid",
        breach: {
          rule: "wire.empty-body",
          cause: "empty body",
          message: "the request body is empty (send {} for no fields)"
        }
      }
    case "NotUtf8":
    case "NotJson":
    case "TooLarge": // not met: no limit is given (a body is kept whole only within the checking limit)
      return {
        _tag: "Invalid",
        breach: {
          rule: "wire.json-object-body",
          cause: "body not JSON",
          message: "the request body is not UTF-8 JSON"
        }
      }
    case "NotObject":
    case "TooDeep": {
      const what =
        parsed._tag === "TooDeep"
          ? `nested deeper than ${parsed.maxDepth} levels`
          : parsed.found === "array"
            ? "an array"
            : `a JSON ${parsed.found}`
      return {
        _tag: "Invalid",
        breach: {
          rule: "wire.json-object-body",
          cause: "body not a JSON object",
          message: `the request body is ${what}, not a JSON object`
        }
      }
    }
  }
}

/** Whether a `Content-Encoding` says the body is compressed (anything but absent or `identity`, in any case). */
const compressed = (r: SeenRequest): boolean =>
  Compression.parseContentEncoding(r.headers["content-encoding"])._tag !== "Identity"

/** Whether a request is a Connect GET (`?encoding=json&message=...`), which a server may serve. */
const isConnectGet = (r: SeenRequest): boolean =>
  r.method === "GET" && /(^|&)encoding=json(&|$)/.test(r.query) && /(^|&)message=/.test(r.query)

/**
 * Forms only a lenient server accepts (`--strict-client`): a body over 1 MiB, a compressed body,
 * a Connect GET, the binary codec, strings over 255 characters or with control characters, an empty filter,
 * `spaceId: ""` on an update.
 */
const lenientForms = (
  op: Op | undefined,
  r: SeenRequest,
  body: Record<string, unknown> | undefined
): ReadonlyArray<Breach> => {
  const out: Array<Breach> = []
  if (r.bodyBytes > JsonBody.GUARANTEED_MAX_BYTES) {
    out.push({
      rule: "protocol.body-limit",
      latitude: "body-limit-1mib",
      cause: "body over 1 MiB",
      message: `a ${r.bodyBytes}-byte body: a server may refuse anything over 1 MiB`
    })
  }
  const encoding = r.headers["content-encoding"]
  if (encoding !== undefined && compressed(r)) {
    out.push({
      rule: "protocol.content-type",
      latitude: "connect-get",
      cause: "compressed body",
      message: `Content-Encoding ${JSON.stringify(encoding.slice(0, 40))}: a server may leave compression unimplemented`
    })
  }
  if (isConnectGet(r))
    out.push({
      rule: "protocol.method",
      latitude: "connect-get",
      cause: "Connect GET",
      message: "a Connect GET: a server may answer 405"
    })
  if (isBinaryCodec(r))
    out.push({
      rule: "protocol.content-type",
      latitude: "connect-get",
      cause: "binary codec",
      message: `Content-Type ${ContentType.PROTO_MEDIA_TYPE}: a server may answer 415`
    })
  if (body !== undefined) {
    let long: string | undefined
    let control: string | undefined
    let emptyFilter = false
    const go = (v: unknown, path: string, depth: number): void => {
      if (depth > 16) return
      if (typeof v === "string") {
        // Over 255 under some count a server may use, so it may be refused. No UTF-16 unit counts
        // for more than 9 (UTF-8 bytes of NFD), so only a string of 29 to 255 units is counted.
        if (
          v.length > TextLength.SAFE_STRING_LENGTH ||
          (v.length * 9 > TextLength.SAFE_STRING_LENGTH &&
            TextLength.longest(v) > TextLength.SAFE_STRING_LENGTH)
        )
          long ??= path
        // eslint-disable-next-line no-control-regex
        if (/[\u0000-\u001f\u007f]/.test(v)) control ??= path
      } else if (Array.isArray(v)) v.forEach((x) => go(x, `${path}[]`, depth + 1))
      else if (v !== null && typeof v === "object") {
        if (path.endsWith("filter") && Object.keys(v).length === 0) emptyFilter = true
        for (const [k, x] of Object.entries(v)) go(x, path === "" ? k : `${path}.${k}`, depth + 1)
      }
    }
    go(body, "", 0)
    if (long !== undefined)
      out.push({
        rule: "fields.valid-accepted",
        latitude: "string-limits",
        cause: `${long}: over ${TextLength.SAFE_STRING_LENGTH} characters`,
        message: `request ${long}: a string over ${TextLength.SAFE_STRING_LENGTH} characters: a server may refuse it`
      })
    if (control !== undefined)
      out.push({
        rule: "fields.valid-accepted",
        latitude: "string-limits",
        cause: `${control}: control characters`,
        message: `request ${control}: control characters: a server may refuse them`
      })
    if (emptyFilter)
      out.push({
        rule: "fields.valid-accepted",
        latitude: "reject-empty-filter",
        cause: "empty filter",
        message: "an empty filter: a server may refuse it"
      })
    if (op?.kind === "update" && body.spaceId === "") {
      out.push({
        rule: "fields.valid-accepted",
        latitude: "space-empty-ignored",
        cause: "spaceId: empty",
        message: 'spaceId "" on an update: a server may read it as not set'
      })
    }
  }
  return out
}

/** What a request breaks: must-level breaches, then the forms only a lenient server accepts (`latitude` set). */
export const clientBreaches = (
  op: Op | undefined,
  r: SeenRequest,
  body: ParsedBody
): ReadonlyArray<Breach> => {
  const out: Array<Breach> = []
  if (op === undefined) {
    out.push({
      rule: "protocol.unknown-route",
      cause: "unknown route",
      message: "no operation of the interface has this path"
    })
    return out
  }
  if (r.method !== "POST" && !isConnectGet(r)) {
    out.push({
      rule: "protocol.method",
      cause: `method ${r.method.slice(0, 16)}`,
      message: `${r.method.slice(0, 16)} instead of POST`
    })
  } else if (r.method === "POST") {
    const ct = ContentType.parse(r.headers["content-type"])
    if (ct.codec === "other") {
      out.push({
        rule: "protocol.content-type",
        cause: "content type",
        message: `Content-Type ${JSON.stringify(ct.mediaType.slice(0, 60))} instead of ${ContentType.JSON_MEDIA_TYPE}`
      })
    }
  }
  if (!r.keyPresent)
    out.push({
      rule: "auth.key-required",
      cause: "no X-API-KEY",
      message: "no X-API-KEY header (or an empty one)"
    })
  for (const [name, value] of Object.entries(op.requiredHeaders)) {
    if (r.headers[name] !== value) {
      out.push({
        rule: "protocol.version-header",
        cause: `header ${name}`,
        message: `${op.method} needs the header ${name}: ${value}`
      })
    }
  }
  if (r.method === "POST") {
    // `body` is what the proxy read: decompressed, or Unknown when it could not be.
    if (body._tag === "Invalid") out.push(body.breach)
    else if (body._tag === "Object") {
      const breach = decodeBreach(op, body.value)
      if (breach !== undefined) out.push(breach)
    }
  }
  out.push(...lenientForms(op, r, body._tag === "Object" ? body.value : undefined))
  return out
}

/** The rules the server-side checks of one exchange judge: every oracle of the registry. */
export const serverRules: ReadonlyArray<ContractRules.RuleId> = Oracles.registryRules

/**
 * The request in its canonical encoding (the request schema's own: int64 as strings, timestamps in
 * `Z`), as the oracles compare it with the answer; `undefined` when it does not decode.
 */
const canonical = (op: Op, body: Record<string, unknown>): Record<string, unknown> | undefined => {
  const decoded = decodedBodies.has(body)
    ? Either.right(decodedBodies.get(body))
    : ParseResult.decodeUnknownEither(op.request)(body)
  if (Either.isLeft(decoded)) return undefined
  return asRecord(Either.getOrUndefined(ParseResult.encodeEither(op.request)(decoded.right)))
}

/**
 * Whether the request uses a form a server may leave unimplemented (decisions.md section 10:
 * compression, Connect GET), so that 501 unimplemented is a faithful answer.
 */
const optionalForm = (r: SeenRequest): boolean => {
  return compressed(r) || isConnectGet(r)
}

/**
 * The server's side of an exchange: every oracle of the registry on it. `breaches` are the
 * request's, with its lenient forms (whatever `--strict-client` says: the oracles need them).
 */
export const serverOutcomes = (
  op: Op | undefined,
  r: SeenRequest,
  e: Exchange,
  body: ParsedBody,
  breaches: ReadonlyArray<Breach>,
  skewMillis: number,
  complete: boolean,
  apiKey?: string
): ReadonlyArray<Outcome> => {
  const object = body._tag === "Object" ? body.value : undefined
  const sent =
    op !== undefined && object !== undefined && breaches.every((b) => b.latitude !== undefined)
      ? canonical(op, object)
      : undefined
  const view: Oracles.View = {
    op,
    exchange: e,
    body: body._tag === "Object" ? body.asSent : undefined,
    sent,
    breaches,
    headers: r.headers,
    keyPresent: r.keyPresent,
    apiKey,
    optionalForm: optionalForm(r),
    complete,
    skewMillis
  }
  return Oracles.judgeAll(view).filter((v): v is Outcome => !isNote(v))
}

export { operationOf } from "../answerReading.js"
