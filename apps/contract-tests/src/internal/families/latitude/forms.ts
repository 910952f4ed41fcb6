/**
 * The probes of a request's form: a GET without a message, a Connect GET of a write and of a read
 * (as text, base64 or compressed), a read's body compressed, and its answer asked for compressed.
 */
import * as Effect from "effect/Effect"
import * as Compression from "@data-access/schema/Compression"
import { type Body, type Context, isWrite, type Op, send } from "../../context.js"
import { type Exchange, post, type RawRequest } from "../../http.js"
import * as Inspect from "../../inspect.js"
import { requiredRefs } from "../../listWalk.js"
import { defined } from "../../exchangeOracle.js"
import { connectGetRefused, getRefused } from "../../oracles/invalid-rejected.js"
import { sameAsPost } from "../../oracles/stable-reads.js"
import { answerEncoding } from "../../oracles/success-shape.js"
import { compressedBodyServed, encodingOfferServed } from "../../oracles/valid-accepted.js"
import type { Outcome } from "../../outcome.js"
import { answered, type Probe, single } from "./probe.js"

/**
 * A read sent in another form than a plain POST (a Connect GET, a compressed body, an answer asked
 * for compressed): refused as a server that leaves the form out does (judged by `refused`), or
 * served (judged by `served` too), and then the same answer as the plain POST of the same message,
 * sent right after it (stable-reads' `sameAsPost`; reads run when no write does, so nothing
 * changes between the two).
 */
const servedAsPost = (
  ctx: Context,
  op: Op,
  body: Body,
  name: string,
  request: RawRequest,
  refused: (e: Exchange) => Outcome | undefined,
  served: (e: Exchange) => Outcome | undefined = () => undefined
): Probe => ({
  name,
  latitude: "connect-get",
  run: Effect.gen(function* () {
    const e = yield* send(ctx, request)
    const own = answered("connect-get", e)
    if (Inspect.statusOf(e) !== 200) {
      const verdict = refused(e)
      return verdict === undefined ? own : [...own, verdict]
    }
    const basic = [...Inspect.basic(op, e, ctx.skewMillis), served(e)].filter(
      (o): o is Outcome => o !== undefined && !o.ok
    )
    if (basic.length > 0) return [...own, ...basic]
    const plain = yield* send(ctx, post(op.path, body))
    return [...own, sameAsPost(op, name, e, plain)]
  })
})

/**
 * A Connect GET's query for a message: JSON, `connect=v1` as Connect clients send it; as text,
 * or base64url (`base64=1`), or compressed and then base64url (`compression=`), the forms the
 * Connect protocol gives a GET's message.
 */
const getQuery = (body: Body, form: "text" | "base64" | Compression.Encoding = "text") => {
  const json = JSON.stringify(body)
  if (form === "text") return `?connect=v1&encoding=json&message=${encodeURIComponent(json)}`
  const bytes =
    form === "base64" ? Buffer.from(json) : Buffer.from(Compression.compress(json, form))
  return `?connect=v1&encoding=json&base64=1${form === "base64" ? "" : `&compression=${form}`}&message=${bytes.toString("base64url")}`
}

/** A List read by a Connect GET asks for a short page: a server that reads another message than the one sent answers another page. */
const SHORT_PAGE = 2

/** A List asks for a page long enough to reach the size from which servers compress (1 KiB). */
const LONG_PAGE = 50

/**
 * GET probes: without a message (no reading serves it), a Connect GET of a method with side
 * effects, and of a read; a read's body compressed with each encoding; a read's answer asked for
 * in each encoding (`Accept-Encoding`).
 */
export const getProbes = (ctx: Context, op: Op, body: Body): ReadonlyArray<Probe> => {
  const get = (query: string): RawRequest => ({
    ...post(op.path + query, undefined),
    method: "GET",
    contentType: undefined
  })
  const out: Array<Probe> = [
    single(ctx, "GET without a message", "connect-get", get(""), (e) =>
      defined(getRefused(e, "a GET without a message"))
    )
  ]
  if (isWrite(op)) {
    out.push(
      single(
        ctx,
        "Connect GET of a method with side effects",
        "connect-get",
        get(getQuery(body)),
        (e) => defined(getRefused(e, `a Connect GET of ${op.method}`))
      )
    )
    return out
  }
  // Served, or refused as a server that leaves Connect GET out does: the wrong method (405), the
  // form or codec not served (415), no such route or unimplemented (404, 501). With `connect=v1`
  // and a valid message, nothing else is a refusal of the form: a 400 is a message misread.
  // A List's page without search or filter (which may select nothing), only what it requires.
  const plain = op.kind === "list" ? (requiredRefs(op, ctx.pools, 0) ?? body) : body
  const short = op.kind === "list" ? { ...plain, limit: SHORT_PAGE } : body
  for (const [form, what] of [
    ["text", "a Connect GET"],
    ["base64", "a Connect GET with a base64 message"],
    ["gzip", "a Connect GET with a gzip message"]
  ] as const) {
    out.push(
      servedAsPost(ctx, op, short, what, get(getQuery(short, form)), (e) =>
        connectGetRefused(op, e, what)
      )
    )
  }
  // A request body compressed with each encoding: served, or refused as a server that leaves
  // compression out does (415, or unimplemented).
  for (const encoding of Compression.encodings) {
    out.push(
      servedAsPost(
        ctx,
        op,
        body,
        `a ${encoding} request body`,
        post(op.path, body, { contentEncoding: encoding }),
        (e) => compressedBodyServed(op, e, encoding)
      )
    )
  }
  // An answer asked for in each encoding: a plain answer, or one in the encoding offered (the
  // runner reads it by its Content-Encoding), the same either way.
  const long = op.kind === "list" ? { ...plain, limit: LONG_PAGE } : body
  for (const encoding of Compression.encodings) {
    const what = `an answer asked for in ${encoding}`
    out.push(
      servedAsPost(
        ctx,
        op,
        long,
        what,
        post(op.path, long, { headers: { "accept-encoding": encoding } }),
        (e) => encodingOfferServed(op, e, what, encoding),
        (e) => answerEncoding(e, what, encoding)
      )
    )
  }
  return out
}
