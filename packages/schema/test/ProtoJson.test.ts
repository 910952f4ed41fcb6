// Under the machine's Node only (scripts/node-lines): decoding and encoding by schema, pure data transforms.
import { describe, expect, it } from "@effect/vitest"
import * as ProtoJson from "../src/ProtoJson.js"

const nest = (levels: number): unknown => {
  let v: unknown = "leaf"
  for (let i = 0; i < levels; i++) v = { a_b: v }
  return v
}

describe("normalizeKeys", () => {
  it("renames snake_case to lowerCamelCase at every level, arrays included", () => {
    expect(
      ProtoJson.normalizeKeys({
        resource_id: "r",
        list_metadata: { next_cursor: "c", count: 1 },
        saved_queries: [
          { created_by: "a", query: { relative_time: "3600", histogram_group_by_fields: ["x_y"] } }
        ],
        bi_vendor_a: { api_key: "k" },
        alreadyCamel: true,
        x_1: 1
      })
    ).toEqual({
      resourceId: "r",
      listMetadata: { nextCursor: "c", count: 1 },
      savedQueries: [
        { createdBy: "a", query: { relativeTime: "3600", histogramGroupByFields: ["x_y"] } }
      ],
      biVendorA: { apiKey: "k" },
      alreadyCamel: true,
      x1: 1
    })
  })

  it("keeps the lowerCamelCase key when both forms are present, in either order", () => {
    expect(ProtoJson.normalizeKeys({ resource_id: "snake", resourceId: "camel" })).toEqual({
      resourceId: "camel"
    })
    expect(ProtoJson.normalizeKeys({ resourceId: "camel", resource_id: "snake" })).toEqual({
      resourceId: "camel"
    })
    expect(ProtoJson.normalizeKeys({ inner: { space_id: "snake", spaceId: "camel" } })).toEqual({
      inner: { spaceId: "camel" }
    })
  })

  it("leaves values alone", () => {
    for (const v of ["a_b", 1, true, null, ["a_b"]]) expect(ProtoJson.normalizeKeys(v)).toEqual(v)
    expect(ProtoJson.normalizeKeys({ key: "space_id" })).toEqual({ key: "space_id" })
  })

  it("returns undefined past MAX_DEPTH", () => {
    expect(ProtoJson.MAX_DEPTH).toBe(64)
    expect(ProtoJson.normalizeKeys(nest(ProtoJson.MAX_DEPTH))).toEqual(
      JSON.parse(JSON.stringify(nest(ProtoJson.MAX_DEPTH)).replaceAll("a_b", "aB"))
    )
    expect(ProtoJson.normalizeKeys(nest(ProtoJson.MAX_DEPTH + 1))).toBeUndefined()
    expect(ProtoJson.normalizeKeys(nest(10_000))).toBeUndefined()
    let arrays: unknown = 1
    for (let i = 0; i < 100; i++) arrays = [arrays]
    expect(ProtoJson.normalizeKeys(arrays)).toBeUndefined()
    expect(ProtoJson.normalizeKeys({ ok: 1, deep: nest(100) })).toBeUndefined()
  })

  it("__proto__ keys stay plain data and pollute nothing", () => {
    const input = JSON.parse(
      `{"__proto__": {"polluted": true}, "a_b": {"__proto__": {"isAdmin": true}}, "constructor": {"prototype": {"x": 1}}}`
    )
    const out = ProtoJson.normalizeKeys(input) as Record<string, unknown>
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
    expect(({} as Record<string, unknown>)["isAdmin"]).toBeUndefined()
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect((out as { polluted?: unknown }).polluted).toBeUndefined()
    const aB = out["aB"] as Record<string, unknown>
    expect(Object.getPrototypeOf(aB)).toBe(Object.prototype)
    expect((aB as { isAdmin?: unknown }).isAdmin).toBeUndefined()
    // every key of the output is an own data property
    for (const o of [out, aB]) {
      for (const key of Reflect.ownKeys(o))
        expect(Object.getOwnPropertyDescriptor(o, key)?.writable).toBe(true)
    }
    expect((out["constructor"] as Record<string, unknown>)["prototype"]).toEqual({ x: 1 })
    expect(Object.prototype.constructor).toBe(Object)
  })
})

describe("omitZeroValues", () => {
  it('drops false, "", 0, [], null and undefined at every level, keeping array slots', () => {
    expect(
      ProtoJson.omitZeroValues({
        id: "x",
        name: "",
        terminationProtection: false,
        port: 0,
        tags: [],
        space: { id: "s", description: "", createdAt: "2024-01-01T00:00:00Z" },
        items: [{ a: 0, b: "k" }, { a: 1 }, 0, ""],
        nothing: null,
        missing: undefined,
        relativeTime: "0",
        deployed: true
      })
    ).toEqual({
      id: "x",
      space: { id: "s", createdAt: "2024-01-01T00:00:00Z" },
      items: [{ b: "k" }, { a: 1 }, 0, ""],
      relativeTime: "0",
      deployed: true
    })
  })

  it('keeps an empty object (a set message) and "" in presence fields', () => {
    expect(ProtoJson.omitZeroValues({ query: {}, path: "" })).toEqual({ query: {}, path: "" })
    expect(ProtoJson.omitZeroValues({ path: null })).toEqual({})
    expect(ProtoJson.presenceFields.has("path")).toBe(true)
  })
})

describe("camelToSnake", () => {
  it.each([
    ["resourceId", "resource_id"],
    ["spaceId", "space_id"],
    ["satelliteType", "satellite_type"],
    ["createdAt", "created_at"],
    ["name", "name"]
  ])("%s is %s", (camel, snake) => {
    expect(ProtoJson.camelToSnake(camel)).toBe(snake)
    expect(ProtoJson.normalizeKeys({ [snake]: 1 })).toEqual({ [camel]: 1 })
  })
})
