// Under the machine's Node only (scripts/node-lines): timestamp text to seconds and nanos by the package's own parser, pure arithmetic.
import { describe, expect, it } from "vitest"
import * as Timestamp from "../src/Timestamp.js"

const parts = (seconds: number, nanos: number): Timestamp.Parts => ({ seconds, nanos })

describe("Timestamp", () => {
  it("parses any offset to the same instant in UTC, with nanoseconds", () => {
    expect(Timestamp.parse("2025-01-07T13:00:00.123456789+02:00", parts)).toEqual(
      Timestamp.parse("2025-01-07T11:00:00.123456789Z", parts)
    )
    const t = Timestamp.parse("1970-01-01T00:00:01.5Z", parts)
    expect(t).toEqual({ seconds: 1, nanos: 500_000_000 })
  })

  it("refuses what is not a timestamp of the interface, saying why", () => {
    expect(Timestamp.parse("2025-02-29T00:00:00Z", parts)).toBe("day 29 does not exist in 2025-02")
    expect(Timestamp.parse("2025-01-07t11:00:00Z", parts)).toContain(
      "expected an RFC 3339 timestamp"
    )
    expect(Timestamp.parse("0000-01-01T00:00:00Z", parts)).toBe(
      "the year must be from 0001 to 9999"
    )
    expect(Timestamp.parse("0001-01-01T00:00:00+00:01", parts)).toContain("outside")
    expect(Timestamp.parse("2025-01-07T11:00:00.1234567891Z", parts)).toBe(
      "at most 9 fractional digits are allowed"
    )
  })

  it("writes UTC with the fewest of 0, 3, 6 or 9 digits, and other forms that read back the same", () => {
    expect(Timestamp.format(parts(0, 0))).toBe("1970-01-01T00:00:00Z")
    expect(Timestamp.format(parts(0, 120_000_000))).toBe("1970-01-01T00:00:00.120Z")
    expect(Timestamp.format(parts(-1, 999_999_999))).toBe("1969-12-31T23:59:59.999999999Z")
    const at = Timestamp.formatAt(parts(0, 1000), { offsetMinutes: -90, digits: 0 })
    expect(at).toBe("1969-12-31T22:30:00.000001-01:30")
    expect(Timestamp.parse(at!, parts)).toEqual(parts(0, 1000))
    expect(
      Timestamp.formatAt(parts(Timestamp.MIN_SECONDS, 0), { offsetMinutes: -1 })
    ).toBeUndefined()
  })

  it("converts from and to the epoch, within the range", () => {
    expect(Timestamp.fromEpochMillis(-1.5, parts)).toEqual(parts(-1, 998_500_000))
    expect(Timestamp.fromEpochMillis(NaN, parts)).toBeUndefined()
    expect(Timestamp.fromEpochNanos(-1n, parts)).toEqual(parts(-1, 999_999_999))
    expect(Timestamp.toEpochNanos(parts(-1, 999_999_999))).toBe(-1n)
    expect(Timestamp.toEpochMillis(parts(1, 999_999_999))).toBe(1999)
    expect(
      Timestamp.fromEpochNanos(BigInt(Timestamp.MAX_SECONDS + 1) * 1_000_000_000n, parts)
    ).toBeUndefined()
    expect(
      Timestamp.clockNanos(BigInt(Math.floor(1_893_553_445_678 * 1_000_000)), 1_893_553_445_678)
    ).toBe(1_893_553_445_678_000_000n)
  })

  it("orders and clamps", () => {
    expect(Timestamp.compare(parts(1, 0), parts(0, 999_999_999))).toBe(1)
    expect(Timestamp.compare(parts(1, 1), parts(1, 2))).toBe(-1)
    expect(Timestamp.equals(parts(1, 1), parts(1, 1))).toBe(true)
    expect(Timestamp.addNanos(parts(Timestamp.MAX_SECONDS, 0), 10n ** 18n, parts)).toEqual(
      parts(Timestamp.MAX_SECONDS, 999_999_999)
    )
    expect(Timestamp.addNanos(parts(0, 0), -1n, parts)).toEqual(parts(-1, 999_999_999))
  })
})
