// Answers read as the strictest client reads them: the UTF-8 JSON text RFC 8259 allows, judged by
// the success-shape and error-shape oracles whatever a lenient decoder makes of the bytes.
import { describe, expect, it } from "@effect/vitest"
import * as Option from "effect/Option"
import { readBody } from "../src/internal/answerBody.js"
import type { Exchange } from "../src/internal/http.js"
import { errorShape } from "../src/internal/oracles/error-shape.js"
import { successShape } from "../src/internal/oracles/success-shape.js"

const utf8 = (s: string) => new TextEncoder().encode(s)
const BOM = [0xef, 0xbb, 0xbf]

const exchange = (
  status: number,
  bytes: Uint8Array,
  contentType = "application/json; charset=utf-8"
): Exchange => ({
  request: {
    method: "POST",
    path: "/core.v1.ResourceService/GetResource",
    key: "valid",
    contentType: "application/json",
    headers: {},
    protocolVersion: "1",
    body: "{}"
  },
  response: Option.some({
    status,
    headers: { "content-type": contentType },
    ...readBody(bytes)
  }),
  transportError: undefined,
  receivedAt: 0,
  durationMs: 1
})

describe("an answer's bytes", () => {
  it("JSON text with JSON whitespace around it, or an escaped U+FFFD, is strict JSON text", () => {
    expect(readBody(utf8(' \t\r\n{"a":"\\ufffd é"}\n')).notJsonText).toBeUndefined()
    expect(readBody(utf8('{"a":"\ufffd"}')).notJsonText).toBeUndefined()
  })

  it("a byte order mark, or bytes that are not UTF-8, are not, though a lenient decoder reads them", () => {
    const marked = readBody(new Uint8Array([...BOM, ...utf8("{}")]))
    expect(Option.isSome(marked.json)).toBe(true)
    expect(marked.notJsonText).toBe("a byte order mark before the JSON text")
    const latin1 = readBody(new Uint8Array([...utf8('{"a":"'), 0xe9, ...utf8('"}')]))
    expect(Option.isSome(latin1.json)).toBe(true)
    expect(latin1.notJsonText).toBe("bytes that are not UTF-8")
  })

  it("trailing commas, NaN, comments and bytes after the text are no JSON at all", () => {
    for (const text of ['{"a":1,}', '{"a":NaN}', '{"a":1}//', '{"a":1} x', '{"a":1}\u0000'])
      expect(Option.isNone(readBody(utf8(text)).json), text).toBe(true)
  })

  it("fails a 200 and an error whose body is not strict JSON text, and only those", () => {
    const marked = new Uint8Array([...BOM, ...utf8('{"code":"not_found","message":"x"}')])
    expect(successShape(exchange(200, marked))).toMatchObject({ ok: false, rule: "wire.success" })
    expect(errorShape(exchange(404, marked))).toMatchObject({
      ok: false,
      rule: "errors.connect-body"
    })
    expect(successShape(exchange(200, utf8("{}")))?.ok).toBe(true)
    expect(errorShape(exchange(404, utf8('{"code":"not_found","message":"x"}')))?.ok).toBe(true)
  })

  it("fails a 200 and an error whose Content-Type connect-es does not read as JSON (a parameter but charset=utf-8)", () => {
    const error = utf8('{"code":"not_found","message":"x"}')
    for (const read of ["application/json;charset=UTF-8", "Application/JSON"]) {
      expect(successShape(exchange(200, utf8("{}"), read))?.ok, read).toBe(true)
      expect(errorShape(exchange(404, error, read))?.ok, read).toBe(true)
    }
    for (const unread of ["application/json; charset=iso-8859-1", "application/json; v=1"]) {
      expect(successShape(exchange(200, utf8("{}"), unread)), unread).toMatchObject({
        ok: false,
        rule: "wire.success"
      })
      expect(errorShape(exchange(404, error, unread)), unread).toMatchObject({
        ok: false,
        rule: "errors.connect-body"
      })
    }
  })
})
