// Under the machine's Node only (scripts/node-lines): decoding and encoding by schema, pure data transforms.
import { describe, expect, it } from "@effect/vitest"
import * as Filter from "../src/Filter.js"
import * as Requests from "../src/Requests.js"
import * as Timestamp from "../src/Timestamp.js"
import { decode, reject } from "./util.js"

type Key = (typeof Requests.SatelliteFilterKeys)[number]
type F = Filter.Filter<Key>

const satellite: Record<Key, string> = {
  id: "satellite_01",
  name: "Edge-Berlin",
  termination_protection: "true",
  space_id: "",
  satellite_type: "ai",
  created_at: "2024-05-01T12:00:00+02:00", // 10:00Z
  updated_at: "2024-05-01T10:30:00Z"
}
const get = (key: Key) => satellite[key]
const compareTimestamps = (key: Key, a: string, b: string): number | undefined => {
  if (key !== "created_at" && key !== "updated_at") return undefined
  const x = Timestamp.parse(a)
  const y = Timestamp.parse(b)
  return typeof x === "string" || typeof y === "string" ? undefined : Timestamp.Order(x, y)
}
const field = (key: Key, operator: Filter.Operator, value?: string): F => ({
  field:
    value === undefined
      ? { key, operator }
      : { key, operator, value: { "@type": Filter.STRING_VALUE_TYPE, value } }
})
const and = (...filters: [F, ...Array<F>]): F => ({ group: { operator: "and", filters } })
const or = (...filters: [F, ...Array<F>]): F => ({ group: { operator: "or", filters } })
const run = (f: F) => Filter.evaluate(f, get, compareTimestamps)

