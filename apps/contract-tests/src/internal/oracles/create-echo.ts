/**
 * create-echo: a create's answer is the object made of what was sent: the fields read back, the
 * complete object, zero values for what was left out, the objects its ids name.
 */
import * as Option from "effect/Option"
import { type ContractRules, SchemaWalk, Secrets } from "@data-access/schema"
import {
  type Body,
  fullObject,
  objectIn,
  objectOf,
  objectPropertyNames,
  type FieldPath,
  type Op,
  show
} from "../context.js"
import type { Exchange } from "../http.js"
import { asRecord, sameAsSent } from "../json.js"
import { at, storedDifference } from "../objectDifference.js"
import { fail, note, type Outcome, pass, passes, type Verdict } from "../outcome.js"
import { type Pools, referenceOf, requestPropertyNames } from "../pools.js"
import * as Shape from "../requestShape.js"
import { lastOf, type Walk } from "../listWalk.js"
import { codeOf } from "../answerReading.js"
import { nestedOf, sendsReference, staleNested } from "../nestedCopies.js"
import { type ExchangeOracle, onSuccess, successJson } from "../exchangeOracle.js"
import { storedExactly } from "../storedValues.js"

const zeroFields = new WeakMap<Op, ReadonlyArray<string>>()

/**
 * The request fields of a create that the object holds under the same name as a scalar, whose
 * absence means their zero value: not the request enums a server may default (decisions.md
 * section 10), not ids naming other objects, not the variants of a one-of, not secrets.
 */
const zeroValueFields = (op: Op): ReadonlyArray<string> => {
  let out = zeroFields.get(op)
  if (out !== undefined) return out
  const props = objectPropertyNames(op)
  const defaulted = Shape.alwaysSentEnums(op)
  out = requestPropertyNames(op).filter(
    (k) =>
      k !== "id" &&
      referenceOf(op, k) === undefined &&
      props.has(k) &&
      !defaulted.has(k) &&
      !(op.oneOf ?? []).includes(k) &&
      !Secrets.fieldNames.has(k)
  )
  zeroFields.set(op, out)
  return out
}

/** The fields a request sets (lowerCamelCase; `null` is not set). */
const sentKeys = (sent: Body): ReadonlySet<string> =>
  new Set(
    Object.entries(asRecord(Shape.normalizeKeys(sent)) ?? {}).flatMap(([k, v]) =>
      v === null || v === undefined ? [] : [k]
    )
  )

/** The names of the fields of a request field's object type (a vendor object's), at any wrapping (optional, nullable). */
const nestedFieldNames = (op: Op, field: string): ReadonlyArray<string> => {
  const f = SchemaWalk.requestFields(op).get(field)
  const members = (s: SchemaWalk.Shape): ReadonlyArray<SchemaWalk.Shape> =>
    s._tag === "Union" ? s.members.flatMap(members) : [s]
  return (f === undefined ? [] : members(f.shape)).flatMap((s) =>
    s._tag === "Object" ? [...s.fields.keys()] : []
  )
}

const zeroOf = (value: unknown): unknown =>
  typeof value === "boolean"
    ? false
    : typeof value === "string"
      ? ""
      : typeof value === "number"
        ? 0
        : undefined

/**
 * The first field left out of a create whose value in the created object is a scalar other than
 * its zero value: at the top level, and inside an object the request sent (a vendor object's
 * fields left out).
 */
const unsentZeroValues = (
  op: Op,
  sent: Body,
  full: Record<string, unknown>
): { readonly field: string; readonly value: unknown; readonly zero: unknown } | undefined => {
  const set = sentKeys(sent)
  for (const k of zeroValueFields(op)) {
    const value = full[k]
    if (!set.has(k)) {
      const zero = zeroOf(value)
      if (zero !== undefined && value !== zero) return { field: k, value, zero }
      continue
    }
    const inner = asRecord(asRecord(Shape.normalizeKeys(sent))?.[k])
    const got = asRecord(value)
    if (inner === undefined || got === undefined) continue
    const innerSet = sentKeys(inner)
    for (const j of nestedFieldNames(op, k)) {
      if (innerSet.has(j) || Secrets.fieldNames.has(j) || /Id$/.test(j)) continue
      const zero = zeroOf(got[j])
      if (zero !== undefined && got[j] !== zero) return { field: `${k}.${j}`, value: got[j], zero }
    }
  }
  return undefined
}

