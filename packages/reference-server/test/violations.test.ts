import { ContractRules, Operations } from "@data-access/schema"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Fs from "node:fs"
import { Faults, ReferenceServer } from "../src/index.js"
import { rpc, serverLayer, TestServer, walk } from "./helpers.js"
import {
  isErrorBody,
  permission,
  probes,
  satelliteById,
  satellites,
  type Server,
  sv
} from "./violation-probes.js"

const on = (s: Server, ...names: ReadonlyArray<ReferenceServer.ViolationName>) =>
  s.setFaults({ rules: names.map((name) => ({ fault: { _tag: "Violation" as const, name } })) })

layer(serverLayer())("the violation catalogue", (it) => {
  it.effect(
    "breaks every rule of the contract: each rule has a violation naming it, caught by its check, and each entry names a rule",
    () =>
      Effect.sync(() => {
        for (const r of ContractRules.rules) {
          const vs = ReferenceServer.violations.filter((v) => v.rule === r.id)
          expect(vs.length, `${r.id} has a violation`).toBeGreaterThan(0)
          for (const v of vs) expect(v.check, v.name).toBe(r.check)
        }
        for (const v of ReferenceServer.violations) {
          expect(ContractRules.isRuleId(v.rule), `${v.name} names a rule`).toBe(true)
          expect(v.check, v.name).toBe(ContractRules.get(v.rule).check)
          expect(Schema.is(Faults.CheckId)(v.check)).toBe(true)
        }
        expect(new Set(ReferenceServer.violations.map((v) => v.name)).size).toBe(
          ReferenceServer.violations.length
        )
      })
  )

  it.effect("is documented in the README, one row per violation with its rule and check", () =>
    Effect.sync(() => {
      const readme = Fs.readFileSync(new URL("../README.md", import.meta.url), "utf8")
      expect(ReferenceServer.violations.length).toBe(Object.keys(probes).length)
      for (const v of ReferenceServer.violations) {
        expect(v.description.length).toBeGreaterThan(10)
        expect(readme, `README documents ${v.name}`).toContain(
          `| \`${v.name}\` | \`${v.rule}\` | \`${v.check}\` |`
        )
      }
    })
  )

  for (const v of ReferenceServer.violations) {
    it.effect(`${v.name} (${v.rule}) is observable, and only while switched on`, () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        yield* server.setFaults(Faults.none)
        expect(yield* probes[v.name](server), "faithful").toBe(false)
        yield* on(server, v.name)
        const visible = yield* probes[v.name](server)
        yield* server.setFaults(Faults.none)
        expect(visible, "violated").toBe(true)
        expect(yield* probes[v.name](server), "faithful again").toBe(false)
      })
    )
  }
})

