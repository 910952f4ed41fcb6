/**
 * stable-reads: a Get returns the object its id names (a Get by `keyId` only keys with that id),
 * and two reads of one object agree under what a faithful server may do.
 */
import * as Option from "effect/Option"
import { type Body, objectOf, type Op } from "../context.js"
import { type Exchange, okJson } from "../http.js"
import { asRecord } from "../json.js"
import { itemsOf } from "../listWalk.js"
import { jsonDifference, sortedAnswer, storedDifference } from "../objectDifference.js"
import { fail, type Outcome, pass, passes } from "../outcome.js"
import { answerExcerpt, statusOf, summary } from "../answerReading.js"
import { defined, type ExchangeOracle, onSuccess, successJson } from "../exchangeOracle.js"

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
  const diff = jsonDifference(sortedAnswer(ja), sortedAnswer(jb))
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

/**
 * reads.list-agrees: the object a Get returns (`got`) is the item a List of its kind showed for the
 * same id (`item`, on the page `listed`), compared as stored objects are (zero values and absent
 * fields alike, secrets aside, times as instants). An item whose `updatedAt` is not the Get's was
 * written between the two reads: not judged. Live traffic: the proxy cannot know that nothing was
 * written between a List and a Get, so it does not judge this.
 */
export const listedAlike = (
  op: Op,
  got: Exchange,
  list: Op,
  item: Record<string, unknown>,
  listed: Exchange
): Outcome | undefined => {
  const object = asRecord(objectOf(op, successJson(got)))
  if (object === undefined || object.id !== item.id || object.updatedAt !== item.updatedAt)
    return undefined
  const d = storedDifference(object, item)
  return d === undefined
    ? passes(["reads.list-agrees"])
    : fail(
        "reads.list-agrees",
        `${list.method} differs at ${d}`,
        `${list.method} showed the object ${JSON.stringify(item.id)} otherwise than ${op.method} read right after it, with the same updatedAt (first difference at ${d})`,
        listed,
        `at ${d}`
      )
}

/** The items of a read's answer (a List's page, a Get's object or objects), in order. */
const readItems = (op: Op, e: Exchange): ReadonlyArray<unknown> => {
  const json = Option.getOrUndefined(Option.flatMap(e.response, (r) => r.json))
  if (op.kind === "list") return itemsOf(op, json)
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
 * reads.stable: a read served in another form than a plain POST (`name`: a Connect GET, a
 * compressed body, an answer asked for compressed) gets the same answer as the plain POST of the
 * same message sent right after it (`plain`; one not served 200 compares nothing). Live traffic:
 * the proxy never sees the same read in two forms back to back, so it does not judge this.
 */
export const sameAsPost = (op: Op, name: string, e: Exchange, plain: Exchange): Outcome => {
  const d = statusOf(plain) === 200 ? answerDifference(op, e, plain) : undefined
  return d === undefined
    ? pass("stable-reads", ["reads.stable"])
    : fail(
        "reads.stable",
        `${name}: another answer than the POST's`,
        `${name} of ${op.method} was served another answer than the plain POST of the same message, sent right after it (${d})`,
        e,
        answerExcerpt(e)
      )
}

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [named]