/** create-echo: sent fields read back unchanged, the linked group named; a secret returned is a note. */
export const createEcho = (op: Op, sent: Body, e: Exchange): ReadonlyArray<Verdict> => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || r.status !== 200 || Option.isNone(r.json)) return []
  const raw = objectOf(op, r.json.value)
  const full = fullObject(op.object, raw)
  if (full === undefined) return []
  const props = objectPropertyNames(op)
  const known = new Set(requestPropertyNames(op))
  const rawObj = asRecord(raw) ?? {}
  const out: Array<Verdict> = []
  // Secrets: returning the value stored or leaving it out is a server's choice (decisions.md
  // section 10): a secret returned is a note, one returned as another value (masked) a finding.
  const echoed: Array<string> = []
  const changed: Array<string> = []
  const findEchoes = (s: unknown, got: unknown, path: string): void => {
    const so = asRecord(s)
    const go = asRecord(got)
    if (so === undefined || go === undefined) return
    for (const [k, v] of Object.entries(so)) {
      const at = path ? `${path}.${k}` : k
      if (Secrets.fieldNames.has(k) && typeof v === "string" && v !== "") {
        if (go[k] === v) echoed.push(at)
        else if (typeof go[k] === "string" && go[k] !== "") changed.push(at)
      } else findEchoes(v, go[k], at)
    }
  }
  findEchoes(sent, rawObj, "")
  if (changed.length > 0)
    return [
      fail(
        "echo.create",
        `secret ${changed[0]} returned as another value`,
        `the response returns the secret sent in ${changed.join(", ")} as another value (values not shown): a server returns the value it stored or leaves it out (decisions.md section 10)`,
        e
      )
    ]
  if (echoed.length > 0)
    out.push(
      note(
        "secret-returned",
        `the response returns the secret sent in ${echoed.join(", ")} (value not shown)`,
        e
      )
    )
  // Unknown fields, at any depth, are ignored (decisions.md section 1): they are not part of the object.
  for (const [k, v] of Object.entries(Shape.withoutUnknownFields(op, sent))) {
    if (!known.has(k) || v === null || v === undefined || Secrets.fieldNames.has(k)) continue
    if (props.has(k)) {
      if (!sameAsSent(v, full[k], (key) => Secrets.fieldNames.has(key))) {
        return [
          ...out,
          fail(
            "echo.create",
            `${k} differs`,
            `sent ${k} ${show(v)}, the created object has ${show(full[k])}`,
            e,
            `${k} = ${show(full[k])}`
          )
        ]
      }
      continue
    }
    const nested = nestedOf(k)
    if (nested !== undefined && props.has(nested) && asRecord(rawObj[nested]) !== undefined) {
      const got = asRecord(rawObj[nested])!.id
      if (got !== v) {
        return [
          ...out,
          fail(
            "echo.create",
            `${k} differs`,
            `sent ${k} ${show(v)}, the created object's ${nested}.id is ${JSON.stringify(got)}`,
            e,
            `${nested}.id = ${JSON.stringify(got)}`
          )
        ]
      }
    }
  }
  // The complete object (interface.md, Endpoints): a created object has a creation time.
  if (props.has("createdAt") && (typeof rawObj.createdAt !== "string" || rawObj.createdAt === "")) {
    return [
      ...out,
      fail(
        "echo.create-complete",
        "createdAt missing",
        "the created object has no createdAt",
        e,
        `createdAt = ${show(rawObj.createdAt)}`
      )
    ]
  }
  // Left out is its zero value (proto3): scalar fields of the object the request did not send.
  const zero = unsentZeroValues(op, sent, full)
  if (zero !== undefined)
    return [
      ...out,
      fail(
        "echo.create-zero-values",
        `${zero.field} not its zero value`,
        `the request left out ${zero.field}, the created object has ${show(zero.value)}, not ${show(zero.zero)}`,
        e,
        `${zero.field} = ${show(zero.value)}`
      )
    ]
  // A sent `<x>Id` the object holds only as its nested `<x>` comes back as that object (the link's `nativeUser`).
  const nested = Object.entries(sent).flatMap(([k, v]) => {
    const object = nestedOf(k)
    return object !== undefined &&
      typeof v === "string" &&
      v !== "" &&
      known.has(k) &&
      !props.has(k) &&
      props.has(object)
      ? [{ field: k, object, id: v }]
      : []
  })
  for (const { field, object, id } of nested) {
    if (asRecord(rawObj[object]) === undefined) {
      return [
        ...out,
        fail(
          "echo.create-references",
          `${object} missing`,
          `sent ${field} ${JSON.stringify(id)}, the created object has no ${object}`,
          e,
          `${object} = ${show(rawObj[object])}`
        )
      ]
    }
  }
  // The linked identity: a `group` link names its group (decisions.md section 6).
  if (sent.identityType === "group" && typeof sent.identityId === "string" && props.has("group")) {
    const group = asRecord(rawObj.group)
    if (group?.id !== sent.identityId) {
      return [
        ...out,
        fail(
          "echo.identity-group",
          "linked group not returned",
          `a link to group ${JSON.stringify(sent.identityId)} came back with group ${show(rawObj.group)}`,
          e,
          `group = ${show(rawObj.group)}`
        )
      ]
    }
  }
  // A nested `<x>` beside a sent `<x>Id` the object holds too names that id (a connector's `space`).
  const stale = staleNested(props, sent, rawObj)
  if (stale !== undefined) {
    return [
      ...out,
      fail(
        "echo.create-references",
        `${stale} is another object`,
        `the create returned ${stale}Id ${show(rawObj[`${stale}Id`])} with ${stale} ${show(rawObj[stale])}`,
        e,
        `${stale}.id = ${show(asRecord(rawObj[stale])?.id)}`
      )
    ]
  }
  const judged: Array<ContractRules.RuleId> = ["echo.create"]
  if (props.has("createdAt")) judged.push("echo.create-complete")
  if (zeroValueFields(op).some((k) => !sentKeys(sent).has(k)))
    judged.push("echo.create-zero-values")
  if (sent.identityType === "group") judged.push("echo.identity-group")
  if (nested.length > 0 || sendsReference(props, sent)) judged.push("echo.create-references")
  return [...out, passes(judged)]
}

