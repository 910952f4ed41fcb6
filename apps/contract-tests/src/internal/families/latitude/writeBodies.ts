/** The probes of a write's body: string limits, a name taken twice, request enums left out. */
import * as Effect from "effect/Effect"
import { ContractRules, Secrets } from "@data-access/schema"
import { type Body, type Context, isWrite, type Op, send, uniqueNames } from "../../context.js"
import { post } from "../../http.js"
import * as Inspect from "../../inspect.js"
import { duplicateNameAnswered } from "../../oracles/valid-accepted.js"
import { identityValues, referenceOf, requestPropertyNames } from "../../pools.js"
import { alwaysSentEnums } from "../../requestShape.js"
import * as TextLength from "../../textLength.js"
import {
  acceptedExactlyOrInvalid,
  answered,
  decodesFor,
  type Probe,
  servedOrInvalidRead,
  single
} from "./probe.js"

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
export const bodyProbes = (ctx: Context, op: Op, body: Body): ReadonlyArray<Probe> => {
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
        const verdict = duplicateNameAnswered(e, what)
        return [
          ...answered("unique-names", e),
          ...(Inspect.statusOf(e) === 200
            ? Inspect.basic(op, e, ctx.skewMillis).filter((o) => !o.ok)
            : []),
          ...(verdict === undefined ? [] : [verdict])
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
          servedOrInvalidRead(
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
