// Under the machine's Node only (scripts/node-lines): decoding and encoding by schema, pure data transforms.
import { describe, expect, it } from "@effect/vitest"
import * as ContentType from "../src/ContentType.js"

describe("ContentType.parse", () => {
  it("reads the JSON codec, with parameters, in any case", () => {
    expect(ContentType.parse("application/json")).toEqual({
      mediaType: "application/json",
      codec: "json"
    })
    expect(ContentType.parse("application/json; charset=utf-8")).toEqual({
      mediaType: "application/json",
      codec: "json"
    })
    expect(ContentType.parse("Application/JSON;Charset=UTF-8")).toEqual({
      mediaType: "application/json",
      codec: "json"
    })
    expect(ContentType.parse("  application/json  ;charset=utf-8")).toEqual({
      mediaType: "application/json",
      codec: "json"
    })
  })

  it("reads the binary codec", () => {
    expect(ContentType.parse("application/proto")).toEqual({
      mediaType: "application/proto",
      codec: "proto"
    })
    expect(ContentType.parse("APPLICATION/PROTO; x=1").codec).toBe("proto")
    expect(ContentType.PROTO_MEDIA_TYPE).toBe("application/proto")
    expect(ContentType.JSON_MEDIA_TYPE).toBe("application/json")
  })

  it("reads anything else as other, with its media type lower-cased", () => {
    expect(ContentType.parse(undefined)).toEqual({ mediaType: "", codec: "other" })
    expect(ContentType.parse("")).toEqual({ mediaType: "", codec: "other" })
    expect(ContentType.parse("Text/Plain; charset=utf-8")).toEqual({
      mediaType: "text/plain",
      codec: "other"
    })
    // near misses are not the JSON codec
    for (const near of [
      "application/jsonx",
      "application/json charset=utf-8",
      "application/connect+json",
      "application/json+proto",
      "json"
    ]) {
      expect(ContentType.parse(near).codec).toBe("other")
    }
  })

  it("isJson and isProto agree with parse", () => {
    expect(ContentType.isJson("application/json;charset=utf-8")).toBe(true)
    expect(ContentType.isJson("application/proto")).toBe(false)
    expect(ContentType.isJson(undefined)).toBe(false)
    expect(ContentType.isProto("application/proto")).toBe(true)
    expect(ContentType.isProto("application/json")).toBe(false)
  })

  it("readsAsJson takes an answer's type as connect-es does: application/json, alone or with charset=utf-8", () => {
    for (const read of [
      "application/json",
      "Application/JSON",
      "application/json; charset=utf-8",
      "application/json;charset=UTF-8",
      "application/json; charset=utf8"
    ])
      expect(ContentType.readsAsJson(read), read).toBe(true)
    for (const refused of [
      undefined,
      "",
      "application/json; charset=iso-8859-1",
      'application/json; charset="utf-8"',
      "application/json ; charset=utf-8",
      "application/json;  charset=utf-8",
      "application/json; charset=utf-8; q=1",
      "application/json; v=1",
      "application/proto"
    ])
      expect(ContentType.readsAsJson(refused), refused).toBe(false)
  })
})