const echo = onSuccess(
  "create-echo",
  [
    "echo.create",
    "echo.create-complete",
    "echo.create-zero-values",
    "echo.identity-group",
    "echo.create-references"
  ],
  (op, sent, e) => (op.kind === "create" ? createEcho(op, sent, e) : [])
)

/** A user the runner knows: the fields a password request may name them by. */
type KnownUser = Pools["users"][number]

/**
 * The trace of a password request naming a known user (CreateHumanUserPassword's `email`,
 * `username` or `id`; `users` the users the runner knows): the answer's `username` is theirs
 * (echo.password-user). Live traffic: the proxy does not know the users, so it does not judge it.
 */
export const passwordUser = (
  op: Op,
  sent: Body,
  e: Exchange,
  users: ReadonlyArray<KnownUser>
): ReadonlyArray<Outcome> => {
  if (op.oneOf === undefined) return []
  const variant = op.oneOf.find((f) => typeof sent[f] === "string" && sent[f] !== "")
  const ref = variant === undefined ? undefined : referenceOf(op, variant)
  if (variant === undefined || ref?._tag !== "User") return []
  const user = users.find((u) => u[ref.field] === sent[variant])
  const json = successJson(e)
  const got = json === undefined ? undefined : fullObject(op.object, objectOf(op, json))
  if (user === undefined || got === undefined || !("username" in got)) return []
  return got.username === user.username
    ? [passes(["echo.password-user"])]
    : [
        fail(
          "echo.password-user",
          "another user's password",
          `a password for the user with ${variant} ${show(sent[variant])} came back for the username ${show(got.username)}; that user's username is ${show(user.username)}`,
          e,
          `username = ${show(got.username)}`
        )
      ]
}

/** One create of a burst that made an object: the object its answer returned, its id, the body it was sent (keys normalized), its exchange. */
export interface Made {
  readonly object: Record<string, unknown>
  readonly id: string
  readonly sent: Body
  readonly e: Exchange
}

