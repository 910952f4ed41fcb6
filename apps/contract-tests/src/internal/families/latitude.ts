/**
 * Latitude explored: requests from the territory where decisions.md section 10 lets a server
 * choose, each judged by an oracle that accepts every faithful answer and flags only what no
 * choice gives: a 5xx, another code, a success that stores something else than was sent, or 200
 * to a GET that no reading of the protocol serves. The rows explored: string limits, request
 * enums left out, formats, filters (empty, time keys with text, string operators on booleans),
 * Connect GET, `identityId` of kind `resource_hostname`, cursors used with another request, and
 * the body size limit.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import { ContractRules, Filter, Secrets } from "@data-access/schema"
import * as Compression from "@data-access/schema/Compression"
import type { CheckId } from "@data-access/schema/ContractChecks"
import {
  type Body,
  type Context,
  type Family,
  fullObject,
  isWrite,
  objectOf,
  type Op,
  send,
  show,
  skipped,
  type Suite,
  uniqueNames
} from "../context.js"
import { type BudgetExhausted, type Exchange, post, type RawRequest } from "../http.js"
import * as Inspect from "../inspect.js"
import { asRecord } from "../json.js"
import {
  createEcho,
  pageOf,
  pageRules,
  type Row,
  rowOf,
  storedDifference,
  textOf
} from "../oracles.js"
import * as TextLength from "../textLength.js"
import { fail, type Outcome, pass, type Verdict } from "../outcome.js"
import { identityValues, referenceOf, requestPropertyNames } from "../pools.js"
import { alwaysSentEnums } from "../requestShape.js"
import { everything, requiredRefs } from "../walk.js"
import { sampleBodies, sampleBody } from "./auth.js"
import { relationCreates } from "./shared/readers.js"
import { MiB, padded, plainList } from "./protocol.js"

/** One probe: what it sends, and what every faithful server may answer. */
interface Probe {
  readonly name: string
  readonly latitude: ContractRules.LatitudeName
  /** Sends the probe's requests and judges the answers. */
  readonly run: Effect.Effect<ReadonlyArray<Verdict>, BudgetExhausted>
  /** The objects it may make, when it sends a create a server may serve (default: one). */
  readonly creates?: number
}

/** An answer on its own: no 5xx (a Connect GET refused as unimplemented aside) and a well-formed error. */
const answered = (latitude: ContractRules.LatitudeName, e: Exchange): ReadonlyArray<Outcome> => {
  const shape = Inspect.errorShape(e)
  // A Connect GET is a form a server may leave out (501 unimplemented).
  return [
    Inspect.noServerErrors(e, latitude === "connect-get"),
    ...(shape === undefined ? [] : [shape])
  ]
}

/** A probe of one request: its answer on its own, and the verdicts of `judge` on it. */
const single = (
  ctx: Context,
  name: string,
  latitude: ContractRules.LatitudeName,
  request: RawRequest,
  judge: (e: Exchange) => ReadonlyArray<Verdict>
): Probe => ({
  name,
  latitude,
  run: Effect.map(send(ctx, request), (e) => [...answered(latitude, e), ...judge(e)])
})

const got = (e: Exchange): string => Inspect.summary(e)
const excerpt = (e: Exchange) =>
  Option.match(e.response, { onNone: () => undefined, onSome: (r) => Inspect.excerpt(r, 200) })

/** A field's name, or its path in nested objects and arrays. */
type FieldPath = string | ReadonlyArray<string | number>

const pathText = (field: FieldPath): string =>
  typeof field === "string" ? field : field.filter((p) => typeof p === "string").join(".")

/** The stored value of a field in a create's or update's answer, defaults filled in. */
const storedValue = (op: Op, e: Exchange, field: FieldPath): unknown => {
  const json = Option.getOrUndefined(Option.flatMap(e.response, (r) => r.json))
  const path = typeof field === "string" ? [field] : field
  return path.reduce<unknown>(
    (v, k) => (Array.isArray(v) ? v[Number(k)] : asRecord(v)?.[k]),
    fullObject(op.object, objectOf(op, json))
  )
}

/**
 * Accepted and stored exactly as sent, or refused with invalid_argument: the two faithful answers
 * to a value a server may refuse (string limits, formats).
 */
