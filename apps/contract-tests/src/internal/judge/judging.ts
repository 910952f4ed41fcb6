/**
 * What one relayed exchange breaks: its bodies read as the checks read them (decompressed, within
 * the checking limit), the request judged by the request rules (the client's findings) and the
 * answer by the rules one exchange decides (the server's). The rules themselves live in
 * `exchangeRules.ts`; this module only turns an exchange into their inputs and their verdicts into
 * outcomes of a side.
 */
import * as Option from "effect/Option"
import { ContractRules, Secrets } from "@data-access/schema"
import type { Side, UnreadReason } from "./types.js"
import * as Rules from "./exchangeRules.js"
import type { Exchange, RawRequest } from "../http.js"
import type { KeyMode } from "../keys.js"
import { readable } from "../decodedBodies.js"
import { readBody } from "../answerBody.js"
import type { Outcome } from "../outcome.js"

/** One finished exchange as the relay saw it, waiting to be judged. */
export interface Job {
  readonly request: Rules.SeenRequest
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** The answer's body, when it was kept whole. */
  readonly body: Uint8Array | undefined
  readonly transportError: string | undefined
  readonly started: number
  readonly receivedAt: number
  /**
   * The exchange's start and end on the relay's monotonic clock, finer than the milliseconds of
   * `started` and `receivedAt` (a HAR entry has only those): what the object model orders live
   * exchanges by, so that a request sent right after an answer is not taken for one beside it.
   */
  readonly span?: { readonly start: number; readonly end: number } | undefined
  /** The `X-API-KEY` the request carried. */
  readonly key: string | undefined
  /** The request's body is already decoded (a recorder wrote it so): its `Content-Encoding` is not applied. */
  readonly requestDecoded?: boolean | undefined
  /** The same for the answer's body. */
  readonly answerDecoded?: boolean | undefined
}

/** How exchanges are judged. */
export interface Settings {
  /** Bytes of each body kept for the checks. */
  readonly limit: number
  /** Whether forms only a lenient server accepts are the client's findings. */
  readonly strict: boolean
  readonly skewMillis: number
}

/** One outcome of an exchange, with the side it blames and the operation it is counted under. */
export interface SideOutcome {
  readonly side: Side
  readonly operation: string
  readonly outcome: Outcome
}

/** What judging one exchange gives. */
export interface Judgement {
  /** The exchange as the findings show it. */
  readonly exchange: Exchange
  readonly verdicts: ReadonlyArray<SideOutcome>
  /** Whether a body was relayed unread (binary codec, an encoding that could not be decompressed). */
  readonly unread: boolean
  /**
   * Why a body was not judged: the binary codec (a request's body, or both), an encoding that could
   * not be decompressed, or a body longer than the checking limit or not received whole
   * (`not-kept`). Only the binary exchanges and the encodings are counted in `unread`.
   */
  readonly unreadReason: UnreadReason | undefined
  /** The secret values of the request body. */
  readonly secrets: ReadonlyArray<string>
}

const decoder = new TextDecoder("utf-8")

/** Headers left out of reproductions: secrets, and what curl sets itself. */
const NOT_SHOWN = new Set([
  ...Secrets.headerNames,
  "content-encoding",
  "host",
  "content-length",
  "content-type",
  "connect-protocol-version",
  "user-agent",
  "accept",
  "accept-encoding",
  "connection",
  "transfer-encoding",
  "keep-alive",
  "traceparent",
  "tracestate",
  "b3"
])

/** The bodies of an exchange as the checks read them; a request body that cannot be is Unknown. */
const readBodies = (job: Job, limit: number) => {
  const sent = job.request
  const sentBody =
    job.requestDecoded === true
      ? sent.body
      : readable(sent.body, sent.headers["content-encoding"], limit)
  const request: Rules.SeenRequest =
    sentBody === sent.body
      ? sent
      : { ...sent, body: sentBody, bodyBytes: sentBody?.length ?? sent.bodyBytes }
  const answerBody =
    job.answerDecoded === true
      ? job.body
      : readable(job.body, job.headers["content-encoding"], limit)
  // A binary answer to a binary request: a faithful choice whose body is not read.
  const binary = Rules.isBinaryCodec(request) && Rules.isBinaryContentType(job.headers)
  const requestUnread = sent.body !== undefined && sent.body.length > 0 && sentBody === undefined
  const answerUnread = job.body !== undefined && answerBody === undefined
  const unreadReason: UnreadReason | undefined =
    binary || (Rules.isBinaryCodec(request) && sent.body !== undefined && sent.body.length > 0)
      ? "binary-codec"
      : requestUnread || answerUnread
        ? "encoding"
        : (job.body === undefined || sent.body === undefined) && job.transportError === undefined
          ? "not-kept"
          : undefined
  return {
    request,
    answerBody,
    binary,
    unread: requestUnread || answerUnread || binary,
    unreadReason
  }
}

