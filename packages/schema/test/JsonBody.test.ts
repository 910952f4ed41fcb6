// Under the machine's Node only (scripts/node-lines): decoding and encoding by schema, pure data transforms.
import { describe, expect, it } from "@effect/vitest"
import * as JsonBody from "../src/JsonBody.js"
import * as ProtoJson from "../src/ProtoJson.js"

const bytes = (s: string) => new TextEncoder().encode(s)

describe("JsonBody.parse", () => {
  it("reads a JSON object with its keys in lowerCamelCase, and keeps it as sent", () => {
    expect(JsonBody.parse(bytes(`{"space_id":"s1","limit":3}`))).toEqual({
      _tag: "Object",
      value: { spaceId: "s1", limit: 3 },
      raw: { space_id: "s1", limit: 3 }
    })
    expect(JsonBody.parse(bytes("{}"))).toEqual({ _tag: "Object", value: {}, raw: {} })
    expect(JsonBody.parse(bytes(' \n{"a":[1,{"b_c":null}]}\n'))).toEqual({
      _tag: "Object",
      value: { a: [1, { bC: null }] },
      raw: { a: [1, { b_c: null }] }
    })
  })

  it("says why a body is not an object", () => {
    expect(JsonBody.parse(new Uint8Array(0))).toEqual({ _tag: "Empty" })
    expect(JsonBody.parse(new Uint8Array([0x7b, 0xff, 0x7d]))).toEqual({ _tag: "NotUtf8" })
    expect(JsonBody.parse(bytes("{"))).toEqual({ _tag: "NotJson" })
    expect(JsonBody.parse(bytes("{'a':1}"))).toEqual({ _tag: "NotJson" })
    expect(JsonBody.parse(bytes("[]"))).toEqual({ _tag: "NotObject", found: "array" })
    expect(JsonBody.parse(bytes("null"))).toEqual({ _tag: "NotObject", found: "null" })
    expect(JsonBody.parse(bytes('"x"'))).toEqual({ _tag: "NotObject", found: "string" })
    expect(JsonBody.parse(bytes("12"))).toEqual({ _tag: "NotObject", found: "number" })
    expect(JsonBody.parse(bytes("true"))).toEqual({ _tag: "NotObject", found: "boolean" })
  })

  it("refuses a body nested deeper than the limit", () => {
    const deep = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`
    expect(JsonBody.parse(bytes(deep(ProtoJson.MAX_DEPTH)))._tag).toBe("Object")
    expect(JsonBody.parse(bytes(deep(ProtoJson.MAX_DEPTH + 2)))).toEqual({
      _tag: "TooDeep",
      maxDepth: ProtoJson.MAX_DEPTH
    })
  })

  it("refuses a body over the size limit before reading it, and keeps one at the limit", () => {
    const body = bytes(`{"name":"${"x".repeat(100)}"}`)
    expect(JsonBody.parse(body, { maxBytes: body.length - 1 })).toEqual({
      _tag: "TooLarge",
      maxBytes: body.length - 1
    })
    expect(JsonBody.parse(body, { maxBytes: body.length })._tag).toBe("Object")
    // the size comes first: an oversized body that is not JSON is too large, not malformed
    expect(JsonBody.parse(bytes("not json at all"), { maxBytes: 4 })._tag).toBe("TooLarge")
    expect(JsonBody.GUARANTEED_MAX_BYTES).toBe(1024 * 1024)
  })

  it("describes each failure without quoting the body", () => {
    const secret = "hunter22-secret"
    const failures: ReadonlyArray<JsonBody.Invalid> = [
      JsonBody.parse(bytes(`{"password":"${secret}"`)) as JsonBody.Invalid,
      { _tag: "TooLarge", maxBytes: 10 },
      { _tag: "Empty" },
      { _tag: "NotUtf8" },
      { _tag: "NotObject", found: "array" },
      { _tag: "TooDeep", maxDepth: 64 }
    ]
    const messages = failures.map(JsonBody.describe)
    expect(messages).toEqual([
      "the request body is not valid JSON",
      "the request body is larger than 10 bytes",
      "the request body is empty; send {} for an operation without fields",
      "the request body is not valid UTF-8",
      "the request body must be a JSON object",
      "the request body is nested deeper than 64 levels"
    ])
    for (const m of messages) expect(m).not.toContain(secret)
  })
})