const acceptedExactlyOrInvalid =
  (op: Op, path: FieldPath, value: unknown, what: string) =>
  (e: Exchange): ReadonlyArray<Outcome> => {
    const status = Inspect.statusOf(e)
    if (status === undefined || status >= 500 || Inspect.answeredFirst(e)) return []
    const field = pathText(path)
    if (status === 200) {
      const stored = storedValue(op, e, path)
      if (stored === value)
        return [
          pass("valid-accepted", [
            "fields.valid-accepted",
            op.kind === "create" ? "echo.create" : "updates.apply"
          ])
        ]
      const rule: ContractRules.RuleId = op.kind === "create" ? "echo.create" : "updates.apply"
      return [
        fail(
          rule,
          `${what}: accepted but stored otherwise`,
          `${what} in ${field} was accepted, but the answer holds ${show(stored)} instead of the value sent`,
          e,
          `${field} = ${show(stored)}`
        )
      ]
    }
    if (status === 400 && Inspect.codeOf(e) === "invalid_argument")
      return [pass("valid-accepted", ["fields.valid-accepted"])]
    return [
      fail(
        "fields.valid-accepted",
        `${what}: got ${Inspect.codeOf(e) ?? `HTTP ${status}`}`,
        `${what} in ${field} got ${got(e)}; a server accepts it or refuses it with invalid_argument`,
        e,
        excerpt(e)
      )
    ]
  }

/** Whether a body decodes with the operation's request schema. */
const decodesFor = (op: Op) => {
  const decode = ParseResult.decodeUnknownEither(op.request)
  return (b: unknown): boolean => Either.isRight(decode(b))
}

/** Fields never probed: references, the list controls, formats and secrets. */
const NOT_PROBED: ReadonlySet<string> = new Set([
  "id",
  "cursor",
  "search",
  "searchFields",
  "order",
  "filter",
  "spaceId"
])

/** The first field of the request (sent in the valid body or not) that the schema lets hold the text `value`: a free-text field. */
const freeTextField = (op: Op, body: Body, value: string): string | undefined => {
  const decodes = decodesFor(op)
  return [...new Set([...Object.keys(body), ...requestPropertyNames(op)])].find(
    (k) =>
      (body[k] === undefined || typeof body[k] === "string") &&
      !NOT_PROBED.has(k) &&
      referenceOf(op, k) === undefined &&
      !ContractRules.formatFields.has(k) &&
      !Secrets.isFieldName(k) &&
      decodes({ ...body, [k]: value })
  )
}

/** The probes of string limits (longer than 255 characters, control characters) and of request enums left out. */
const bodyProbes = (ctx: Context, op: Op, body: Body): ReadonlyArray<Probe> => {
  if (!isWrite(op)) return []
  const out: Array<Probe> = []
  // Unique to the run and the operation: a server may refuse a taken name (unique-names).
  const tag = `ct-${ctx.runId}-${op.method.length}${op.method.slice(-4).toLowerCase()}`
  // Over 255 characters under every count a server may use (code points, UTF-16 units, UTF-8
  // bytes, graphemes; as sent, NFC or NFD): an astral character, ASCII and a combining sequence
  // give each count a different length, the smallest well over the limit.
  const long = `${tag}-${"\u{1F680}xe\u0301".repeat(90)}-long`
  const control = `${tag}\u0001bell\u0007end`
  for (const [value, what] of [
    [
      long,
      `a string of ${TextLength.shortest(long)} to ${TextLength.longest(long)} characters (by every count)`
    ],
    [control, "control characters"]
  ] as const) {
    const field = freeTextField(op, body, value)
    if (field === undefined) continue
    out.push(
      single(
        ctx,
        `${what} in ${field}`,
        "string-limits",
        post(op.path, { ...(uniqueNames(op, body) as Body), [field]: value }),
        acceptedExactlyOrInvalid(op, field, value, what)
      )
    )
  }
  // A name taken: the same create twice, both served (duplicates accepted) or the second refused
  // as already_exists (decisions.md section 10); the first is a valid create.
  if (op.kind === "create" && typeof body.name === "string") {
    const twice = uniqueNames(op, body) as Body
    const what = "a create with a name taken by the create before it"
    out.push({
      name: what,
      latitude: "unique-names",
      creates: 2,
      run: Effect.gen(function* () {
        const first = yield* send(ctx, post(op.path, twice))
        if (Inspect.statusOf(first) !== 200) return answered("unique-names", first)
        const e = yield* send(ctx, post(op.path, twice))
        const own = answered("unique-names", e)
        const status = Inspect.statusOf(e)
        if (status === undefined || status >= 500 || Inspect.answeredFirst(e)) return own
        if (status === 200)
          return [
            ...own,
            ...Inspect.basic(op, e, ctx.skewMillis).filter((o) => !o.ok),
            pass("valid-accepted", ["fields.valid-accepted"])
          ]
        if (status === 409 && Inspect.codeOf(e) === "already_exists")
          return [...own, pass("valid-accepted", ["fields.valid-accepted"])]
        return [
          ...own,
          fail(
            "fields.valid-accepted",
            `${what}: got ${Inspect.codeOf(e) ?? `HTTP ${status}`}`,
            `${what} got ${got(e)}; a server accepts duplicates or refuses them with already_exists`,
            e,
            excerpt(e)
          )
        ]
      })
    })
  }
  // An enum with no empty value left out: the default (status draft, else the first value) applied, or invalid_argument.
  for (const [field, values] of alwaysSentEnums(op)) {
    if (op.kind !== "create" || !(field in body) || referenceOf(op, field) !== undefined) continue
    const expected = field === "status" && values.includes("draft") ? "draft" : values[0]!
    if (field === "identityType") {
      // identityType says what identityId names: left out, with an identityId of the default kind
      // (a user), the link is made or the request refused; the link's object does not show the kind.
      const identityId = identityValues(ctx.pools, expected)[0]
      if (identityId === undefined) continue
      const { [field]: _, ...without }: Body = { ...(uniqueNames(op, body) as Body), identityId }
      out.push(
        single(
          ctx,
          `${field} left out`,
          "require-enums",
          post(op.path, without),
          servedOrInvalid(
            op,
            `${field} left out (default ${expected}) with a ${expected}'s identityId`,
            ctx.skewMillis
          )
        )
      )
      continue
    }
    const { [field]: _, ...without } = uniqueNames(op, body) as Body
    out.push(
      single(
        ctx,
        `${field} left out`,
        "require-enums",
        post(op.path, without),
        acceptedExactlyOrInvalid(op, field, expected, `${field} left out (default ${expected})`)
      )
    )
  }
  return out
}

