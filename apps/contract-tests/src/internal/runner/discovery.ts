/**
 * What the target holds before the suites run: whether the API answers at its base URL at all (the
 * preflight: a run against a wrong URL stops with what came back instead of judging it), and the ids of the objects that exist (the fixtures, plus what every List
 * operation returns), gathered into the pools the generators draw from.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type KnownIds, Operations } from "@data-access/schema"
import type { Op } from "../context.js"
import { type Exchange, okJson, post, type Target } from "../http.js"
import * as Inspect from "../inspect.js"
import {
  fromKnownIds,
  type Pools,
  poolOfIdentifier,
  poolOfOperation,
  requestPropertyNames
} from "../pools.js"
import { allOps, RunFailure } from "./options.js"
import { isEncoded } from "../schemas.js"

/** The plan reads answers with the same reader. */
export { okJson }

/** The first List operation that needs nothing but `limit`: the probe of reachability and auth. */
export const probeOperation = allOps.find(
  (o) => o.kind === "list" && isEncoded(o.request.ast)({ limit: 1 })
)!

/** Whether an answer is Connect JSON: a JSON object body with a JSON content type. */
export const speaksConnect = (e: Exchange): boolean =>
  Option.match(e.response, {
    onNone: () => true,
    onSome: (r) =>
      Inspect.contentTypeIsJson(r) &&
      Option.isSome(r.json) &&
      typeof r.json.value === "object" &&
      r.json.value !== null &&
      !Array.isArray(r.json.value)
  })

/**
 * Whether an operation answered as one: Connect JSON, and not the 404 (or `unimplemented`) of a
 * route the server does not know, the answer a base URL with a wrong path prefix or port gets.
 */
const answered = (e: Exchange): boolean =>
  Option.isSome(e.response) &&
  speaksConnect(e) &&
  e.response.value.status !== 404 &&
  (okJson(e) !== undefined ||
    (Option.getOrUndefined(e.response.value.json) as { code?: unknown } | undefined)?.code !==
      "unimplemented")

/** An answer in a few words: its status, content type and the start of its body. */
const answerText = (e: Exchange): string =>
  Option.match(e.response, {
    onNone: () => e.transportError ?? "no answer",
    onSome: (r) => {
      const body = r.text.replace(/\s+/g, " ").trim()
      const start = body.length > 160 ? `${body.slice(0, 160)}…` : body
      return `HTTP ${r.status}${r.headers["content-type"] === undefined ? "" : ` (${r.headers["content-type"]})`}${start === "" ? "" : ` ${start}`}`
    }
  })

/** Why a request got no answer, in plain words, from the transport's error text. */
const transportText = (error: string, host: string): string =>
  /ECONNREFUSED/.test(error)
    ? `the connection to ${host} was refused: nothing listens there (check the port)`
    : /ENOTFOUND|EAI_AGAIN/.test(error)
      ? `the host name of ${host} does not resolve (check its spelling)`
      : /CERT|certificate|SSL|TLS|tls|self.signed|handshake/.test(error)
        ? `the TLS handshake with ${host} failed (${/SSL routines:[^:]*:([^:]+)/.exec(error)?.[1] ?? error.trim()}): check https:// against http://, the CA (--ca-cert) and the client certificate`
        : /does not match the HTTP\/1\.1 protocol/.test(error)
          ? `${host} did not answer in HTTP/1.1 (${error}): a server that speaks HTTP/2 only without TLS (h2c, as connect-node's http2.createServer serves) needs --http2-prior-knowledge`
          : /ECONNRESET|socket hang up|other side closed/.test(error)
            ? `${host} closed the connection before answering (${error}): check https:// against http:// and the port`
            : error

/**
 * The preflight: the probe operation, and when it does not answer as one, every other read
 * operation until one does. A server that answers some operations is judged; a base URL where
 * none answers (a wrong path prefix or port, a host that is not the API), that cannot be reached
 * or is not a URL stops the run, naming the URL, what came back and what to check. The probe's
 * exchange when the run can go on.
 */
export const preflight = (target: Target, scrub: (text: string) => string) =>
  Effect.gen(function* () {
    const url = target.baseUrl
    const fail = (reason: RunFailure["reason"], message: string) =>
      new RunFailure({ reason, message: scrub(message) })
    const parsed = URL.canParse(url) ? new URL(url) : undefined
    if (parsed === undefined || (parsed.protocol !== "http:" && parsed.protocol !== "https:"))
      return yield* fail(
        "BadOptions",
        `the base URL ${JSON.stringify(url)} is not an http:// or https:// URL (for example http://127.0.0.1:8080)`
      )
    const send = (op: Op, body: Record<string, unknown>) =>
      target.send(post(op.path, body)).pipe(Effect.orDie)
    const probed = yield* send(probeOperation, { limit: 1 })
    if (Option.isNone(probed.response))
      return yield* fail(
        "Unreachable",
        `the target ${url} cannot be reached: ${transportText(probed.transportError ?? "no answer", parsed.host)}`
      )
    if (probed.response.value.status === 401)
      return yield* fail(
        "Unauthenticated",
        `every call is unauthenticated: the API key is not accepted by ${url}`
      )
    if (answered(probed)) return probed
    const others = allOps.filter(
      (o) => o !== probeOperation && (o.kind === "list" || o.kind === "get")
    )
    for (const op of others) if (answered(yield* send(op, {}))) return probed
    return yield* fail(
      "Unreachable",
      `no operation of the API answers at ${url}: ${probeOperation.method} (POST ${url}${probeOperation.path}) got ${answerText(probed)}, and none of the ${others.length} other read operations answered as one either. Check the base URL: its path prefix (the operations are at <base URL>/${Operations.PACKAGE}.<Service>/<Method>), its port and its host`
    )
  })