describe("Filter.evaluate", () => {
  it.each([
    ["equals", "name", "Edge-Berlin", true],
    ["equals", "name", "edge-berlin", false],
    ["equals", "space_id", "", true],
    ["not_equals", "name", "Edge-Paris", true],
    ["not_equals", "name", "Edge-Berlin", false],
    ["contains", "name", "Berlin", true],
    ["contains", "name", "berlin", false],
    ["contains", "name", "paris", false],
    ["not_contains", "name", "paris", true],
    ["not_contains", "name", "EDGE", true],
    ["not_contains", "name", "Edge", false],
    ["starts_with", "name", "Edge-", true],
    ["starts_with", "name", "edge-", false],
    ["starts_with", "name", "Berlin", false],
    ["ends_with", "name", "Berlin", true],
    ["ends_with", "name", "BERLIN", false],
    ["ends_with", "name", "Edge", false],
    ["lower_than", "name", "F", true],
    ["lower_than", "name", "Edge-Berlin", false],
    ["greater_than", "name", "Edge-A", true],
    ["greater_than", "name", "Edge-Berlin", false],
    ["lower_than", "id", "satellite_02", true],
    ["greater_than", "satellite_type", "ai", false]
  ] as const)("%s on %s with %j is %s", (operator, key, value, expected) => {
    expect(run(field(key, operator, value))).toBe(expected)
  })

  it.each([
    ["equals", "edge-berlin", true, false],
    ["equals", "EDGE-BERLIN", true, false],
    ["not_equals", "edge-berlin", false, true],
    ["contains", "berlin", true, false],
    ["not_contains", "EDGE", false, true],
    ["starts_with", "edge-", true, false],
    ["ends_with", "BERLIN", true, false],
    ["ends_with", "edge", false, false]
  ] as const)(
    "%s on name with %j: %s case-insensitively, %s by default",
    (operator, value, insensitive, sensitive) => {
      const f = field("name", operator, value)
      expect(Filter.evaluate(f, get, compareTimestamps, { caseInsensitive: true })).toBe(
        insensitive
      )
      expect(run(f)).toBe(sensitive)
    }
  )

  it("caseInsensitive leaves lower_than / greater_than alone", () => {
    expect(
      Filter.evaluate(field("name", "lower_than", "a"), get, compareTimestamps, {
        caseInsensitive: true
      })
    ).toBe(true)
    expect(run(field("name", "lower_than", "a"))).toBe(true)
  })

  it("an empty filter matches every object, alone or in a group", () => {
    const empty = {} as F
    expect(run(empty)).toBe(true)
    expect(run(and(empty, field("satellite_type", "equals", "ai")))).toBe(true)
  })

  it.each([
    ["empty", "space_id", true],
    ["empty", "name", false],
    ["not_empty", "name", true],
    ["not_empty", "space_id", false]
  ] as const)("%s on %s is %s", (operator, key, expected) => {
    expect(run(field(key, operator))).toBe(expected)
  })

  it("compares timestamps as instants, not as text", () => {
    // as text "2024-05-01T12:00:00+02:00" > "2024-05-01T10:30:00Z", as instants it is earlier
    expect(run(field("created_at", "lower_than", "2024-05-01T10:30:00Z"))).toBe(true)
    expect(run(field("created_at", "greater_than", "2024-05-01T10:30:00Z"))).toBe(false)
    expect(run(field("created_at", "greater_than", "2024-05-01T09:59:59.999999999Z"))).toBe(true)
    expect(run(field("updated_at", "lower_than", "2024-05-01T12:31:00+02:00"))).toBe(true)
    // without a timestamp comparison, the text is compared
    expect(Filter.evaluate(field("created_at", "lower_than", "2024-05-01T10:30:00Z"), get)).toBe(
      false
    )
  })

  it("groups: and, or, nested", () => {
    const yes = field("satellite_type", "equals", "ai")
    const no = field("satellite_type", "equals", "data_discovery")
    expect(run(and(yes))).toBe(true)
    expect(run(and(yes, no))).toBe(false)
    expect(run(or(no, yes))).toBe(true)
    expect(run(or(no, no))).toBe(false)
    expect(run(and(yes, or(no, field("name", "contains", "Berlin"))))).toBe(true)
    expect(run(or(no, and(yes, field("space_id", "not_empty"))))).toBe(false)
    let deep: F = yes
    for (let i = 0; i < 30; i++) deep = i % 2 === 0 ? and(deep) : or(no, deep)
    expect(run(deep)).toBe(true)
  })

  it("evaluates what a request decodes to", () => {
    const request = decode(Requests.ListSatellitesRequest, {
      limit: 10,
      filter: {
        group: {
          operator: "and",
          filters: [
            {
              field: {
                key: "name",
                operator: "starts_with",
                value: { "@type": Filter.STRING_VALUE_TYPE, value: "Edge" }
              }
            },
            { field: { key: "space_id", operator: "empty" } }
          ]
        }
      }
    })
    expect(run(request.filter!)).toBe(true)
  })

  it("a filter is a condition or a group, never both, at every depth; the other one null is not set", () => {
    const condition = field("name", "equals", "Edge-Berlin")
    const both = { ...condition, ...and(field("id", "not_empty")) } as unknown as F
    for (const filter of [both, and(field("id", "not_empty"), both), or(and(both))]) {
      const { tree } = reject(Requests.ListSatellitesRequest, { limit: 10, filter })
      expect(tree).toContain("a filter is either a condition or a group, not both")
    }
    const request = decode(Requests.ListSatellitesRequest, {
      limit: 10,
      filter: { group: { operator: "or", filters: [{ ...condition, group: null }] }, field: null }
    })
    expect(request.filter).toEqual(or(condition))
    expect(run(request.filter!)).toBe(true)
  })

  it("valueless operators are exactly empty and not_empty", () => {
    expect([...Filter.valueless].sort()).toEqual(["empty", "not_empty"])
    expect(Filter.Operator.literals).toHaveLength(10)
  })
})

describe("Filter.textHolds", () => {
  it("decides the six string operators as written, and leaves the other four undecided", () => {
    const decided = Filter.Operator.literals.map((op) => [
      op,
      Filter.textHolds(op, "Edge-Berlin", "Edge"),
      Filter.textHolds(op, "Edge-Berlin", "edge")
    ])
    expect(decided).toEqual([
      ["equals", false, false],
      ["not_equals", true, true],
      ["contains", true, false],
      ["not_contains", false, true],
      ["empty", undefined, undefined],
      ["not_empty", undefined, undefined],
      ["starts_with", true, false],
      ["ends_with", false, false],
      ["lower_than", undefined, undefined],
      ["greater_than", undefined, undefined]
    ])
    expect(Filter.textHolds("ends_with", "Edge-Berlin", "Berlin")).toBe(true)
    expect(Filter.textHolds("equals", "Edge", "Edge")).toBe(true)
  })
})
