// Under the machine's Node only (scripts/node-lines): decoding and encoding by schema, pure data transforms.
import { describe, expect, it } from "@effect/vitest"
import * as Deadline from "../src/Deadline.js"

describe("Deadline.parseTimeout (Connect-Timeout-Ms)", () => {
  it("reads 1 to 10 digits of milliseconds, 0 included", () => {
    expect(Deadline.parseTimeout(undefined)).toEqual({ _tag: "None" })
    expect(Deadline.parseTimeout("0")).toEqual({ _tag: "Millis", millis: 0 })
    expect(Deadline.parseTimeout("250")).toEqual({ _tag: "Millis", millis: 250 })
    expect(Deadline.parseTimeout("0000000250")).toEqual({ _tag: "Millis", millis: 250 })
    expect(Deadline.parseTimeout("9999999999")).toEqual({
      _tag: "Millis",
      millis: Deadline.MAX_TIMEOUT_MILLIS
    })
  })

  it("refuses 11 digits, signs, spaces, fractions and words", () => {
    for (const bad of [
      "",
      "10000000000",
      "+100",
      "-1",
      " 100",
      "100 ",
      "1.5",
      "1e3",
      "0x10",
      "soon",
      "１２"
    ]) {
      expect(Deadline.parseTimeout(bad)).toEqual({ _tag: "Invalid", value: bad })
    }
  })
})

describe("Deadline.formatTimeout", () => {
  it("writes whole milliseconds rounded up, at least 1, at most 10 digits", () => {
    expect(Deadline.formatTimeout(2000)).toBe("2000")
    expect(Deadline.formatTimeout(199.2)).toBe("200")
    expect(Deadline.formatTimeout(0.3)).toBe("1")
    expect(Deadline.formatTimeout(0)).toBe("1")
    expect(Deadline.formatTimeout(-10)).toBe("1")
    expect(Deadline.formatTimeout(Number.NaN)).toBe("1")
    expect(Deadline.formatTimeout(1e12)).toBe("9999999999")
    expect(Deadline.formatTimeout(Number.POSITIVE_INFINITY)).toBe("9999999999")
  })

  it("writes what parseTimeout reads back", () => {
    for (const ms of [0.5, 1, 17.01, 5000, 9_999_999_999.5, 1e15]) {
      const read = Deadline.parseTimeout(Deadline.formatTimeout(ms))
      expect(read._tag).toBe("Millis")
    }
  })
})
