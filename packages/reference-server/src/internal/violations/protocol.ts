/**
 * The violations of the `protocol` check: the records whose rule `ContractRules` gives to that
 * check, and the helpers only they use.
 *
 * @internal
 */
import { Operations } from "@data-access/schema"
import * as Effect from "effect/Effect"
import * as ConnectError from "../connectError.js"
import { deadlinePassed, Fail, type Check } from "../pipeline-types.js"
import { without, writesFields } from "../violationHooks.js"
import { violation } from "../violationRecord.js"

/** The body limit under the small-body-limit violation: 64 KiB. */
const SMALL_BODY_LIMIT = 64 * 1024

/** deadline-held: how long past its deadline a short-deadline call is answered. */
const HELD_PAST_DEADLINE_MILLIS = 800

/** long-deadline-passed: the deadlines answered as passed at once (from, to), in milliseconds. */
const LONG_DEADLINE_MILLIS = [1000, 30_000] as const

/** route-case-insensitive: the route paths by their lower-case form. */
const routesByLowerCase: ReadonlyMap<string, string> = new Map(
  Operations.all.map((o) => [o.path.toLowerCase(), o.path])
)

/** route-by-method-name: the route paths by method name alone. */
const routesByMethod: ReadonlyMap<string, string> = new Map(
  Operations.all.map((o) => [o.method, o.path])
)

export const wrongMethodAccepted = violation({
  name: "wrong-method-accepted",
  rule: "protocol.method",
  description: "Other HTTP methods than POST are served instead of answered 405.",
  hooks: { checks: without("method") }
})

export const unknownRouteWrongCode = violation({
  name: "unknown-route-wrong-code",
  rule: "protocol.unknown-route",
  description: "Unknown routes get 404 with the code not_found instead of unimplemented.",
  hooks: { unknownRoute: (next) => (path) => ConnectError.make("not_found", next(path).message) }
})

export const contentTypeIgnored = violation({
  name: "content-type-ignored",
  rule: "protocol.content-type",
  description:
    "Requests with another content type than `application/json` are served as JSON instead of answered 415.",
  hooks: { checks: without("content-type") }
})

export const versionHeaderIgnored = violation({
  name: "version-header-ignored",
  rule: "protocol.version-header",
  description:
    "CreatePermission is served without `Connect-Protocol-Version` (or with another value).",
  hooks: { checks: without("headers") }
})

export const smallBodyLimit = violation({
  name: "small-body-limit",
  rule: "protocol.body-limit",
  description: "Bodies over 64 KiB get resource_exhausted.",
  hooks: { bodyLimit: (next) => (configured) => Math.min(SMALL_BODY_LIMIT, next(configured)) }
})

export const deadlineWrongCode = violation({
  name: "deadline-wrong-code",
  rule: "protocol.deadline",
  description:
    "A call with `Connect-Timeout-Ms` under 100 answers canceled (499) at once; a passed deadline answers canceled instead of deadline_exceeded.",
  hooks: {
    deadline: (next) => (work, millis, started) =>
      millis < 100
        ? Effect.succeed(
            new Fail(ConnectError.make("canceled", `the deadline of ${millis} ms is too short`))
          )
        : Effect.map(next(work, millis, started), (answer) =>
            answer instanceof Fail && answer.error.code === "deadline_exceeded"
              ? new Fail(ConnectError.make("canceled", answer.error.message))
              : answer
          )
  }
})

export const deadlineHeld = violation({
  name: "deadline-held",
  rule: "protocol.deadline",
  description: `A call whose \`Connect-Timeout-Ms\` is under 1000 runs to its end and is answered normally ${HELD_PAST_DEADLINE_MILLIS} ms after its deadline passed, instead of deadline_exceeded.`,
  hooks: {
    deadline: (next) => (work, millis, started) =>
      millis < 1000
        ? Effect.zipLeft(work, Effect.sleep(millis + HELD_PAST_DEADLINE_MILLIS))
        : next(work, millis, started)
  }
})