/**
 * Values outside every format decisions.md section 7 shows, per kind of format field. A URL field
 * gets a URL of another scheme and a text no URL parser reads: a server that validates URLs sees
 * both branches of its check (the scheme, and the parse that fails).
 */
const unformatted = (field: string): ReadonlyArray<string> =>
  field === "email"
    ? ["ct-not-an-email"]
    : field === "apiUrl" || field === "decryptorUri"
      ? ["ct: not a url", "ct-not-a-url"]
      : ["ct: not a format"]

/** Where format fields stand in a body, at any depth (nested objects, arrays), with a string value. */
const formatPaths = (
  v: unknown,
  path: ReadonlyArray<string | number> = []
): ReadonlyArray<ReadonlyArray<string | number>> => {
  if (Array.isArray(v)) return v.flatMap((x, i) => formatPaths(x, [...path, i]))
  const r = asRecord(v)
  if (r === undefined) return []
  return Object.entries(r).flatMap(([k, x]) =>
    ContractRules.formatFields.has(k) && typeof x === "string"
      ? [[...path, k]]
      : formatPaths(x, [...path, k])
  )
}

/** A copy of a JSON value with `value` at `path`. */
const setAt = (v: unknown, path: ReadonlyArray<string | number>, value: unknown): unknown => {
  if (path.length === 0) return value
  const [head, ...rest] = path
  if (Array.isArray(v)) return v.map((x, i) => (i === head ? setAt(x, rest, value) : x))
  const r = asRecord(v) ?? {}
  return { ...r, [head!]: setAt(r[head!], rest, value) }
}

/** Bodies sampled to find every format field: a one-of variant holds some of them (an MDM vendor's `apiUrl`). */
const FORMAT_SAMPLES = 12

/**
 * The probes of formats a server may validate: each format field of a create or update, at any
 * depth, outside its format (in the first sampled body that holds it).
 */
const formatProbes = (ctx: Context, op: Op, body: Body): ReadonlyArray<Probe> => {
  if (!isWrite(op)) return []
  const decodes = decodesFor(op)
  const seen = new Set<string>()
  return [body, ...sampleBodies(op, ctx, FORMAT_SAMPLES)].flatMap((b) =>
    formatPaths(b)
      .filter((path) => !(path.length === 1 && referenceOf(op, String(path[0])) !== undefined))
      .flatMap((path): ReadonlyArray<Probe> => {
        const at = path.filter((p) => typeof p === "string").join(".")
        if (seen.has(at)) return []
        seen.add(at)
        const field = String(path[path.length - 1])
        return unformatted(field).flatMap((value): ReadonlyArray<Probe> => {
          const sent = setAt(uniqueNames(op, b), path, value) as Body
          return decodes(sent)
            ? [
                single(
                  ctx,
                  `${at} outside its format (${show(value)})`,
                  "strict-formats",
                  post(op.path, sent),
                  acceptedExactlyOrInvalid(op, path, value, `a value outside the format of ${at}`)
                )
              ]
            : []
        })
      })
  )
}

const stringValue = (value: string) => ({ "@type": Filter.STRING_VALUE_TYPE, value })

