import { describe, expect, it } from "@effect/vitest"
import * as RetryAfter from "../src/RetryAfter.js"

const now = Date.UTC(2026, 0, 1, 0, 0, 0)

describe("RetryAfter.parseSeconds", () => {
  it("reads digits, with a fraction and surrounding spaces", () => {
    expect(RetryAfter.parseSeconds("0")).toBe(0)
    expect(RetryAfter.parseSeconds("7")).toBe(7)
    expect(RetryAfter.parseSeconds("1.5")).toBe(1.5)
    expect(RetryAfter.parseSeconds(" 30 ")).toBe(30)
  })

  it("refuses signs, exponents, dates and junk", () => {
    for (const bad of [
      "-1",
      "+1",
      "1e3",
      "1.",
      ".5",
      "",
      " ",
      "soon",
      "1 2",
      "0x10",
      "Thu, 01 Jan 2026 00:00:12 GMT"
    ]) {
      expect(RetryAfter.parseSeconds(bad)).toBeUndefined()
    }
    expect(RetryAfter.parseSeconds(undefined)).toBeUndefined()
  })

  it("reads huge values as numbers (a caller caps the wait)", () => {
    expect(RetryAfter.parseSeconds("99999999999")).toBe(99_999_999_999)
    expect(RetryAfter.parseSeconds("9".repeat(400))).toBe(Number.POSITIVE_INFINITY)
  })
})

describe("RetryAfter.parseHttpDate", () => {
  it("reads the three HTTP date forms as GMT", () => {
    const t = Date.UTC(1994, 10, 6, 8, 49, 37)
    expect(RetryAfter.parseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT")).toBe(t)
    expect(RetryAfter.parseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT")).toBe(t)
    expect(RetryAfter.parseHttpDate("Sun Nov  6 08:49:37 1994")).toBe(t)
  })

  it("refuses what Date.parse alone would read", () => {
    for (const bad of [
      "-1",
      "0",
      "1.5",
      "2026",
      "2026-01-01",
      "2026-01-01T00:00:00Z",
      "Thu, 01 Jan 2026 00:00:12 PST",
      "tomorrow"
    ]) {
      expect(RetryAfter.parseHttpDate(bad)).toBeUndefined()
    }
  })
})

describe("RetryAfter.parse", () => {
  it("reads seconds, HTTP dates and retry-after-ms, in milliseconds", () => {
    expect(RetryAfter.parse({ "retry-after": "0" }, now)).toBe(0)
    expect(RetryAfter.parse({ "retry-after": "7" }, now)).toBe(7000)
    expect(RetryAfter.parse({ "retry-after": "1.5" }, now)).toBe(1500)
    expect(RetryAfter.parse({ "retry-after": "Thu, 01 Jan 2026 00:00:12 GMT" }, now)).toBe(12_000)
    expect(RetryAfter.parse({ "retry-after-ms": "250", "retry-after": "9" }, now)).toBe(250)
    expect(RetryAfter.parse({ "retry-after-ms": "soon", "retry-after": "9" }, now)).toBe(9000)
  })

  it("reads a date that has passed as no wait", () => {
    expect(RetryAfter.parse({ "retry-after": "Wed, 31 Dec 2025 00:00:00 GMT" }, now)).toBe(0)
  })

  it("does not cap: huge values stay huge", () => {
    expect(RetryAfter.parse({ "retry-after": "3600" }, now)).toBe(3_600_000)
    expect(RetryAfter.parse({ "retry-after": "99999999999" }, now)).toBe(99_999_999_999_000)
  })

  it("is undefined when absent or unreadable", () => {
    expect(RetryAfter.parse({}, now)).toBeUndefined()
    expect(RetryAfter.parse({ "retry-after": "-1" }, now)).toBeUndefined()
    expect(RetryAfter.parse({ "retry-after": "" }, now)).toBeUndefined()
    expect(RetryAfter.parse({ "retry-after": "soon" }, now)).toBeUndefined()
    expect(RetryAfter.parse({ "retry-after": "2026-01-02" }, now)).toBeUndefined()
  })
})

describe("RetryAfter.format", () => {
  it("writes whole seconds, rounded up, never negative, read back as written", () => {
    expect(RetryAfter.format(3)).toBe("3")
    expect(RetryAfter.format(0)).toBe("0")
    expect(RetryAfter.format(1.2)).toBe("2")
    expect(RetryAfter.format(-5)).toBe("0")
    for (const s of [0, 1, 7, 60, 86_400])
      expect(RetryAfter.parseSeconds(RetryAfter.format(s))).toBe(s)
  })
})
