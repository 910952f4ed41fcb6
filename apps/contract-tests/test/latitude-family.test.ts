import { ReferenceServer } from "@data-access/reference-server"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as ContractTests from "../src/ContractTests.js"
import { answer, connectError, forward, front } from "./front.js"

// Where decisions.md section 10 lets a server choose, the runner still sends requests, and flags
// only what no choice gives: here a server in front of the faithful one that fails on a long
// name in one operation and stores it cut in the others, serves a GET without a message, fails
// on a body of 1 to 2 MiB and refuses one of 2 to 4 MiB with invalid_argument, refuses a cursor
// used without the order it was made with as not_found and fails on one used with another
// search, filter or spaceId, and refuses an identity link of kind resource_hostname to a
// resource with invalid_argument and fails on one to a connector hostname; it also serves a
// Connect GET of ListSatellites with an empty page whatever the message asks, refuses GetResource
// sent as `application/json; charset=utf-8` (415), and refuses a permission's name taken before
// with invalid_argument.

const KEY = ReferenceServer.DEFAULT_API_KEY
const MiB = 1024 * 1024

/** What a walk depends on: a cursor used with another is used with another request than the one that made it. */
const walkOf = (body: Record<string, unknown> | undefined) =>
  JSON.stringify([
    body?.order ?? "asc",
    body?.search ?? "",
    body?.filter ?? null,
    body?.spaceId ?? ""
  ])

/** A server in front of the reference server, with its faults. */
const faulty = (inner: string) => {
  // The walk each cursor relayed was made for.
  const cursors = new Map<string, string>()
  const names = new Set<string>()
  return front(
    inner,
    (req) => {
      if (req.method === "GET" && !req.url.includes("message=")) return answer(200, {})
      if (req.method === "GET" && req.url.includes("/ListSatellites?"))
        return answer(200, { satellites: [], listMetadata: { count: 0 } })
      if (
        req.url.endsWith("/GetResource") &&
        req.headers["content-type"] === "application/json; charset=utf-8"
      )
        return connectError(415, "unknown", "application/json only")
      if (
        req.url.endsWith("/CreatePermission") &&
        req.method === "POST" &&
        req.headers["x-api-key"] === KEY
      ) {
        const name = req.json?.name
        if (req.headers["content-type"] === "application/json" && typeof name === "string") {
          if (names.has(name)) return connectError(400, "invalid_argument", "name: taken")
          names.add(name)
        }
      }
      const body = req.json
      // UpdateSatellite fails on a name over 255 characters; other operations store it cut.
      const long = typeof body?.name === "string" && body.name.length > 255
      if (long && req.url.endsWith("/UpdateSatellite"))
        return connectError(500, "internal", "value too long")
      if (req.text.length > MiB && req.text.length <= 4 * MiB) {
        return req.text.length <= 2 * MiB
          ? connectError(500, "internal", "body too large")
          : connectError(400, "invalid_argument", "body too large")
      }
      const made = typeof body?.cursor === "string" ? cursors.get(body.cursor) : undefined
      if (made !== undefined && made !== walkOf(body)) {
        return JSON.parse(made)[0] !== (body?.order ?? "asc")
          ? connectError(404, "not_found", "cursor expired")
          : connectError(500, "internal", "cursor mismatch")
      }
      if (
        req.url.endsWith("/CreateNativeUserIdentityLink") &&
        body?.identityType === "resource_hostname"
      ) {
        return String(body.identityId).startsWith("hostname_")
          ? connectError(500, "internal", "no such resource")
          : connectError(400, "invalid_argument", "identityId: not a hostname")
      }
      return long
        ? forward({ text: JSON.stringify({ ...body, name: (body!.name as string).slice(0, 255) }) })
        : forward()
    },
    (req, status, text) => {
      if (status !== 200 || !req.url.includes("/List")) return
      const next = (JSON.parse(text) as { listMetadata?: { nextCursor?: string } }).listMetadata
        ?.nextCursor
      if (typeof next === "string" && next !== "") cursors.set(next, walkOf(req.json))
    }
  )
}

describe("the latitude family", () => {
  it.scoped(
    "flags a 5xx or another code where a server may choose, and what no choice gives; the faithful server gets none, with any switch",
    () =>
      Effect.gen(function* () {
        const inner = yield* ReferenceServer.start({})
        const url = yield* faulty(inner.url)
        const operations = [
          "CreatePermission",
          "UpdateSatellite",
          "GetResource",
          "ListScenarioMonitors",
          "ListSatellites",
          "CreateNativeUserIdentityLink"
        ]
        const options = {
          apiKey: Redacted.make(KEY),
          fixtures: inner.knownIds,
          seed: 2,
          examples: 2,
          createsPerOperation: 10,
          rateLimit: undefined,
          concurrency: 4,
          shrinkBudget: 0,
          operations
        }
        const report = yield* ContractTests.run({ ...options, baseUrl: url })
        const found = report.findings.map((f) => `${f.operation} ${f.rule}`)
        expect(found).toEqual(
          expect.arrayContaining([
            "CreatePermission echo.create",
            "GetResource protocol.method",
            "UpdateSatellite errors.no-internal-for-client-faults",
            // 1.5 MiB fails, 3.5 MiB is refused with invalid_argument.
            "ListScenarioMonitors errors.no-internal-for-client-faults",
            "ListScenarioMonitors protocol.body-limit",
            // A cursor used without its order is not_found; without its search, filter or spaceId, a 5xx.
            "ListSatellites fields.valid-accepted",
            "ListSatellites errors.no-internal-for-client-faults",
            // An identity link to a connector hostname fails; to a resource, invalid_argument.
            "CreateNativeUserIdentityLink errors.no-internal-for-client-faults",
            "CreateNativeUserIdentityLink errors.unknown-reference",
            // A Connect GET answered with another page than the POST of its message.
            "ListSatellites reads.stable",
            "GetResource protocol.content-type",
            // A name taken refused with invalid_argument, not already_exists.
            "CreatePermission fields.valid-accepted"
          ])
        )
        expect(
          report.findings.find(
            (f) => f.operation === "CreatePermission" && f.rule === "fields.valid-accepted"
          )?.message
        ).toContain("name taken")
        expect(
          report.findings.find(
            (f) => f.operation === "ListScenarioMonitors" && f.rule === "protocol.body-limit"
          )?.message
        ).toContain("3.5 MiB")
        expect(
          report.findings.find(
            (f) => f.operation === "ListSatellites" && f.rule === "fields.valid-accepted"
          )?.message
        ).toContain("cursor")
        const faithful = yield* ContractTests.run({ ...options, baseUrl: inner.url })
        expect(faithful.findings.map((f) => f.message)).toEqual([])
        // The switches of the rows these probes explore, alone and with every other.
        for (const latitude of [
          ["body-limit-1mib"],
          ["cursor-bound"],
          ["identity-any-kind"],
          "all"
        ] as const) {
          const server = yield* ReferenceServer.start({ latitude })
          const switched = yield* ContractTests.run({
            ...options,
            fixtures: server.knownIds,
            baseUrl: server.url
          })
          expect(
            switched.findings.map((f) => f.message),
            String(latitude)
          ).toEqual([])
        }
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