/** Every item of a List operation, page after page (at most `readPages` pages of 500). */
const listAll = (target: Target, op: Op, body: Record<string, unknown>, readPages: number) =>
  Effect.gen(function* () {
    const items: Array<Record<string, unknown>> = []
    let cursor: string | undefined
    for (let page = 0; page < readPages; page++) {
      const sent = yield* Effect.either(
        target.send(
          post(
            op.path,
            cursor === undefined ? { ...body, limit: 500 } : { ...body, limit: 500, cursor }
          )
        )
      )
      if (sent._tag === "Left") break
      const json = okJson(sent.right) as Record<string, unknown> | undefined
      const page_ = json?.[op.itemField ?? ""]
      if (!Array.isArray(page_)) break
      items.push(...page_.filter((x) => x !== null && typeof x === "object"))
      const next = (json?.listMetadata as Record<string, unknown> | undefined)?.nextCursor
      if (typeof next !== "string" || next === "") break
      cursor = next
    }
    return items
  })

/** The request field a List operation cannot do without (`resourceId` of ListNativeUsers), if any. */
const requiredReference = (op: Op): string | undefined =>
  requestPropertyNames(op).find(
    (p) => p !== "limit" && /Id$/.test(p) && isEncoded(op.request.ast)({ limit: 1 }) === false
  )

/** Ids by pool, growing without duplicates. */
const idCollector = (initial: Readonly<Record<string, ReadonlyArray<string>>>) => {
  const ids: Record<string, Array<string>> = Object.fromEntries(
    Object.entries(initial).map(([k, v]) => [k, [...v]])
  )
  const add = (pool: string | undefined, id: unknown) => {
    if (pool === undefined || typeof id !== "string" || id === "") return
    const list = (ids[pool] ??= [])
    if (!list.includes(id)) list.push(id)
  }
  return { ids, add }
}

/** Discovery: every List operation adds the ids it returns to the pools. */
export const discover = (
  target: Target,
  fixtures: KnownIds.KnownIds | undefined,
  readPages: number,
  concurrency: number
) =>
  Effect.gen(function* () {
    const base = fromKnownIds(fixtures ?? ({} as KnownIds.KnownIds))
    const { add, ids } = idCollector(base.ids)
    const byResource = new Map<string, Array<string>>()
    // Lists without required references first, then ListNativeUsers-like lists per reference;
    // the lists of each step are read up to `concurrency` at once, their ids added in the table's order.
    const lists = allOps.filter((o) => o.kind === "list")
    const unscoped = lists.filter((op) => requiredReference(op) === undefined)
    const pages = yield* Effect.forEach(unscoped, (op) => listAll(target, op, {}, readPages), {
      concurrency
    })
    unscoped.forEach((op, i) => {
      const pool = poolOfOperation(op)
      for (const it of pages[i]!) {
        add(pool, it.id)
        add("spaces", it.spaceId)
      }
    })
    for (const op of lists) {
      const refField = requiredReference(op)
      if (refField === undefined) continue
      const pool = poolOfOperation(op)
      const refPool = poolOfIdentifier(refField.charAt(0).toUpperCase() + refField.slice(1, -2))
      const refIds = (refPool ? ids[refPool] : undefined)?.slice(0, 25) ?? []
      const scoped = yield* Effect.forEach(
        refIds,
        (refId) => listAll(target, op, { [refField]: refId }, readPages),
        { concurrency }
      )
      refIds.forEach((refId, i) => {
        for (const it of scoped[i]!) {
          add(pool, it.id)
          if (refField === "resourceId" && typeof it.id === "string")
            byResource.set(refId, [...(byResource.get(refId) ?? []), it.id])
        }
      })
    }
    const counts = Object.entries(ids)
      .filter(([, v]) => v.length > 0)
      .map(([k, v]) => `${k} ${v.length}`)
    const notes = [`known ids: ${counts.join(", ") || "none"}; users ${base.users.length}`]
    const pools: Pools = { ids, users: base.users, nativeUsersByResource: byResource }
    return { pools, notes }
  })