/** Served (the answer judged as any), or refused with invalid_argument: the faithful answers to a request a server may refuse (a filter, an enum left out). */
const servedOrInvalid =
  (op: Op, what: string, skewMillis: number) =>
  (e: Exchange): ReadonlyArray<Outcome> => {
    const status = Inspect.statusOf(e)
    if (status === undefined || status >= 500 || Inspect.answeredFirst(e)) return []
    if (status === 200)
      return [
        ...Inspect.basic(op, e, skewMillis).filter((o) => !o.ok),
        pass("valid-accepted", ["fields.valid-accepted"])
      ]
    if (status === 400 && Inspect.codeOf(e) === "invalid_argument")
      return [pass("valid-accepted", ["fields.valid-accepted"])]
    return [
      fail(
        "fields.valid-accepted",
        `${what}: got ${Inspect.codeOf(e) ?? `HTTP ${status}`}`,
        `${what} got ${got(e)}; a server serves it or refuses it with invalid_argument`,
        e,
        excerpt(e)
      )
    ]
  }

/** The probes of filters a server may refuse: empty, a time key with text, a string operator on a boolean key. */
const filterProbes = (ctx: Context, op: Op, body: Body): ReadonlyArray<Probe> => {
  if (op.kind !== "list") return []
  const decodes = decodesFor(op)
  const filters: ReadonlyArray<readonly [ContractRules.LatitudeName, string, unknown]> = [
    ["reject-empty-filter", "an empty filter", {}],
    [
      "strict-time-filter",
      "created_at compared with text that is not a timestamp",
      { field: { key: "created_at", operator: "lower_than", value: stringValue("not-a-time") } }
    ],
    [
      "strict-filter-types",
      "a string operator on a boolean key",
      { field: { key: "termination_protection", operator: "contains", value: stringValue("tru") } }
    ]
  ]
  return filters.flatMap(([latitude, what, filter]): ReadonlyArray<Probe> => {
    const sent = { ...body, limit: 10, filter }
    return decodes(sent)
      ? [
          single(
            ctx,
            what,
            latitude,
            post(op.path, sent),
            servedOrInvalid(op, what, ctx.skewMillis)
          )
        ]
      : []
  })
}

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