layer(serverLayer())("violations in detail", (it) => {
  it.effect("unknown-id-invalid: an unknown id is invalid_argument, a known one is served", () =>
    Effect.gen(function* () {
      const s = yield* TestServer
      yield* on(s, "unknown-id-invalid")
      const unknown = yield* rpc(s, "UpdateConnectorHostname", {
        id: "hostname_nope",
        managedTls: true
      })
      const known = yield* rpc(s, "GetResource", { id: s.knownIds.resources[0] })
      // A referenced id that names nothing is another rule's: still not_found.
      const reference = yield* rpc(s, "UpdateSatellite", {
        id: s.knownIds.satellites[30],
        spaceId: "space_nope"
      })
      yield* s.setFaults(Faults.none)
      expect([unknown.status, unknown.json.code]).toEqual([400, "invalid_argument"])
      expect(known.status).toBe(200)
      expect(reference.json.code).toBe("not_found")
    })
  )

  it.effect("unknown-reference-accepted: every create reference and UpdateSatellite spaceId", () =>
    Effect.gen(function* () {
      const s = yield* TestServer
      yield* on(s, "unknown-reference-accepted")
      const discovery = yield* rpc(s, "CreateDataDiscoveryConfiguration", {
        resourceId: "resource_nope",
        nativeUserId: "nativeuser_nope",
        schedule: "6h",
        deletionPolicy: "delete"
      })
      const link = yield* rpc(s, "CreateNativeUserIdentityLink", {
        nativeUserId: "nativeuser_nope",
        identityId: "group_nope",
        identityType: "group"
      })
      const userLink = yield* rpc(s, "CreateNativeUserIdentityLink", {
        nativeUserId: s.knownIds.nativeUsers[0],
        identityId: "user_nope",
        identityType: "user"
      })
      const satellite = yield* rpc(s, "UpdateSatellite", {
        id: s.knownIds.satellites[31],
        spaceId: "space_nope"
      })
      const byUsername = yield* rpc(s, "CreateHumanUserPassword", { username: "nobody" })
      const unknownGet = yield* rpc(s, "GetResource", { id: "resource_nope" })
      yield* s.setFaults(Faults.none)
      expect(discovery.status).toBe(200)
      expect(discovery.json.dataDiscoveryConfiguration.resourceId).toBe("resource_nope")
      expect(link.status).toBe(200)
      expect(link.json.link.group.id).toBe("group_nope")
      expect(userLink.status).toBe(200)
      expect(satellite.status).toBe(200)
      expect(satellite.json.satellite.spaceId).toBe("space_nope")
      expect(byUsername.json.username).toBe(s.knownIds.users[0]!.username)
      // A Get's own id is another rule's.
      expect(unknownGet.json.code).toBe("not_found")
    })
  )

  it.effect(
    "secret-in-error: only invalid_argument messages quote the body; the faithful server never does",
    () =>
      Effect.gen(function* () {
        const s = yield* TestServer
        const body = {
          id: s.knownIds.connectorHostnames[0],
          certificate: "not base64!",
          privateKey: "c2VjcmV0LXByaXZhdGUta2V5"
        }
        const faithful = yield* rpc(s, "UpdateConnectorHostname", body)
        yield* on(s, "secret-in-error")
        const violated = yield* rpc(s, "UpdateConnectorHostname", body)
        const notFound = yield* rpc(s, "GetResource", { id: "c2VjcmV0LXByaXZhdGUta2V5" })
        yield* s.setFaults(Faults.none)
        expect(faithful.json.code).toBe("invalid_argument")
        expect(faithful.text).not.toContain("c2VjcmV0LXByaXZhdGUta2V5")
        expect(violated.json.code).toBe("invalid_argument")
        expect(violated.json.message).toContain("c2VjcmV0LXByaXZhdGUta2V5")
        expect(isErrorBody(violated.json)).toBe(true)
        expect(notFound.json.code).toBe("not_found")
      })
  )

  it.effect(
    "timestamp-fraction-digits: two digits, the same instant truncated, still in the past",
    () =>
      Effect.gen(function* () {
        const s = yield* TestServer
        const before = yield* rpc(s, "CreatePermission", permission())
        yield* on(s, "timestamp-fraction-digits")
        const created = yield* rpc(s, "CreatePermission", permission())
        yield* s.setFaults(Faults.none)
        expect(before.json.permission.createdAt).not.toMatch(/\.\d\dZ$/)
        expect(created.json.permission.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d\dZ$/)
        expect(Date.parse(created.json.permission.createdAt)).toBeLessThan(Date.now())
      })
  )

  it.effect(
    "rejects-snake-case and rejects-null: nested names and values too; unknown snake_case fields are still ignored",
    () =>
      Effect.gen(function* () {
        const s = yield* TestServer
        yield* on(s, "rejects-snake-case")
        const nested = yield* rpc(s, "CreateIntegrationMDM", {
          name: "m",
          mdmVendorA: { api_url: "https://mdm.example.com" }
        })
        const unknown = yield* rpc(s, "ListSatellites", { limit: 1, future_field: 1 })
        yield* on(s, "rejects-null")
        const nestedNull = yield* rpc(s, "CreateIntegrationMDM", {
          name: "m",
          mdmVendorA: { apiUrl: null }
        })
        yield* s.setFaults(Faults.none)
        expect(nested.json.code).toBe("invalid_argument")
        expect(unknown.status).toBe(200)
        expect(nestedNull.json.code).toBe("invalid_argument")
      })
  )

  it.effect(
    "ignored-min-length relaxes every min length (workerSchedule's 9 too), not the connector name",
    () =>
      Effect.gen(function* () {
        const s = yield* TestServer
        yield* on(s, "ignored-min-length")
        const loader = yield* rpc(s, "CreatePolicyDataLoader", {
          name: "",
          key: "",
          workerCode: "",
          workerSchedule: "* * *",
          workerRuntime: "python3.11",
          status: "draft",
          terminationProtection: false
        })
        const bi = yield* rpc(s, "CreateBIIntegration", {
          name: "bi",
          biVendorA: { apiKey: "", apiSecret: "" }
        })
        const connector = yield* rpc(s, "CreateConnector", {
          name: "",
          terminationProtection: false
        })
        yield* s.setFaults(Faults.none)
        expect(loader.status, loader.text).toBe(200)
        expect(loader.json.policyDataLoader.workerSchedule).toHaveLength(9)
        expect(bi.status).toBe(200)
        expect(connector.json.code).toBe("invalid_argument")
      })
  )

  it.effect("ignored-enum, ignored-json-type, ignored-required, ignored-one-of", () =>
    Effect.gen(function* () {
      const s = yield* TestServer
      yield* on(s, "ignored-enum")
      const order = yield* rpc(s, "ListSatellites", {
        limit: 1,
        order: "sideways",
        searchFields: ["nope"],
        search: "ai-gateway"
      })
      const loader = yield* rpc(s, "CreatePolicyDataLoader", {
        name: "l",
        key: "k",
        workerCode: "c",
        workerSchedule: "*/30 * * * * *",
        workerRuntime: "cobol",
        status: "on",
        terminationProtection: false
      })
      yield* on(s, "ignored-json-type")
      const types = yield* rpc(
        s,
        "CreatePermission",
        permission({ description: "d", status: 3, terminationProtection: "yes" })
      )
      const requiredType = yield* rpc(s, "CreatePermission", permission({ name: 5 }))
      yield* on(s, "ignored-required")
      const list = yield* rpc(s, "ListNativeUsers", {})
      const nulls = yield* rpc(s, "CreatePermission", {
        name: null,
        description: null,
        code: null,
        terminationProtection: false
      })
      yield* on(s, "ignored-one-of")
      const none = yield* rpc(s, "CreateHumanUserPassword", {})
      yield* s.setFaults(Faults.none)
      expect(order.status, order.text).toBe(200)
      expect(loader.json.policyDataLoader).toMatchObject({
        workerRuntime: "python3.11",
        status: "draft"
      })
      expect(types.status, types.text).toBe(200)
      expect(requiredType.json.code).toBe("invalid_argument")
      expect(list.status, list.text).toBe(200)
      expect(nulls.json.permission).toMatchObject({
        name: "missing",
        description: "missing",
        code: "missing"
      })
      expect(none.json.username).toBe(s.knownIds.users[0]!.username)
    })
  )

  it.effect(
    "empty-body-accepted: an empty body is {} with its required fields stood in; other bad bodies are still rejected",
    () =>
      Effect.gen(function* () {
        const s = yield* TestServer
        yield* on(s, "empty-body-accepted")
        const empty = yield* rpc(s, "ListSatellites", undefined, { raw: "" })
        const array = yield* rpc(s, "ListSatellites", undefined, { raw: "[]" })
        yield* s.setFaults(Faults.none)
        expect(empty.json.satellites).toHaveLength(100)
        expect(array.json.code).toBe("invalid_argument")
      })
  )

  it.effect(
    "filters: unknown keys and operators, empty groups and or-as-and act inside nested groups",
    () =>
      Effect.gen(function* () {
        const s = yield* TestServer
        const [a, b] = s.knownIds.satellites
        const is = (id: string | undefined) => ({
          field: { key: "id", operator: "equals", value: sv(String(id)) }
        })
        yield* on(s, "unknown-filter-key-accepted", "empty-group-accepted")
        const operator = yield* satellites(s, {
          filter: {
            group: {
              operator: "and",
              filters: [is(a), { field: { key: "name", operator: "like", value: sv("x") } }]
            }
          }
        })
        const group = yield* satellites(s, {
          filter: {
            group: { operator: "and", filters: [is(a), { group: { operator: "or", filters: [] } }] }
          }
        })
        yield* on(s, "filter-or-as-and")
        const nested = yield* satellites(s, {
          filter: {
            group: {
              operator: "and",
              filters: [is(a), { group: { operator: "or", filters: [is(a), is(b)] } }]
            }
          }
        })
        const badKey = yield* rpc(s, "ListSatellites", {
          limit: 5,
          filter: { field: { key: "nope", operator: "equals" } }
        })
        yield* s.setFaults(Faults.none)
        expect(operator.map((x) => x.id)).toEqual([a])
        expect(group.map((x) => x.id)).toEqual([a])
        expect(nested).toHaveLength(0)
        expect(badKey.json.code).toBe("invalid_argument")
      })
  )

  it.effect(
    "order-ignored, search-fields-ignored and filter-ignored still reject a bad value",
    () =>
      Effect.gen(function* () {
        const s = yield* TestServer
        yield* on(
          s,
          "order-ignored",
          "search-fields-ignored",
          "filter-ignored",
          "space-filter-ignored"
        )
        const order = yield* rpc(s, "ListSatellites", { limit: 1, order: "sideways" })
        const fields = yield* rpc(s, "ListSatellites", { limit: 1, searchFields: ["nope"] })
        const filter = yield* rpc(s, "ListSatellites", {
          limit: 1,
          filter: { field: { key: "nope", operator: "equals" } }
        })
        const update = yield* rpc(s, "UpdateSatellite", {
          id: s.knownIds.satellites[32],
          spaceId: s.knownIds.spaces[1]
        })
        yield* s.setFaults(Faults.none)
        expect([order.json.code, fields.json.code, filter.json.code]).toEqual([
          "invalid_argument",
          "invalid_argument",
          "invalid_argument"
        ])
        expect(update.json.satellite.spaceId).toBe(s.knownIds.spaces[1])
      })
  )

  it.effect(
    "wrong-method-accepted no longer serves another content type; content-type-ignored does",
    () =>
      Effect.gen(function* () {
        const s = yield* TestServer
        const id = s.knownIds.resources[0]
        yield* on(s, "wrong-method-accepted")
        const put = yield* rpc(s, "GetResource", { id }, { httpMethod: "PUT" })
        const text = yield* rpc(
          s,
          "GetResource",
          { id },
          { headers: { "content-type": "text/plain" } }
        )
        yield* on(s, "content-type-ignored")
        const served = yield* rpc(
          s,
          "GetResource",
          { id },
          { headers: { "content-type": "text/plain" } }
        )
        const method = yield* rpc(s, "GetResource", { id }, { httpMethod: "PUT" })
        yield* s.setFaults(Faults.none)
        expect(put.status).toBe(200)
        expect(text.status).toBe(415)
        expect(served.status).toBe(200)
        expect(method.status).toBe(405)
      })
  )

  it.effect("version-header-ignored: any value of Connect-Protocol-Version", () =>
    Effect.gen(function* () {
      const s = yield* TestServer
      yield* on(s, "version-header-ignored")
      const two = yield* rpc(s, "CreatePermission", permission(), {
        headers: { "connect-protocol-version": "2" }
      })
      yield* s.setFaults(Faults.none)
      const faithful = yield* rpc(s, "CreatePermission", permission(), {
        headers: { "connect-protocol-version": "2" }
      })
      expect(two.status).toBe(200)
      expect(faithful.json.code).toBe("invalid_argument")
    })
  )

  it.effect("small-body-limit: 64 KiB is served, more is resource_exhausted", () =>
    Effect.gen(function* () {
      const s = yield* TestServer
      yield* on(s, "small-body-limit")
      const small = yield* rpc(s, "ListSatellites", { limit: 1, padding: "a".repeat(60_000) })
      const large = yield* rpc(s, "ListSatellites", { limit: 1, padding: "a".repeat(70_000) })
      yield* s.setFaults(Faults.none)
      expect(small.status).toBe(200)
      expect([large.status, large.json.code]).toEqual([429, "resource_exhausted"])
    })
  )

  it.effect("deadline-wrong-code: a passed deadline of 100 ms or more is canceled too", () =>
    Effect.gen(function* () {
      const s = yield* TestServer
      const request = { id: s.knownIds.resources[0] }
      const headers = { headers: { "connect-timeout-ms": "150" } }
      yield* s.setFaults({ rules: [{ fault: { _tag: "Latency", millis: 400 } }] })
      const faithful = yield* rpc(s, "GetResource", request, headers)
      yield* s.setFaults({
        rules: [
          { fault: { _tag: "Latency", millis: 400 } },
          { fault: { _tag: "Violation", name: "deadline-wrong-code" } }
        ]
      })
      const violated = yield* rpc(s, "GetResource", request, headers)
      yield* on(s, "deadline-wrong-code")
      const inTime = yield* rpc(s, "GetResource", request, {
        headers: { "connect-timeout-ms": "5000" }
      })
      yield* s.setFaults(Faults.none)
      expect(faithful.json.code).toBe("deadline_exceeded")
      expect([violated.status, violated.json.code]).toEqual([499, "canceled"])
      expect(inTime.status).toBe(200)
    })
  )

  it.effect(
    "update violations: the update still applies what it was sent, and the others stay apart",
    () =>
      Effect.gen(function* () {
        const s = yield* TestServer
        const id = s.knownIds.satellites[33]!
        const before = yield* satelliteById(s, id)
        yield* on(s, "update-clears-unsent")
        const read = yield* rpc(s, "UpdateSatellite", { id })
        const cleared = yield* rpc(s, "UpdateSatellite", {
          id,
          terminationProtection: !before.terminationProtection,
          name: null
        })
        yield* on(s, "update-null-clears")
        yield* rpc(s, "UpdateSatellite", { id, name: "renamed" })
        const nulled = yield* rpc(s, "UpdateSatellite", { id, name: null })
        yield* s.setFaults(Faults.none)
        // An update that sends only the id reads the object.
        expect(read.json.satellite).toMatchObject({
          name: before.name,
          satelliteType: before.satelliteType,
          spaceId: before.spaceId
        })
        // Sent as null is not "not sent": update-clears-unsent leaves it (update-null-clears' rule).
        expect(cleared.json.satellite.name).toBe(before.name)
        expect(cleared.json.satellite.terminationProtection ?? false).toBe(
          !before.terminationProtection
        )
        expect(cleared.json.satellite.satelliteType).toBe("data_discovery")
        expect(cleared.json.satellite.space).toEqual(before.space)
        expect(Date.parse(cleared.json.satellite.updatedAt)).toBeGreaterThan(
          Date.parse(before.updatedAt)
        )
        expect(nulled.json.satellite.name).toBeUndefined()
        expect(nulled.json.satellite.terminationProtection ?? false).toBe(
          !before.terminationProtection
        )
      })
  )

  it.effect("paging violations keep the walk well formed but for their own rule", () =>
    Effect.gen(function* () {
      const s = yield* TestServer
      const all = s.knownIds.satellites.length
      yield* on(s, "paging-skips")
      const skipped = yield* walk(s, "ListSatellites", { limit: 40 })
      const desc = yield* walk(s, "ListSatellites", { limit: 40, order: "desc" })
      yield* on(s, "limit-exceeded")
      const exceeded = yield* walk(s, "ListSatellites", { limit: 40 })
      yield* on(s, "next-cursor-on-last-page")
      const extra = yield* walk(s, "ListSatellites", { limit: 40 })
      yield* on(s, "after-before-swapped")
      const swapped = yield* rpc(s, "ListSatellites", { limit: 3 })
      yield* s.setFaults(Faults.none)
      const ids = (items: ReadonlyArray<any>) => new Set(items.map((i) => i.id))
      expect(ids(skipped.items).size).toBe(skipped.items.length)
      expect(skipped.items.length).toBeLessThan(all)
      expect(
        skipped.items.every(
          (x: any, i: number) => i === 0 || x.createdAt >= skipped.items[i - 1].createdAt
        )
      ).toBe(true)
      expect(desc.items.length).toBeLessThan(all)
      expect(ids(exceeded.items).size).toBe(all)
      expect(exceeded.pages).toBe(Math.ceil(all / 41))
      expect(ids(extra.items).size).toBe(all)
      expect(extra.pages).toBe(Math.ceil(all / 40) + 1)
      expect(swapped.json.listMetadata).toEqual(
        expect.objectContaining({
          after: swapped.json.satellites[0].id,
          before: swapped.json.satellites[2].id
        })
      )
    })
  )

  it.effect(
    "unknown-route-wrong-code answers with a Connect body; no fault with `methods` fires on an unknown route",
    () =>
      Effect.gen(function* () {
        const s = yield* TestServer
        yield* s.setFaults({
          rules: [
            {
              methods: ["GetResource"],
              fault: { _tag: "Violation", name: "unknown-route-wrong-code" }
            },
            { fault: { _tag: "Unavailable" }, methods: ["GetResource"] }
          ]
        })
        const scoped = yield* rpc(s, `/${Operations.PACKAGE}.ResourceService/NoSuchMethod`, {})
        yield* on(s, "unknown-route-wrong-code")
        const unscoped = yield* rpc(s, `/${Operations.PACKAGE}.ResourceService/NoSuchMethod`, {})
        yield* s.setFaults(Faults.none)
        expect([scoped.status, scoped.json.code]).toEqual([404, "unimplemented"])
        expect([unscoped.status, unscoped.json.code]).toEqual([404, "not_found"])
      })
  )
})
