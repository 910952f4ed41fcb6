import { describe, expect, it } from "@effect/vitest"
import { Filter, Operations, Requests } from "@data-access/schema"
import type { Op } from "../src/internal/context.js"
import { foreignValues } from "../src/internal/families/listEnums.js"
import { variedLimits } from "../src/internal/families/pagingSuites.js"
import { PATTERN_CHARACTERS, PATTERN_READINGS } from "../src/internal/families/search/patterns.js"
import * as Filters from "../src/internal/filterReadings.js"
import * as SearchFilter from "../src/internal/oracles/search-filter.js"

// The inputs of the List operations that tell a rule from its plausible wrong readings: another
// List's enum values, text with pattern characters, empty fields absent or written as "", page
// sizes that change within a walk.

const satellites = Operations.operations.ListSatellites as unknown as Op
const mdm = Operations.operations.ListIntegrationsMDM as unknown as Op

describe("another List's enum values", () => {
  it("are derived from the request schemas: each searchFields entry and filter key one List has and another lacks", () => {
    const of = (op: Op) =>
      foreignValues(op, {}).map((c) => [
        c.rule,
        (c.body.searchFields as ReadonlyArray<string> | undefined)?.[0] ??
          (c.body.filter as any).field.key
      ])
    const minus = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) =>
      a.filter((x) => !b.includes(x))
    expect(of(satellites)).toEqual([
      ["fields.enum", "type"],
      ...minus(Requests.MdmFilterKeys, Requests.SatelliteFilterKeys).map((k) => [
        "filter.unknown-key",
        k
      ])
    ])
    expect(of(mdm)).toEqual(
      minus(Requests.SatelliteFilterKeys, Requests.MdmFilterKeys).map((k) => [
        "filter.unknown-key",
        k
      ])
    )
    expect(foreignValues(Operations.operations.ListLogQueries as unknown as Op, {})).toEqual([])
  })
})

describe("pattern readings", () => {
  const reading = (name: string) => PATTERN_READINGS.find((r) => r.name === name)!
  const test = (name: string, value: string, text: string) =>
    new RegExp(reading(name).source(value)!, "s").test(text)
  it("read the operator characters as a query language or a regular expression would; the literal reading does not", () => {
    expect(test("SQL LIKE", "na_e", "name")).toBe(true)
    expect(test("SQL LIKE", "n%e", "name")).toBe(true)
    expect(test("SQL LIKE", "na\\_e", "name")).toBe(false)
    expect(test("glob", "n*e", "name")).toBe(true)
    expect(test("glob", "n[a]me", "name")).toBe(true)
    expect(test("regular expression", "n.me", "name")).toBe(true)
    expect(test("regular expression", "^na", "name")).toBe(true)
    expect(PATTERN_CHARACTERS).toEqual([
      "%",
      "_",
      "*",
      "?",
      ".",
      "[",
      "]",
      "(",
      "^",
      "$",
      "\\",
      "|",
      "+"
    ])
  })
})

describe("absent and empty fields", () => {
  it('are one value to the filter oracle: an item without spaceId and one with spaceId "" are judged alike', () => {
    const absent = {
      id: "satellite_a",
      name: "a",
      satelliteType: "ai",
      createdAt: "2025-01-01T00:00:00Z",
      updatedAt: "2025-01-01T00:00:00Z"
    }
    const empty = { ...absent, id: "satellite_b", spaceId: "" }
    const held = { ...absent, id: "satellite_c", spaceId: "space_x" }
    const sv = (value: string) => ({ "@type": Filter.STRING_VALUE_TYPE, value })
    const selects = (field: Record<string, unknown>) => {
      const s = SearchFilter.selection(satellites, { limit: 10, filter: { field } })!
      return [absent, empty, held].map((x) => s.matches(Filters.rowOf(satellites, x)))
    }
    expect(selects({ key: "space_id", operator: "empty" })).toEqual([true, true, false])
    expect(selects({ key: "space_id", operator: "not_empty" })).toEqual([false, false, true])
    expect(selects({ key: "space_id", operator: "equals", value: sv("") })).toEqual([
      true,
      true,
      false
    ])
    expect(selects({ key: "space_id", operator: "not_equals", value: sv("") })).toEqual([
      false,
      false,
      true
    ])
    expect(selects({ key: "space_id", operator: "not_equals", value: sv("space_x") })).toEqual([
      true,
      true,
      false
    ])
    expect(selects({ key: "space_id", operator: "lower_than", value: sv("space_x") })).toEqual([
      true,
      true,
      false
    ])
  })
})

describe("page sizes that change within a walk", () => {
  it("go from small to large and back, within 1 to 500", () => {
    const limits = variedLimits(230, 0)
    const sizes = Array.from({ length: 8 }, (_, i) => limits(i))
    expect(sizes).toEqual([1, 3, 2, 39, 1, 78, 5, 40])
    expect(
      Array.from({ length: 8 }, (_, i) => variedLimits(10_000, 0)(i)).every(
        (l) => l >= 1 && l <= 500
      )
    ).toBe(true)
  })
})
