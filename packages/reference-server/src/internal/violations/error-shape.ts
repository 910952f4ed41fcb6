/**
 * The violations of the `error-shape` check: the records whose rule `ContractRules` gives to that
 * check, and the helpers only they use.
 *
 * @internal
 */
import { RateLimit } from "@data-access/schema"
import * as Effect from "effect/Effect"
import * as ConnectError from "../connectError.js"
import type { StoreService } from "../../Store.js"
import { Fail } from "../pipeline-types.js"
import { LATIN1_JSON, withByteOrderMark, withContentType, withOutput } from "../violationHooks.js"
import { collectionOf } from "../operationCollections.js"
import { violation } from "../violationRecord.js"

const RATE_LIMITED = "rate limit reached; retry after the Retry-After delay"

/** Under rate-limit-without-retry-after, every 20th request is rate limited. */
const RATE_LIMIT_EVERY = 20

/** unknown-reference-accepted: an id that names nothing reads as an object with only that id. */
const lenientStore = (store: StoreService): StoreService => ({
  ...store,
  get: (c, id) => Effect.map(store.get(c, id), (found) => found ?? { id })
})

export const invalidErrorBody = violation({
  name: "invalid-error-body",
  rule: "errors.connect-body",
  description: 'Error bodies are `{"error": "..."}` without a Connect `code`.',
  hooks: {
    writeError: (next) => (error, headers, status) =>
      withOutput(next(error, headers, status), (out) => ({
        ...out,
        body: JSON.stringify({ error: error.message })
      }))
  }
})

export const wrongStatusForCode = violation({
  name: "wrong-status-for-code",
  rule: "errors.status-agrees",
  description:
    "Errors carry an HTTP status that disagrees with their code (400 becomes 409, anything else 400).",
  hooks: {
    writeError: (next) => (error, headers, status) =>
      withOutput(next(error, headers, status), (out) => ({
        ...out,
        status: out.status === 400 ? 409 : 400
      }))
  }
})

export const rateLimitWithoutRetryAfter = violation({
  name: "rate-limit-without-retry-after",
  rule: "errors.retry-after",
  description:
    "Every 20th request to a known route is rate limited: resource_exhausted (429) without `Retry-After`.",
  hooks: {
    admit: (next) => {
      let counter = 0
      return () =>
        ++counter % RATE_LIMIT_EVERY === 0
          ? new Fail(ConnectError.make("resource_exhausted", RATE_LIMITED))
          : next()
    }
  }
})

export const rateLimitResetDelta = violation({
  name: "rate-limit-reset-delta",
  rule: "errors.rate-limit-headers",
  description:
    "Every answer carries rate-limit headers whose `X-Ratelimit-Reset` is the seconds left in the window (`60`), not a Unix time.",
  hooks: {
    writeSuccess: (next) => (headers, body) =>
      withOutput(next(headers, body), (out) => ({
        ...out,
        headers: { ...out.headers, ...RateLimit.headers(100, 99, 60) }
      })),
    writeError: (next) => (error, headers, status) =>
      withOutput(next(error, headers, status), (out) => ({
        ...out,
        headers: { ...out.headers, ...RateLimit.headers(100, 99, 60) }
      }))
  }
})

export const unknownIdInvalid = violation({
  name: "unknown-id-invalid",
  rule: "errors.unknown-id",
  description:
    "A Get or Update whose `id` names nothing answers invalid_argument instead of not_found.",
  hooks: {
    handler: (next, op) => {
      const c = collectionOf(op)
      if ((op.kind !== "get" && op.kind !== "update") || c === undefined) return next
      return (request, ctx) =>
        typeof request.id !== "string"
          ? next(request, ctx)
          : Effect.flatMap(ctx.store.get(c, request.id), (found) =>
              found === undefined
                ? Effect.fail(
                    ConnectError.make(
                      "invalid_argument",
                      `id: ${JSON.stringify(request.id)} is not a valid id`
                    )
                  )
                : next(request, ctx)
            )
    }
  }
})

export const unknownReferenceAccepted = violation({
  name: "unknown-reference-accepted",
  rule: "errors.unknown-reference",
  description:
    "Referenced ids that name nothing are accepted (CreateConnector `spaceId`, CreateDataDiscoveryConfiguration `resourceId` / `nativeUserId`, CreateNativeUserIdentityLink `nativeUserId` / `identityId`, UpdateSatellite `spaceId`); CreateHumanUserPassword for an unknown user answers for the first user.",
  hooks: {
    handler: (next, op) => {
      const oneOf = op.oneOf
      if (oneOf !== undefined) {
        // The user the request names, or the first one.
        return (request, ctx) =>
          Effect.flatMap(ctx.store.all("users"), (users) => {
            const first = users[0]
            const key = oneOf.find((k) => request[k] !== undefined)
            const known = key !== undefined && users.some((u) => u[key] === request[key])
            return first === undefined || known ? next(request, ctx) : next({ id: first.id }, ctx)
          })
      }
      return op.references.length === 0
        ? next
        : (request, ctx) => next(request, { ...ctx, store: lenientStore(ctx.store) })
    }
  }
})

export const errorByteOrderMark = violation({
  name: "error-byte-order-mark",
  rule: "errors.connect-body",
  description:
    "Error bodies begin with a UTF-8 byte order mark (EF BB BF), which RFC 8259 forbids in JSON text on the wire and a lenient decoder drops.",
  hooks: {
    writeError: (next) => (error, headers, status) =>
      withByteOrderMark(next(error, headers, status))
  }
})

export const errorCharsetLatin1 = violation({
  name: "error-charset-latin1",
  rule: "errors.connect-body",
  description:
    "Error responses say `Content-Type: application/json; charset=iso-8859-1` (the body still UTF-8): connect-es then reads the code from the HTTP status alone, the Connect error body unread.",
  hooks: {
    writeError: (next) => (error, headers, status) =>
      withContentType(next(error, headers, status), LATIN1_JSON)
  }
})

/** ids-match-loosely: an id as a loose lookup reads it, surrounding spaces and the case of letters ignored (a case-insensitive, space-padding collation). */
const looseId = (id: string): string => id.trim().toLowerCase()

/** ids-match-loosely: a store that finds an object by its id read loosely when no object has the id sent. */
const looseStore = (store: StoreService): StoreService => {
  const canonical = (c: Parameters<StoreService["get"]>[0], id: string) =>
    Effect.flatMap(store.get(c, id), (found) =>
      found !== undefined
        ? Effect.succeed(id)
        : Effect.map(
            store.all(c),
            (all) =>
              all.find((o) => typeof o.id === "string" && looseId(o.id) === looseId(id))?.id as
                string | undefined
          )
    )
  return {
    ...store,
    get: (c, id) =>
      Effect.flatMap(canonical(c, id), (found) =>
        found === undefined ? Effect.succeed(undefined) : store.get(c, found)
      ),
    modify: (c, id, f) =>
      Effect.flatMap(canonical(c, id), (found) =>
        found === undefined ? Effect.succeed(undefined) : store.modify(c, found, f)
      )
  }
}

export const idsMatchLoosely = violation({
  name: "ids-match-loosely",
  rule: "errors.unknown-id",
  description:
    "A Get or Update finds its object by an id compared without regard to case or surrounding spaces (a case-insensitive collation): an id that names nothing, one letter's case or a space away from an existing id, reads or writes that object.",
  hooks: {
    handler: (next, op) =>
      (op.kind !== "get" && op.kind !== "update") || op.lookupKey !== undefined
        ? next
        : (request, ctx) => next(request, { ...ctx, store: looseStore(ctx.store) })
  }
})