/** A created object read back afterwards: by which reader, as read (`undefined` when not found), and the exchange that shows it. */
export interface Found {
  readonly reader: string
  readonly object: Record<string, unknown> | undefined
  readonly exchange: Exchange | undefined
}

/** The creates of a burst (bodies sent, answers in order) that made an object with an id; a create refused is the valid family's to judge. */
export const madeObjects = (
  op: Op,
  bodies: ReadonlyArray<Body>,
  answers: ReadonlyArray<Exchange>
): ReadonlyArray<Made> =>
  answers.flatMap((e, i) => {
    const json = successJson(e)
    const object = json === undefined ? undefined : fullObject(op.object, objectOf(op, json))
    return object !== undefined && typeof object.id === "string" && object.id !== ""
      ? [{ object, id: object.id, sent: Shape.normalizeKeys(bodies[i]) as Body, e }]
      : []
  })

/**
 * Whether two create requests make two objects whatever a server keeps unique: their names differ
 * (names are made unique at send time), or the objects they reference do (two links between other
 * objects); requests that differ only in other values (a flag) might be read as one object.
 */
const differentObjects = (op: Op, a: Body, b: Body): boolean =>
  (typeof a.name === "string" && typeof b.name === "string" && a.name !== b.name) ||
  op.references.some((k) => typeof a[k] === "string" && typeof b[k] === "string" && a[k] !== b[k])

/** The value at a dotted path of `storedDifference`. */
const pathValue = (o: Record<string, unknown>, path: string): unknown =>
  path
    .split(/\.|\[(\d+)\]/)
    .filter((p) => p !== undefined && p !== "")
    .reduce<unknown>(
      (v, k) => (Array.isArray(v) ? v[Number(k)] : (v as Record<string, unknown> | undefined)?.[k]),
      o
    )

/**
 * The trace of creates sent in quick succession (`burst`: back to back, or at once), then each
 * object made read back (`reads`, by id): each returns what it was sent, each gets its own id, and
 * each is found as its create returned it (echo.create-stored). Live traffic: the proxy sees each
 * create on its own and cannot know which reads follow which burst; it judges each create's echo
 * (`echo`), not echo.create-stored.
 */
export const createdInSuccession = (
  op: Op,
  burst: string,
  bodies: ReadonlyArray<Body>,
  answers: ReadonlyArray<Exchange>,
  made: ReadonlyArray<Made>,
  reads: ReadonlyMap<string, Found>
): ReadonlyArray<Outcome> => {
  // Each returns what it was sent, not another's object (a create answered from shared state).
  const out: Array<Outcome> = answers
    .flatMap((e, i) => createEcho(op, Shape.normalizeKeys(bodies[i]) as Body, e))
    .filter((v): v is Outcome => "ok" in v && !v.ok)
    .slice(0, 1)
  // Each its own id: two creates of different objects answered with one id name one object, not two.
  for (let i = 1; i < made.length; i++) {
    const twin = made
      .slice(0, i)
      .find((m) => m.id === made[i]!.id && differentObjects(op, m.sent, made[i]!.sent))
    if (twin !== undefined) {
      out.push(
        fail(
          "echo.create-stored",
          `creates ${burst} share an id`,
          `${made.length} creates of ${op.method} sent ${burst} were answered with the same id ${JSON.stringify(twin.id)} for two different objects`,
          made[i]!.e,
          `id = ${JSON.stringify(twin.id)}`
        )
      )
      break
    }
  }
  // Each found afterwards as its create returned it.
  for (const m of made) {
    const found = reads.get(m.id)
    if (found === undefined) continue
    if (found.object === undefined) {
      out.push(
        fail(
          "echo.create-stored",
          `created ${burst}, ${found.reader} does not find it`,
          `${found.reader} does not find ${m.id}, one of ${made.length} objects created ${burst}`,
          found.exchange
        )
      )
      break
    }
    const d = storedDifference(m.object, found.object)
    if (d !== undefined) {
      out.push(
        fail(
          "echo.create-stored",
          `created ${burst}, ${found.reader} shows another object`,
          `${found.reader} shows ${m.id}, one of ${made.length} objects created ${burst}, with ${d} ${show(pathValue(found.object, d))}; its create returned ${show(pathValue(m.object, d))}`,
          found.exchange,
          `${d} = ${show(pathValue(found.object, d))}`
        )
      )
      break
    }
  }
  return out.length > 0 ? out : [passes(["echo.create-stored"])]
}

