/**
 * stable-reads: a Get returns the object its id names (a Get by `keyId` only keys with that id),
 * and two reads of one object agree under what a faithful server may do.
 */
import { Secrets, Timestamp } from "@data-access/schema"
import { type Body, objectOf, type Op } from "../context.js"
import { type Exchange, okJson } from "../http.js"
import { asRecord, canonical, firstDifference, isZero, sorted } from "../json.js"
import { fail, type Outcome, passes } from "../outcome.js"
import { statusOf, summary, timestampFields } from "./answer.js"
import { defined, type ExchangeOracle, onSuccess, successJson } from "./oracle.js"

/**
 * A Get returns the object its id names; GetEncryptionKeysByKeyId only keys with the `keyId` sent
 * (an empty array when none has it).
 */
export const namedRead = (op: Op, sent: Body, e: Exchange): Outcome | undefined => {
  const json = successJson(e)
  if (op.kind !== "get" || json === undefined) return undefined
  const got = objectOf(op, json)
  if (typeof sent.id === "string") {
    const id = asRecord(got)?.id
    if (id === undefined) return undefined
    return id === sent.id
      ? passes(["reads.named-object"])
      : fail(
          "reads.named-object",
          "another object",
          `a Get of ${JSON.stringify(sent.id)} returned the object ${JSON.stringify(id)}`,
          e,
          `id = ${JSON.stringify(id)}`
        )
  }
  if (typeof sent.keyId === "string" && Array.isArray(got)) {
    const other = got
      .map(asRecord)
      .find((k) => k !== undefined && typeof k.keyId === "string" && k.keyId !== sent.keyId)
    return other === undefined
      ? passes(["keys.by-key-id"])
      : fail(
          "keys.by-key-id",
          "a key with another keyId",
          `keyId ${JSON.stringify(sent.keyId)} returned a key whose keyId is ${JSON.stringify(other.keyId)}`,
          e,
          `keyId = ${JSON.stringify(other.keyId)}`
        )
  }
  return undefined
}

const named = onSuccess(
  "named-read",
  ["reads.named-object", "keys.by-key-id"],
  (op, sent, e) => defined(namedRead(op, sent, e)),
  "stable-reads"
)

/**
 * The trace of the same Get sent twice in a row with nothing written between (`sent` its body,
 * keys normalized): the object the first names, and the same answer twice (reads.stable: a status
 * that changes, or two objects that differ). Live traffic: the proxy cannot know that nothing was
 * written between two reads, so it judges only the first's named object (`named`), not reads.stable.
 */
export const readTwice = (
  op: Op,
  sent: Body,
  first: Exchange,
  second: Exchange
): ReadonlyArray<Outcome> => {
  const ja = okJson(first)
  const jb = okJson(second)
  if (ja === undefined || jb === undefined) {
    if (statusOf(first) !== statusOf(second))
      return [
        fail(
          "reads.stable",
          "status differs",
          `the same Get answered ${summary(first)} then ${summary(second)}`,
          second
        )
      ]
    return []
  }
  const diff = firstDifference(sorted(ja), sorted(jb))
  return [
    ...defined(namedRead(op, sent, first)),
    diff === undefined
      ? passes(["reads.stable"])
      : fail(
          "reads.stable",
          `differs at ${diff.replace(/\[\d+\]/g, "[]")}`,
          `the same Get twice gave different objects (first difference at ${diff})`,
          second,
          `at ${diff}`
        )
  ]
}

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [named]

const fractionDigits = (s: string) => /\.(\d+)/.exec(s)?.[1]?.length ?? 0

/** Two timestamps name the same instant, at the coarser precision of the two texts. */
const sameInstant = (a: string, b: string): boolean => {
  const ta = Timestamp.parse(a)
  const tb = Timestamp.parse(b)
  if (typeof ta === "string" || typeof tb === "string") return a === b
  const unit = 10n ** BigInt(9 - Math.min(fractionDigits(a), fractionDigits(b), 9))
  return Timestamp.toEpochNanos(ta) / unit === Timestamp.toEpochNanos(tb) / unit
}

/**
 * The first path where two reads of one object differ, under what a faithful server may do:
 * zero values and absent fields are the same, secret fields (decisions.md section 8) may be left
 * out, timestamps compare as instants, and a nested object with an id (a copy of another object,
 * which may change on its own) compares by its id, when both reads carry it.
 */
export const storedDifference = (
  a: unknown,
  b: unknown,
  path = "",
  key = ""
): string | undefined => {
  if (Secrets.fieldNames.has(key) || (isZero(a) && isZero(b))) return undefined
  const ra = asRecord(a) ?? (a === undefined && asRecord(b) !== undefined ? {} : undefined)
  const rb = asRecord(b) ?? (b === undefined && ra !== undefined ? {} : undefined)
  if (ra !== undefined && rb !== undefined) {
    if (path !== "" && ("id" in ra || "id" in rb))
      return !("id" in ra) || !("id" in rb) || ra.id === rb.id ? undefined : `${path}.id`
    for (const k of new Set([...Object.keys(ra), ...Object.keys(rb)])) {
      const d = storedDifference(ra[k], rb[k], path === "" ? k : `${path}.${k}`, k)
      if (d !== undefined) return d
    }
    return undefined
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return path
    for (let i = 0; i < a.length; i++) {
      const d = storedDifference(a[i], b[i], `${path}[${i}]`, key)
      if (d !== undefined) return d
    }
    return undefined
  }
  if (typeof a === "string" && typeof b === "string" && timestampFields.has(key))
    return sameInstant(a, b) ? undefined : path
  return canonical(a) === canonical(b) ? undefined : path || "(object)"
}
