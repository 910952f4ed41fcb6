/**
 * The probes of a request's form: a GET without a message, a Connect GET of a write and of a read
 * (as text, base64 or compressed), a read's body compressed, and its answer asked for compressed.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Compression from "@data-access/schema/Compression"
import { type Body, type Context, isWrite, objectOf, type Op, send } from "../../context.js"
import { type Exchange, post, type RawRequest } from "../../http.js"
import * as Inspect from "../../inspect.js"
import { pageOf } from "../../oracles/paging.js"
import { storedDifference } from "../../objectDifference.js"
import { fail, type Outcome, pass, type Verdict } from "../../outcome.js"
import { requiredRefs } from "../../walk.js"
import { answered, encodingLeftOut, excerpt, got, type Probe, single } from "./probe.js"

/** Whether an answer is a refusal: not a success, not a server error. */
const refusedGet = (e: Exchange, what: string): ReadonlyArray<Outcome> => {
  const status = Inspect.statusOf(e)
  if (status === undefined || status >= 500 || Inspect.answeredFirst(e)) return []
  return status === 200
    ? [
        fail(
          "protocol.method",
          `${what}: served`,
          `${what} was served with 200; only POST and Connect GET of a read are served`,
          e,
          excerpt(e)
        )
      ]
    : [pass("protocol", ["protocol.method"])]
}

/** The items of a read's answer (a List's page, a Get's object or objects), in order. */
const readItems = (op: Op, e: Exchange): ReadonlyArray<unknown> => {
  const json = Option.getOrUndefined(Option.flatMap(e.response, (r) => r.json))
  if (op.kind === "list") return pageOf(op, json).items
  const found = objectOf(op, json)
  return Array.isArray(found) ? found : [found]
}

/**
 * Where two answers to the same read differ: their items in order, each compared as a stored
 * object is (zero values and absent fields alike, secrets aside, times as instants). Cursors and
 * `after` / `before` are a server's own tokens, free to differ between two answers.
 */
const answerDifference = (op: Op, a: Exchange, b: Exchange): string | undefined => {
  const [x, y] = [readItems(op, a), readItems(op, b)]
  if (x.length !== y.length) return `${x.length} items against ${y.length}`
  for (let i = 0; i < x.length; i++) {
    const d = storedDifference(x[i], y[i])
    if (d !== undefined) return `item ${i} at ${d}`
  }
  return undefined
}

/**
 * A read sent in another form than a plain POST (a Connect GET, a compressed body, an answer asked
 * for compressed): refused as a server that leaves the form out does (judged by `refused`), or
 * served, and then the same answer as the plain POST of the same message, sent right after it
 * (reads run when no write does, so nothing changes between the two).
 */
const servedAsPost = (
  ctx: Context,
  op: Op,
  body: Body,
  name: string,
  request: RawRequest,
  refused: (e: Exchange) => ReadonlyArray<Verdict>,
  served: (e: Exchange) => ReadonlyArray<Outcome> = () => []
): Probe => ({
  name,
  latitude: "connect-get",
  run: Effect.gen(function* () {
    const e = yield* send(ctx, request)
    const own = answered("connect-get", e)
    if (Inspect.statusOf(e) !== 200) return [...own, ...refused(e)]
    const basic = [...Inspect.basic(op, e, ctx.skewMillis), ...served(e)].filter((o) => !o.ok)
    if (basic.length > 0) return [...own, ...basic]
    const plain = yield* send(ctx, post(op.path, body))
    const d = Inspect.statusOf(plain) === 200 ? answerDifference(op, e, plain) : undefined
    return [
      ...own,
      d === undefined
        ? pass("stable-reads", ["reads.stable"])
        : fail(
            "reads.stable",
            `${name}: another answer than the POST's`,
            `${name} of ${op.method} was served another answer than the plain POST of the same message, sent right after it (${d})`,
            e,
            excerpt(e)
          )
    ]
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
      refusedGet(e, "a GET without a message")
    )
  ]
  if (isWrite(op)) {
    out.push(
      single(
        ctx,
        "Connect GET of a method with side effects",
        "connect-get",
        get(getQuery(body)),
        (e) => refusedGet(e, `a Connect GET of ${op.method}`)
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
      servedAsPost(ctx, op, short, what, get(getQuery(short, form)), (e) => {
        const status = Inspect.statusOf(e)
        if (status === undefined || status >= 500 || Inspect.answeredFirst(e)) return []
        return [405, 415, 404, 501].includes(status)
          ? [pass("protocol")]
          : [
              fail(
                "protocol.method",
                `${what}: got ${got(e)}`,
                `${what} of ${op.method} got ${got(e)}; a server serves it or refuses it (405, 415, unimplemented)`,
                e,
                excerpt(e)
              )
            ]
      })
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
        (e) => {
          const status = Inspect.statusOf(e)
          if (status === undefined || status >= 500 || Inspect.answeredFirst(e)) return []
          if (encodingLeftOut(e)) return [pass("protocol")]
          return [
            fail(
              "fields.valid-accepted",
              `a ${encoding} body: got ${Inspect.codeOf(e) ?? `HTTP ${status}`}`,
              `a valid ${op.method} with a ${encoding} body got ${got(e)}; a server serves it or refuses the encoding (415, unimplemented)`,
              e,
              excerpt(e)
            )
          ]
        }
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
        (e) => {
          const status = Inspect.statusOf(e)
          if (status === undefined || status >= 500 || Inspect.answeredFirst(e)) return []
          return [
            fail(
              "fields.valid-accepted",
              `${what}: got ${Inspect.codeOf(e) ?? `HTTP ${status}`}`,
              `a valid ${op.method} offering Accept-Encoding: ${encoding} got ${got(e)}; an encoding offered changes nothing but the answer's encoding`,
              e,
              excerpt(e)
            )
          ]
        },
        (e) => {
          const sent = Compression.parseContentEncoding(
            Option.getOrUndefined(e.response)?.headers["content-encoding"]
          )
          return sent._tag === "Identity" ||
            (sent._tag === "Compressed" && sent.encoding === encoding)
            ? []
            : [
                fail(
                  "wire.success",
                  `${what}: answered in another encoding`,
                  `${what} came with Content-Encoding: ${sent._tag === "Compressed" ? sent.encoding : sent.value}, which the client did not offer`,
                  e,
                  excerpt(e)
                )
              ]
        }
      )
    )
  }
  return out
}
