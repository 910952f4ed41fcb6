import { Model, Requests, Timestamp } from "@data-access/schema"
import { describe, expect, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Schema from "effect/Schema"
import { ReferenceServer } from "../src/index.js"
import { rpc, walk } from "./helpers.js"

const SATELLITES = 150

/** Generated satellites with unique ids; some share a createdAt so ties are ordered by id. */
const generateSatellites = (): ReadonlyArray<Model.Satellite> => {
  const raw = FastCheck.sample(Arbitrary.make(Model.Satellite), { numRuns: SATELLITES, seed: 42 })
  return raw.map((s, i) => {
    const withId = { ...s, id: `sat-${String(i).padStart(4, "0")}-${s.id.slice(0, 8)}` }
    if (i % 10 === 3 && raw[i - 1]?.createdAt)
      return { ...withId, createdAt: raw[i - 1]!.createdAt! }
    return withId
  })
}

const encodeSatellite = Schema.encodeSync(Model.Satellite)

/** The ascending order the interface decides: createdAt, then id; no createdAt first. */
const expectedOrder = (items: ReadonlyArray<any>): ReadonlyArray<string> =>
  [...items]
    .sort((a, b) => {
      const ta = a.createdAt ? (Timestamp.parse(a.createdAt) as Timestamp.Timestamp) : undefined
      const tb = b.createdAt ? (Timestamp.parse(b.createdAt) as Timestamp.Timestamp) : undefined
      if (ta === undefined && tb !== undefined) return -1
      if (tb === undefined && ta !== undefined) return 1
      const c = ta !== undefined && tb !== undefined ? Timestamp.Order(ta, tb) : 0
      return c !== 0 ? c : a.id < b.id ? -1 : a.id > b.id ? 1 : 0
    })
    .map((s) => s.id)

const satelliteValue = (s: any, key: string): string => {
  switch (key) {
    case "id":
      return s.id
    case "name":
      return s.name ?? ""
    case "termination_protection":
      return String(s.terminationProtection ?? false)
    case "space_id":
      return s.spaceId ?? ""
    case "satellite_type":
      return s.satelliteType ?? "data_discovery"
    case "created_at":
      return s.createdAt ?? ""
    case "updated_at":
      return s.updatedAt ?? ""
  }
  throw new Error(key)
}

/**
 * A plain evaluation of a filter, written out independently of the server: string operators
 * compare case-sensitively, or not with `caseInsensitive` (the filter-case-insensitive switch).
 */
const plainMatch = (
  filter: any,
  item: any,
  value: (item: any, key: string) => string,
  caseInsensitive = false
): boolean => {
  if (filter.group) {
    const results: Array<boolean> = filter.group.filters.map((f: any) =>
      plainMatch(f, item, value, caseInsensitive)
    )
    return filter.group.operator === "and" ? results.every((r) => r) : results.some((r) => r)
  }
  const { key, operator } = filter.field
  const actual = value(item, key)
  const expected: string = filter.field.value?.value ?? ""
  const lower = (s: string) => (caseInsensitive ? s.toLowerCase() : s)
  const order = () => {
    if (key.endsWith("_at")) {
      const a = Timestamp.parse(actual)
      const b = Timestamp.parse(expected)
      if (typeof a !== "string" && typeof b !== "string") return Timestamp.Order(a, b)
    }
    return actual < expected ? -1 : actual > expected ? 1 : 0
  }
  switch (operator) {
    case "equals":
      return lower(actual) === lower(expected)
    case "not_equals":
      return lower(actual) !== lower(expected)
    case "contains":
      return lower(actual).includes(lower(expected))
    case "not_contains":
      return !lower(actual).includes(lower(expected))
    case "empty":
      return actual === ""
    case "not_empty":
      return actual !== ""
    case "starts_with":
      return lower(actual).startsWith(lower(expected))
    case "ends_with":
      return lower(actual).endsWith(lower(expected))
    case "lower_than":
      return order() < 0
    case "greater_than":
      return order() > 0
  }
  throw new Error(operator)
}

describe("paging, search and filters on generated data", () => {
  it.scoped(
    "walking every page with limits 1, 7 and 500 in both orders yields every item exactly once, in order",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({ data: "empty" })
        const satellites = generateSatellites()
        yield* server.seed({ satellites })
        const encoded = satellites.map((s) => encodeSatellite(s))
        const asc = expectedOrder(encoded)
        expect(new Set(asc).size).toBe(SATELLITES)
        for (const limit of [1, 7, 500]) {
          for (const order of ["asc", "desc"] as const) {
            const { items, pages } = yield* walk(server, "ListSatellites", { limit, order })
            const ids = items.map((s) => s.id)
            expect(ids, `limit ${limit} ${order}`).toEqual(
              order === "asc" ? asc : [...asc].reverse()
            )
            expect(pages).toBe(Math.max(1, Math.ceil(SATELLITES / limit)))
          }
        }
        // Absent order means asc; after/before name the last/first item; the last page has no cursor.
        const first = yield* rpc(server, "ListSatellites", { limit: 7 })
        expect(first.json.listMetadata).toEqual({
          after: asc[6],
          before: asc[0],
          count: 7,
          nextCursor: expect.any(String)
        })
        const last = yield* rpc(server, "ListSatellites", { limit: 500 })
        expect(last.json.listMetadata.nextCursor).toBeUndefined()
        // A cursor continues the walk from its position in the order asked now (the cursor-bound
        // latitude switch rejects it instead).
        const mixed = yield* rpc(server, "ListSatellites", {
          limit: 7,
          order: "desc",
          cursor: first.json.listMetadata.nextCursor
        })
        expect(mixed.json.satellites.map((s: any) => s.id)).toEqual(asc.slice(0, 6).reverse())
      })
  )

  it.scoped("filters and search return exactly the matching items", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start({ data: "empty" })
      // The same filters, compared without regard to case, under filter-case-insensitive.
      const insensitive = yield* ReferenceServer.start({
        data: "empty",
        latitude: ["filter-case-insensitive"]
      })
      const satellites = generateSatellites()
      yield* server.seed({ satellites })
      yield* insensitive.seed({ satellites })
      const encoded = satellites.map((s) => encodeSatellite(s))
      const filters = FastCheck.sample(Arbitrary.make(Requests.SatelliteFilter), {
        numRuns: 120,
        seed: 7
      })
      // Conditions that compare against values the data holds, so that filters match something.
      const pinned = encoded.slice(0, 20).flatMap((s) => [
        {
          field: {
            key: "name",
            operator: "equals",
            value: {
              "@type": "type.googleapis.com/google.protobuf.StringValue",
              value: s.name ?? ""
            }
          }
        },
        {
          field: {
            key: "created_at",
            operator: "lower_than",
            value: {
              "@type": "type.googleapis.com/google.protobuf.StringValue",
              value: s.createdAt ?? ""
            }
          }
        },
        {
          group: {
            operator: "or",
            filters: [
              {
                field: {
                  key: "satellite_type",
                  operator: "equals",
                  value: {
                    "@type": "type.googleapis.com/google.protobuf.StringValue",
                    value: "ai"
                  }
                }
              },
              {
                field: {
                  key: "termination_protection",
                  operator: "equals",
                  value: {
                    "@type": "type.googleapis.com/google.protobuf.StringValue",
                    value: "true"
                  }
                }
              }
            ]
          }
        }
      ])
      let nonEmpty = 0
      let caseMatters = 0
      for (const filter of [...filters, ...pinned]) {
        const expected = encoded
          .filter((s) => plainMatch(filter, s, satelliteValue))
          .map((s) => s.id)
        const { items } = yield* walk(server, "ListSatellites", { limit: 500, filter })
        expect(new Set(items.map((s) => s.id)), JSON.stringify(filter)).toEqual(new Set(expected))
        if (expected.length > 0) nonEmpty++
        const folded = encoded
          .filter((s) => plainMatch(filter, s, satelliteValue, true))
          .map((s) => s.id)
        const { items: foldedItems } = yield* walk(insensitive, "ListSatellites", {
          limit: 500,
          filter
        })
        expect(
          new Set(foldedItems.map((s) => s.id)),
          `case-insensitive ${JSON.stringify(filter)}`
        ).toEqual(new Set(folded))
        if (folded.length !== expected.length) caseMatters++
      }
      expect(nonEmpty).toBeGreaterThan(20)
      expect(caseMatters).toBeGreaterThan(0)
      const searches = [
        ...encoded.slice(0, 30).map((s) => (s.name ?? "").slice(1, 4).toUpperCase()),
        "a",
        "SAT-00",
        "zz"
      ]
      for (const search of searches) {
        for (const searchFields of [undefined, ["id"], ["id", "name"]] as const) {
          const fields = searchFields ?? ["name"]
          const expected = encoded
            .filter((s) =>
              fields.some((f) => satelliteValue(s, f).toLowerCase().includes(search.toLowerCase()))
            )
            .map((s) => s.id)
          const { items } = yield* walk(server, "ListSatellites", {
            limit: 100,
            search,
            ...(searchFields ? { searchFields } : {})
          })
          expect(items.map((s) => s.id).sort(), `${search} ${String(searchFields)}`).toEqual(
            expected.sort()
          )
        }
      }
    })
  )

  it.scoped(
    "spaceId narrows ListSatellites; ListNativeUsers lists one resource's users; MDM type is searchable",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start()
        const space = server.knownIds.spaces[1]!
        const { items } = yield* walk(server, "ListSatellites", { limit: 100, spaceId: space })
        expect(items.length).toBeGreaterThan(10)
        for (const s of items) expect(s.spaceId).toBe(space)
        const all = yield* walk(server, "ListSatellites", { limit: 100 })
        expect(all.items.length).toBe(230)
        expect(all.pages).toBe(3)
        const users = yield* walk(server, "ListNativeUsers", {
          limit: 100,
          resourceId: server.knownIds.resources[0]
        })
        expect(users.items.length).toBe(120)
        expect(users.pages).toBe(2)
        const none = yield* walk(server, "ListNativeUsers", {
          limit: 100,
          resourceId: "resource_unknown"
        })
        expect(none.items).toEqual([])
        const mdm = yield* walk(server, "ListIntegrationsMDM", {
          limit: 100,
          search: "MDM_VENDOR",
          searchFields: ["type"]
        })
        expect(mdm.items.length).toBe(210)
        const typed = yield* walk(server, "ListIntegrationsMDM", {
          limit: 100,
          filter: {
            group: {
              operator: "and",
              filters: [
                {
                  field: {
                    key: "type",
                    operator: "equals",
                    value: {
                      "@type": "type.googleapis.com/google.protobuf.StringValue",
                      value: "mdm_vendor_a"
                    }
                  }
                },
                {
                  field: {
                    key: "name",
                    operator: "ends_with",
                    value: {
                      "@type": "type.googleapis.com/google.protobuf.StringValue",
                      value: "7"
                    }
                  }
                }
              ]
            }
          }
        })
        expect(typed.items.length).toBe(21)
      })
  )
})