/** A refusal of a compressed body as a server that leaves compression out answers it: 415, or unimplemented. */
const encodingLeftOut = (e: Exchange): boolean =>
  Inspect.statusOf(e) === 415 || Inspect.codeOf(e) === "unimplemented"

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
const getProbes = (ctx: Context, op: Op, body: Body): ReadonlyArray<Probe> => {
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

/**
 * Served (the answer judged as any, the link created as sent), or not_found: the faithful answers
 * to an `identityId` that a server may read as another kind of object than the one it names.
 */
const servedOrNotFound =
  (op: Op, sent: Body, what: string, skewMillis: number) =>
  (e: Exchange): ReadonlyArray<Verdict> => {
    const status = Inspect.statusOf(e)
    if (status === undefined || status >= 500 || Inspect.answeredFirst(e)) return []
    if (status === 200)
      return [
        ...Inspect.basic(op, e, skewMillis).filter((o) => !o.ok),
        ...createEcho(op, sent, e),
        pass("valid-accepted", ["fields.valid-accepted"])
      ]
    if (status === 404 && Inspect.codeOf(e) === "not_found")
      return [pass("error-shape", ["errors.unknown-reference"])]
    return [
      fail(
        "errors.unknown-reference",
        `${what}: got ${Inspect.codeOf(e) ?? `HTTP ${status}`}`,
        `${what} got ${got(e)}; a server takes it as the id of some kind of object, or answers not_found for an id it does not recognise`,
        e,
        excerpt(e)
      )
    ]
  }

/** Object kinds other than a connector hostname whose ids an `identityId` may name, by pool, in order of preference. */
const OTHER_KINDS: ReadonlyArray<readonly [string, string]> = [
  ["resources", "a resource"],
  ["satellites", "a satellite"],
  ["connectors", "a connector"]
]

/**
 * The probes of `identityId` with `identityType: resource_hostname`, which a server may take as
 * the id of any kind of object: a connector hostname's id and another kind's (one create each).
 */
const identityProbes = (ctx: Context, op: Op, body: Body): ReadonlyArray<Probe> => {
  const ref = op.kindedReference
  if (op.kind !== "create" || ref === undefined) return []
  const decodes = decodesFor(op)
  // Picked by the run's seed: runs against one deployment do not all make the same link.
  const pick = (pool: string): string | undefined => {
    const ids = ctx.pools.ids[pool] ?? []
    return ids.length === 0 ? undefined : ids[Math.abs(Math.trunc(ctx.seed)) % ids.length]
  }
  const other = OTHER_KINDS.find(([pool]) => pick(pool) !== undefined)
  const ids: ReadonlyArray<readonly [string | undefined, string]> = [
    [pick("connectorHostnames"), "a connector hostname"],
    ...(other === undefined ? [] : [[pick(other[0]), other[1]] as const])
  ]
  return ids.flatMap(([id, kind]): ReadonlyArray<Probe> => {
    const sent = { ...body, [ref.kindField]: "resource_hostname", [ref.field]: id }
    if (id === undefined || !decodes(sent)) return []
    const what = `${ref.field} of ${kind} with ${ref.kindField} resource_hostname`
    return [
      single(
        ctx,
        what,
        "identity-any-kind",
        post(op.path, sent),
        servedOrNotFound(op, sent, what, ctx.skewMillis)
      )
    ]
  })
}

/** The first page's `nextCursor`, when the answer is a 200 that has one. */
const nextCursorOf = (e: Exchange): string | undefined => {
  const json = Option.getOrUndefined(
    Option.flatMap(
      Option.filter(e.response, (r) => r.status === 200),
      (r) => r.json
    )
  )
  const cursor = asRecord(asRecord(json)?.listMetadata)?.nextCursor
  return typeof cursor === "string" && cursor !== "" ? cursor : undefined
}

/** A letter or digit in the names of the most items (case aside), when at least two have one: a search that keeps several items. */
const commonTerm = (rows: ReadonlyArray<Row>): string | undefined => {
  const names = rows.map((r) => textOf(r, "name").toLowerCase())
  let best: string | undefined
  let most = 1
  for (const c of "abcdefghijklmnopqrstuvwxyz0123456789") {
    const n = names.filter((name) => name.includes(c)).length
    if (n > most) [best, most] = [c, n]
  }
  return best
}

/** The space of the most items, when at least two share one. */
const commonSpace = (rows: ReadonlyArray<Row>): string | undefined => {
  const counts = new Map<string, number>()
  for (const r of rows) {
    const space = textOf(r, "space_id")
    if (space !== "") counts.set(space, (counts.get(space) ?? 0) + 1)
  }
  const [space, n] = [...counts].reduce<readonly [string | undefined, number]>(
    (best, entry) => (entry[1] > best[1] ? entry : best),
    [undefined, 1]
  )
  return n > 1 ? space : undefined
}

/** The walk parameters a cursor may be bound to (decisions.md section 10), each with a value that keeps several items of a list. */
const WALK_PARAMETERS: ReadonlyArray<readonly [string, (rows: ReadonlyArray<Row>) => unknown]> = [
  ["order", () => "desc"],
  ["search", commonTerm],
  // Every item has an id: a filter that keeps everything under every reading.
  ["filter", () => ({ field: { key: "id", operator: "not_empty" } })],
  ["spaceId", commonSpace]
]

/**
 * Sends `first`, then `later` with the cursor `first`'s answer gave: the later page is served (any
 * well-formed page of `limit` 1) or the cursor refused with invalid_argument (decisions.md section
 * 10, cursor-bound).
 */
const carried = (ctx: Context, op: Op, what: string, first: Body, later: Body) =>
  Effect.gen(function* () {
    const cursor = nextCursorOf(yield* send(ctx, post(op.path, first)))
    if (cursor === undefined) return []
    const e = yield* send(ctx, post(op.path, { ...later, cursor }))
    const json = Option.getOrUndefined(Option.flatMap(e.response, (r) => r.json))
    const page =
      Inspect.statusOf(e) === 200 && json !== undefined ? pageRules(1, pageOf(op, json), e) : []
    return [
      ...answered("cursor-bound", e),
      ...servedOrInvalid(op, what, ctx.skewMillis)(e),
      ...page
    ]
  })

/**
 * The probes of a cursor used with another request than the one that produced it: the first
 * page of a walk with one walk parameter set, then its `nextCursor` sent without that parameter.
 * A server continues the walk (any well-formed page) or refuses the cursor with invalid_argument.
 * The parameter is left out rather than changed, so that no reading of the later page (the old
 * walk or the new request) is a search or filter the answer must match.
 */
const cursorProbes = (ctx: Context, op: Op): ReadonlyArray<Probe> => {
  if (op.kind !== "list") return []
  const base = requiredRefs(op, ctx.pools, 0)
  if (base === undefined) return []
  const props = requestPropertyNames(op)
  const decodes = decodesFor(op)
  const reference = everything(ctx, op)
  const params = WALK_PARAMETERS.filter(([param]) => props.includes(param))
  // The other way: the cursor of a walk's next-to-last item, sent with a parameter added that keeps
  // only the first item (a filter) or some items: the later walk may have nothing after the cursor.
  const added = [
    ...params.map((p) => [...p, "asc"] as const),
    ...params.filter(([param]) => param === "filter").map((p) => [...p, "desc"] as const)
  ].map(([param, valueFor, order]): Probe => {
    const what = `the cursor near the end of a walk (${order}), sent with ${param} added`
    return {
      name: what,
      latitude: "cursor-bound",
      run: Effect.gen(function* () {
        const all = yield* reference(base)
        if (all.error !== undefined || !all.ended || all.items.length < 3) return []
        const rows = all.items.map((x) => rowOf(op, x))
        // The filter keeps the item the walk shows first, which the cursor is past.
        const first = order === "asc" ? all.items[0]! : all.items[all.items.length - 1]!
        const value =
          param === "filter"
            ? { field: { key: "id", operator: "equals", value: stringValue(String(first.id)) } }
            : valueFor(rows)
        const ordered = order === "asc" ? {} : { order }
        const later = { ...base, limit: 1, ...ordered, [param]: value }
        if (value === undefined || !decodes(later)) return []
        return yield* carried(
          ctx,
          op,
          `${what} (${show(value)})`,
          { ...base, ...ordered, limit: all.items.length - 1 },
          later
        )
      })
    }
  })
  return [
    ...added,
    ...params.map(([param, valueFor]): Probe => {
      const what = `the cursor of a walk with ${param} set, sent without it`
      return {
        name: what,
        latitude: "cursor-bound",
        run: Effect.gen(function* () {
          const all = yield* reference(base)
          const value =
            all.error === undefined ? valueFor(all.items.map((x) => rowOf(op, x))) : undefined
          const first = { ...base, limit: 1, [param]: value }
          if (value === undefined || !decodes(first)) return []
          return yield* carried(ctx, op, `${what} (${show(first[param])})`, first, {
            ...base,
            limit: 1
          })
        })
      }
    })
  ]
}

/** Body sizes between the 1 MiB every server serves and the 4 MiB the reference server serves. */
const BODY_SIZES: ReadonlyArray<number> = [1.5 * MiB, 3.5 * MiB]

const mib = (bytes: number) => `${bytes / MiB} MiB`

/**
 * The answer to a body over 1 MiB: served, or refused for its size with resource_exhausted; a
 * server that served a larger body has a limit above this one, so it serves this one too.
 */
const judgeSize = (
  op: Op,
  bytes: number,
  largestServed: number,
  e: Exchange,
  skewMillis: number
): ReadonlyArray<Outcome> => {
  const within = largestServed > bytes
  if (Option.isNone(e.response)) {
    if (Inspect.slowNotHung(e)) return []
    // A server may refuse a body above its limit before reading it and close the connection.
    return within
      ? [
          fail(
            "errors.no-internal-for-client-faults",
            "no response to a body within the limit",
            `no response to a valid read of ${mib(bytes)} (${e.transportError ?? "connection closed"}), though a body of ${mib(largestServed)} was served`,
            e
          )
        ]
      : []
  }
  const answer = answered("body-limit-1mib", e)
  const status = Inspect.statusOf(e)!
  const code = Inspect.codeOf(e)
  if (status >= 500) return answer
  if (status === 200)
    return [
      ...answer,
      ...Inspect.basic(op, e, skewMillis).filter((o) => !o.ok),
      pass("protocol", ["protocol.body-limit"])
    ]
  if (code === "resource_exhausted") {
    // A rate limit says when to retry; a refusal for the size is of a body above the limit.
    const rateLimited = Option.getOrUndefined(e.response)!.headers["retry-after"] !== undefined
    return within && !rateLimited
      ? [
          ...answer,
          fail(
            "protocol.body-limit",
            "a body refused for its size, a larger one served",
            `a valid read of ${mib(bytes)} was refused with resource_exhausted, but one of ${mib(largestServed)} was served: no size limit refuses the smaller`,
            e,
            excerpt(e)
          )
        ]
      : [...answer, pass("protocol", ["protocol.body-limit"])]
  }
  return [
    ...answer,
    fail(
      "protocol.body-limit",
      `a body over 1 MiB: got ${code ?? `HTTP ${status}`}`,
      `a valid read of ${mib(bytes)} got ${got(e)}; a server serves it or refuses it for its size with resource_exhausted`,
      e,
      excerpt(e)
    )
  ]
}

/**
 * The probe of the body size limit, which a server may set anywhere from 1 MiB up: valid reads
 * padded with an unknown field to sizes between 1 MiB and 4 MiB, sent to the read the protocol
 * family sends its 1 MiB and 5 MiB bodies to (nothing is written).
 */
const sizeProbes = (ctx: Context, op: Op): ReadonlyArray<Probe> => {
  if (op !== plainList) return []
  // A body that says gzip and is not: refused as malformed (invalid_argument) or for its encoding
  // (415, unimplemented), or read as it came; never refused as something else.
  const what = "a body that says gzip and is plain JSON"
  const mislabelled = single(
    ctx,
    what,
    "connect-get",
    post(op.path, { limit: 1 }, { headers: { "content-encoding": "gzip" } }),
    (e) => {
      const status = Inspect.statusOf(e)
      if (status === undefined || status >= 500 || Inspect.answeredFirst(e)) return []
      if (status === 200)
        return [...Inspect.basic(op, e, ctx.skewMillis).filter((o) => !o.ok), pass("protocol")]
      if ((status === 400 && Inspect.codeOf(e) === "invalid_argument") || encodingLeftOut(e))
        return [pass("protocol")]
      return [
        fail(
          "wire.json-object-body",
          `${what}: got ${Inspect.codeOf(e) ?? `HTTP ${status}`}`,
          `${what} got ${got(e)}; a server refuses it as malformed (invalid_argument) or for its encoding (415, unimplemented)`,
          e,
          excerpt(e)
        )
      ]
    }
  )
  // Plain, and gzip-compressed: the limit applies to what a body decompresses to, and a server
  // may leave compression out (415, unimplemented).
  return [
    mislabelled,
    ...([undefined, "gzip"] as const).map((contentEncoding): Probe => ({
      name: `valid reads of ${BODY_SIZES.map(mib).join(" and ")}${contentEncoding === undefined ? "" : `, ${contentEncoding}-compressed`}`,
      latitude: "body-limit-1mib",
      run: Effect.gen(function* () {
        const answers = yield* Effect.forEach(BODY_SIZES, (bytes) =>
          Effect.map(
            send(ctx, { ...post(op.path, undefined), body: padded(bytes), contentEncoding }),
            (e) => [bytes, e] as const
          )
        )
        const largestServed = Math.max(
          0,
          ...answers.filter(([, e]) => Inspect.statusOf(e) === 200).map(([bytes]) => bytes)
        )
        return answers.flatMap(([bytes, e]) =>
          contentEncoding !== undefined && encodingLeftOut(e)
            ? [pass("protocol")]
            : judgeSize(op, bytes, largestServed, e, ctx.skewMillis)
        )
      })
    }))
  ]
}

/**
 * The probe of an update's reference sent as `""` (UpdateSatellite's `spaceId`): a server takes the
 * object out of its space (`""` back) or treats the field as not set (the value it had, read by an
 * update that sets nothing); any other answer is wrong under both readings.
 */
const emptyReferenceProbes = (ctx: Context, op: Op, body: Body): ReadonlyArray<Probe> => {
  if (op.kind !== "update" || typeof body.id !== "string") return []
  return requestPropertyNames(op)
    .filter((k) => k !== "id" && /Id$/.test(k) && referenceOf(op, k) !== undefined)
    .map((field): Probe => {
      const what = `${field} "" on ${op.method}`
      return {
        name: what,
        latitude: "space-empty-ignored",
        run: Effect.gen(function* () {
          const before = yield* send(ctx, post(op.path, { id: body.id }))
          if (Inspect.statusOf(before) !== 200) return []
          const had = storedValue(op, before, field)
          const e = yield* send(ctx, post(op.path, { id: body.id, [field]: "" }))
          const status = Inspect.statusOf(e)
          if (status === undefined || status >= 500 || Inspect.answeredFirst(e))
            return answered("space-empty-ignored", e)
          if (status !== 200) {
            return [
              ...answered("space-empty-ignored", e),
              fail(
                "fields.valid-accepted",
                `${what}: got ${Inspect.codeOf(e) ?? `HTTP ${status}`}`,
                `${what} got ${got(e)}; a server takes the object out of it or treats the field as not set`,
                e,
                excerpt(e)
              )
            ]
          }
          const now = storedValue(op, e, field)
          if (now === "" || now === had)
            return [
              ...answered("space-empty-ignored", e),
              pass("update-semantics", ["updates.apply"])
            ]
          return [
            fail(
              "updates.apply",
              `${what}: set to another value`,
              `${what} left ${field} ${show(now)}, neither "" (out of it) nor ${show(had)} (not set)`,
              e,
              `${field} = ${show(now)}`
            )
          ]
        })
      }
    })
}

/**
 * The probe of a read whose parent id names nothing (ListNativeUsers' `resourceId`,
 * GetEncryptionKeysByKeyId's `keyId`): a server answers not_found, or an empty page or array
 * (decisions.md section 10), a well-formed one; never items, never another refusal.
 */
const parentProbes = (ctx: Context, op: Op): ReadonlyArray<Probe> => {
  const field =
    op.kind === "list" && op.parent?.required === true
      ? op.parent.field
      : op.kind === "get" && requestPropertyNames(op).includes("keyId")
        ? "keyId"
        : undefined
  if (field === undefined) return []
  const what = `${field} naming nothing`
  const sent: Body = {
    ...(op.kind === "list" ? { limit: 10 } : {}),
    [field]: `ct-missing-${ctx.runId}`
  }
  const rule: ContractRules.RuleId = op.kind === "list" ? "lists.parent-scope" : "keys.by-key-id"
  return [
    single(ctx, what, "parent-not-found", post(op.path, sent), (e) => {
      const status = Inspect.statusOf(e)
      if (status === undefined || status >= 500 || Inspect.answeredFirst(e)) return []
      if (status === 404 && Inspect.codeOf(e) === "not_found")
        return [pass("error-shape", ["errors.unknown-reference"])]
      if (status !== 200)
        return [
          fail(
            "errors.unknown-reference",
            `${what}: got ${Inspect.codeOf(e) ?? `HTTP ${status}`}`,
            `${what} got ${got(e)}; a server answers not_found or an empty answer`,
            e,
            excerpt(e)
          )
        ]
      const json = Option.getOrUndefined(Option.flatMap(e.response, (r) => r.json))
      const found =
        op.kind === "list"
          ? pageOf(op, json).items.length
          : ((x) => (Array.isArray(x) ? x.length : 0))(objectOf(op, json))
      const basic = Inspect.basic(op, e, ctx.skewMillis).filter((o) => !o.ok)
      if (found === 0) return [...basic, pass("search-filter", [rule])]
      return [
        ...basic,
        fail(
          rule,
          `${what}: items returned`,
          `${what} returned ${found} items; a server answers not_found or an empty answer`,
          e,
          excerpt(e)
        )
      ]
    })
  ]
}

const CHECKS: ReadonlyArray<CheckId> = [
  "no-server-errors",
  "error-shape",
  "valid-accepted",
  "invalid-rejected",
  "create-echo",
  "update-semantics",
  "protocol",
  "stable-reads"
]

/**
 * The probes of an operation, built once per run. The probes that send a create a server may serve
 * (string limits, enums left out, a taken name, formats, identity kinds) make objects: they count
 * against `--creates-per-operation` with the relations' creates, leaving at least one valid
 * example (`latitudeCreates`); those that do not fit are left out.
 */
const probesOf = (
  op: Op,
  ctx: Context
): { readonly probes: ReadonlyArray<Probe>; readonly creates: number } => {
  let byOp = built.get(ctx)
  if (byOp === undefined) built.set(ctx, (byOp = new Map()))
  const known = byOp.get(op)
  if (known !== undefined) return known
  const { body, valid } = sampleBody(op, ctx)
  let result: { readonly probes: ReadonlyArray<Probe>; readonly creates: number }
  if (!valid) {
    // Without a valid body (nothing to reference), only the GET that no reading serves.
    result = {
      probes: [
        ...getProbes(ctx, op, body).slice(0, 1),
        ...parentProbes(ctx, op),
        ...cursorProbes(ctx, op),
        ...sizeProbes(ctx, op)
      ],
      creates: 0
    }
  } else {
    const creating = [
      ...bodyProbes(ctx, op, body),
      ...formatProbes(ctx, op, body),
      ...identityProbes(ctx, op, body)
    ]
    const allowance =
      op.kind === "create"
        ? Math.max(0, ctx.createExamples - relationCreates(op, ctx) - 1)
        : Number.POSITIVE_INFINITY
    let creates = 0
    const kept = creating.filter((p) => {
      const n = op.kind === "create" ? (p.creates ?? 1) : 0
      if (creates + n > allowance) return false
      creates += n
      return true
    })
    result = {
      probes: [
        ...kept,
        ...filterProbes(ctx, op, body),
        ...emptyReferenceProbes(ctx, op, body),
        ...parentProbes(ctx, op),
        ...cursorProbes(ctx, op),
        ...getProbes(ctx, op, body),
        ...sizeProbes(ctx, op)
      ],
      creates
    }
  }
  byOp.set(op, result)
  return result
}

const built = new WeakMap<
  Context,
  Map<Op, { readonly probes: ReadonlyArray<Probe>; readonly creates: number }>
>()

/** The objects the latitude probes of a Create operation may make (out of `--creates-per-operation`). */
export const latitudeCreates = (op: Op, ctx: Context): number =>
  op.kind !== "create" || ctx.readOnly ? 0 : probesOf(op, ctx).creates

const latitudeSuite = (op: Op, ctx: Context): Suite => {
  if (ctx.readOnly && isWrite(op))
    return skipped("latitude", op.method, CHECKS, true, "read-only mode")
  const { probes } = probesOf(op, ctx)
  return {
    family: "latitude",
    method: op.method,
    checks: CHECKS,
    writes: isWrite(op),
    skip: undefined,
    cases: { _tag: "Enumerated", count: probes.length, at: (i) => probes[i] },
    run: (probe: Probe) => probe.run
  }
}

export const latitude: Family = {
  name: "latitude",
  checks: CHECKS,
  suites: (op, ctx) => [latitudeSuite(op, ctx)]
}