export const longDeadlinePassed = violation({
  name: "long-deadline-passed",
  rule: "protocol.deadline-elapsed",
  description: `A call whose \`Connect-Timeout-Ms\` is ${LONG_DEADLINE_MILLIS[0]} ms to under ${LONG_DEADLINE_MILLIS[1]} ms answers deadline_exceeded at once, seconds before its deadline passes.`,
  hooks: {
    deadline: (next) => (work, millis, started) =>
      millis >= LONG_DEADLINE_MILLIS[0] && millis < LONG_DEADLINE_MILLIS[1]
        ? Effect.succeed(deadlinePassed(millis))
        : next(work, millis, started)
  }
})

export const mediaTypeExact = violation({
  name: "media-type-exact",
  rule: "protocol.content-type",
  description:
    "A `Content-Type` other than exactly `application/json` (with a `charset` parameter, or in capitals) is answered 415.",
  hooks: {
    checks: (next) => ({
      beforeBody: next.beforeBody.map((c): Check =>
        c.name !== "content-type"
          ? c
          : {
              name: c.name,
              run: (input, op) =>
                c.run(input, op) ??
                (input.headers["content-type"] === "application/json"
                  ? undefined
                  : { error: ConnectError.make("unknown", "use application/json"), status: 415 })
            }
      ),
      afterBody: next.afterBody
    })
  }
})

export const mediaTypeParameterRefused = violation({
  name: "media-type-parameter-refused",
  rule: "protocol.content-type",
  description:
    "A create or update whose `Content-Type` carries a parameter (`application/json; charset=utf-8`) is answered 415 once its body is read and found valid.",
  hooks: {
    checks: (next) => ({
      beforeBody: next.beforeBody,
      afterBody: [
        ...next.afterBody,
        {
          name: "content-type",
          run: (input, op) =>
            writesFields(op) && (input.headers["content-type"] ?? "").includes(";")
              ? { error: ConnectError.make("unknown", "use application/json"), status: 415 }
              : undefined
        }
      ]
    })
  }
})

export const routeCaseInsensitive = violation({
  name: "route-case-insensitive",
  rule: "protocol.unknown-route",
  description:
    "Routes match without regard to case: `/core.v1.resourceservice/getresource` is GetResource.",
  hooks: { resolve: (next) => (path) => routesByLowerCase.get(path.toLowerCase()) ?? next(path) }
})

export const routeByMethodName = violation({
  name: "route-by-method-name",
  rule: "protocol.unknown-route",
  description:
    "Routes match by the method name alone, the last segment of the path: the package and the service are not read (`/core.v2.SatelliteService/GetResource` is GetResource).",
  hooks: {
    resolve: (next) => (path) =>
      routesByMethod.get(/([^/]+)\/?$/.exec(path)?.[1] ?? "") ?? next(path)
  }
})

export const routeByPrefix = violation({
  name: "route-by-prefix",
  rule: "protocol.unknown-route",
  description:
    "A path that starts with a route's path is that route: `/core.v1.ResourceService/GetResources` and `/core.v1.ResourceService/GetResource/` are GetResource.",
  hooks: {
    resolve: (next) => (path) =>
      Operations.all.find((o) => path.startsWith(o.path))?.path ?? next(path)
  }
})

/** deadline-overflow: the longest deadline read right: its microseconds fit a signed 32-bit integer. */
const INT32_MICROS_MILLIS = 2_147_483

export const deadlineOverflow = violation({
  name: "deadline-overflow",
  rule: "protocol.deadline-elapsed",
  description: `A \`Connect-Timeout-Ms\` above ${INT32_MICROS_MILLIS} ms (its microseconds overflow a signed 32-bit integer, to a time already past) answers deadline_exceeded at once.`,
  hooks: {
    deadline: (next) => (work, millis, started) =>
      millis > INT32_MICROS_MILLIS
        ? Effect.succeed(deadlinePassed(millis))
        : next(work, millis, started)
  }
})