/**
 * echo.create: a create that sent a value a server may refuse (`what`, at `path`: a string at a
 * limit, a value outside a format, an enum left out for its default) and was served stores exactly
 * that value. A create of a taken link or not served is not judged here. Live traffic: the proxy
 * judges every create's echo so (`echo`).
 */
export const createdExactly = (
  op: Op,
  e: Exchange,
  path: FieldPath,
  value: unknown,
  what: string
): Outcome | undefined => storedExactly("echo.create", op, e, path, value, what)

/** The oracles of this check, in the order the registry applies them. */
/**
 * The trace of a create (`created`, the object it returned) and the reads after it: the Gets of its
 * kind (`gets`) and, in each List of its kind, the object found by its id (`found`).
 */
export interface CreatedTrace {
  readonly id: string
  readonly created: Record<string, unknown>
  readonly gets: ReadonlyArray<{ readonly get: Op; readonly exchange: Exchange }>
  readonly lists: ReadonlyArray<{
    readonly list: Op
    readonly found: { readonly item: Record<string, unknown> | undefined; readonly walk: Walk }
  }>
}

/**
 * echo.create-stored: the Gets and the Lists of its kind show a created object as the create
 * returned it (a Get's not_found, a List that ends without it, breaks it too). Live traffic: the
 * proxy does not know that nothing else wrote between a create and a later read, so it does not
 * judge this.
 */
export const createdThenRead = (t: CreatedTrace): ReadonlyArray<Outcome> => {
  const { created, id } = t
  const out: Array<Outcome> = []
  let judged = false
  const differs = (reader: string, got: Record<string, unknown>, ex: Exchange | undefined) => {
    const d = storedDifference(created, got)
    judged = true
    if (d !== undefined) {
      out.push(
        fail(
          "echo.create-stored",
          `${reader} shows another object`,
          `${reader} shows the created object ${id} with ${d} ${show(at(got, d))}, the create returned ${show(at(created, d))}`,
          ex,
          `${d} = ${show(at(got, d))}`
        )
      )
    }
  }
  for (const { exchange: eg, get } of t.gets) {
    const got = objectIn(get, eg)
    if (got !== undefined) differs(get.method, got, eg)
    else if (codeOf(eg) === "not_found")
      out.push(
        fail(
          "echo.create-stored",
          `${get.method} does not find it`,
          `${get.method} of the created object ${id} answered not_found`,
          eg
        )
      )
  }
  for (const { found, list } of t.lists) {
    const listed = found.item === undefined ? undefined : fullObject(list.object, found.item)
    if (listed !== undefined) differs(list.method, listed, lastOf(found.walk))
    else if (found.walk.ended)
      out.push(
        fail(
          "echo.create-stored",
          `${list.method} misses the created object`,
          `${list.method} does not list the created object ${id}`,
          lastOf(found.walk)
        )
      )
  }
  return out.length > 0 ? out : judged ? [pass("create-echo", ["echo.create-stored"])] : []
}

/**
 * echo.create-stored: a List walked to its last page with a request that selects every item
 * (`returned`: the ids of every page) holds every object the run created of its kind before the
 * walk's first request (`known`, as the model of the run saw them, none written while it ran);
 * `undefined` when there is none. Live traffic: the proxy and the HAR judge keep the same model
 * of the objects created through them.
 */
export const createdListed = (
  op: Op,
  returned: ReadonlySet<string>,
  known: ReadonlyArray<Record<string, unknown>>,
  e: Exchange
): Outcome | undefined => {
  if (known.length === 0) return undefined
  const missing = known.map((o) => String(o.id)).filter((id) => !returned.has(id))
  return missing.length === 0
    ? passes(["echo.create-stored"])
    : fail(
        "echo.create-stored",
        `${op.method} walk misses created objects`,
        `walking every page of ${op.method} with no search, filter or parent left out ${missing.length} of the ${known.length} objects the run created before it (e.g. ${missing[0]})`,
        e
      )
}

export const oracles: ReadonlyArray<ExchangeOracle> = [echo]