/** The request as a finding shows it: the key by mode, secret and curl-set headers left out. */
const rawRequestOf = (r: Rules.SeenRequest): RawRequest => {
  const bodyText =
    r.body === undefined || Rules.isBinaryCodec(r) ? undefined : decoder.decode(r.body)
  const key: KeyMode = r.keyPresent
    ? "valid"
    : r.headers["x-api-key"] === undefined
      ? "missing"
      : "empty"
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(r.headers)) if (!NOT_SHOWN.has(k)) headers[k] = v
  return {
    method: r.method,
    path: r.path + (r.query === "" ? "" : `?${r.query}`),
    key,
    contentType: r.headers["content-type"],
    headers,
    protocolVersion: r.headers["connect-protocol-version"],
    body: bodyText ?? (r.bodyBytes > 0 ? `[${r.bodyBytes} bytes, not read]` : undefined)
  }
}

/** The exchange the rules judge: the request as shown, the answer as read (an unread body is empty text). */
const exchangeOf = (
  job: Job,
  r: Rules.SeenRequest,
  answerBody: Uint8Array | undefined,
  binary: boolean
): Exchange => {
  const body = readBody(answerBody === undefined || binary ? new Uint8Array(0) : answerBody)
  return {
    request: rawRequestOf(r),
    response:
      job.transportError !== undefined
        ? Option.none()
        : Option.some({
            status: job.status,
            headers: job.headers,
            ...body
          }),
    transportError: job.transportError,
    receivedAt: job.receivedAt,
    durationMs: job.receivedAt - job.started,
    requestBytes: r.body === undefined ? Number.POSITIVE_INFINITY : r.bodyBytes
  }
}

/** A request rule broken, as the client's outcome; a lenient form says which latitude it needs. */
const clientOutcome = (b: Rules.Breach, e: Exchange): Outcome => {
  const rule = ContractRules.get(b.rule)
  const latitude =
    b.latitude === undefined ? undefined : ContractRules.latitude.find((l) => l.name === b.latitude)
  return {
    check: rule.check,
    rule: b.rule,
    ok: false,
    cause: latitude === undefined ? b.cause : `lenient (${latitude.name}): ${b.cause}`,
    message:
      latitude === undefined
        ? `the request breaks ${b.rule}: ${b.message}`
        : `${b.message} (decisions.md section 10, ${latitude.topic}: ${latitude.byDefault} / ${latitude.switched})`,
    exchange: e,
    detail: undefined
  }
}

/** What one exchange breaks: the client's outcomes (a valid request passes `valid-accepted`), then the server's. */
export const judge = (job: Job, settings: Settings): Judgement => {
  const { answerBody, binary, request: r, unread, unreadReason } = readBodies(job, settings.limit)
  const op = Rules.operationOf(r.path)
  const parsed = Rules.parseBody(r)
  const breaches = Rules.clientBreaches(op, r, parsed)
  // Forms only a lenient server accepts are the client's findings under --strict-client alone.
  const reported = settings.strict ? breaches : breaches.filter((b) => b.latitude === undefined)
  const e = exchangeOf(job, r, answerBody, binary)
  const name = op?.method ?? "_"
  const client = (outcome: Outcome): SideOutcome => ({
    side: "client",
    operation: `${name} (client)`,
    outcome
  })
  const verdicts: Array<SideOutcome> =
    reported.length === 0
      ? [
          client({
            check: "valid-accepted",
            rule: undefined,
            ok: true,
            cause: "",
            message: "",
            exchange: undefined
          })
        ]
      : reported.map((b) => client(clientOutcome(b, e)))
  // The answer's body is judged only when it was read whole and decoded, and is not binary.
  const complete = (answerBody !== undefined && !binary) || job.transportError !== undefined
  for (const outcome of Rules.serverOutcomes(
    op,
    r,
    e,
    parsed,
    breaches,
    settings.skewMillis,
    complete,
    job.key
  ))
    verdicts.push({ side: "server", operation: name, outcome })
  return {
    exchange: e,
    verdicts,
    unread,
    unreadReason,
    secrets: parsed._tag === "Object" ? Secrets.values(parsed.value) : []
  }
}
