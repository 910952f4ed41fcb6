import { describe, expect, it } from "@effect/vitest"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Equal from "effect/Equal"
import * as Hash from "effect/Hash"
import * as FastCheck from "effect/FastCheck"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import * as Model from "../src/Model.js"
import * as Timestamp from "../src/Timestamp.js"
import { messagesAt, reject } from "./util.js"

const decode = Schema.decodeUnknownSync(Timestamp.TimestampString)
const encode = Schema.encodeSync(Timestamp.TimestampString)
const roundTrip = (text: string) => encode(decode(text))

describe("Timestamp: accepted text", () => {
  it("the ends of the range", () => {
    const lo = decode("0001-01-01T00:00:00Z")
    const hi = decode("9999-12-31T23:59:59.999999999Z")
    expect(lo).toEqual(Timestamp.min)
    expect(hi).toEqual(Timestamp.max)
    expect(encode(lo)).toBe("0001-01-01T00:00:00Z")
    expect(encode(hi)).toBe("9999-12-31T23:59:59.999999999Z")
    expect(Timestamp.toEpochNanos(hi) - Timestamp.toEpochNanos(lo)).toBe(
      (253402300799n - -62135596800n) * 1_000_000_000n + 999_999_999n
    )
  })

  it.each([
    ["2024-03-01T00:30:00+01:00", "2024-02-29T23:30:00Z"], // back over a leap day
    ["2023-12-31T23:30:00-01:00", "2024-01-01T00:30:00Z"], // forward over a new year
    ["2025-01-01T00:15:00.25+00:30", "2024-12-31T23:45:00.250Z"], // back over a new year
    ["2000-01-01T05:30:00+05:30", "2000-01-01T00:00:00Z"],
    ["1969-12-31T19:00:00.000000001-05:00", "1970-01-01T00:00:00.000000001Z"],
    ["2024-06-15T12:00:00-00:00", "2024-06-15T12:00:00Z"],
    ["2024-06-15T12:00:00+23:59", "2024-06-14T12:01:00Z"],
    ["0001-01-01T01:00:00+01:00", "0001-01-01T00:00:00Z"], // an offset onto the first instant
    ["9999-12-31T22:59:59.999999999-01:00", "9999-12-31T23:59:59.999999999Z"] // an offset onto the last
  ])("%s is read as %s", (input, output) => {
    expect(roundTrip(input)).toBe(output)
  })

  it.each([
    ["2024-05-06T07:08:09Z", "2024-05-06T07:08:09Z", 0],
    ["2024-05-06T07:08:09.0Z", "2024-05-06T07:08:09Z", 0],
    ["2024-05-06T07:08:09.1Z", "2024-05-06T07:08:09.100Z", 100_000_000],
    ["2024-05-06T07:08:09.12Z", "2024-05-06T07:08:09.120Z", 120_000_000],
    ["2024-05-06T07:08:09.123Z", "2024-05-06T07:08:09.123Z", 123_000_000],
    ["2024-05-06T07:08:09.1234Z", "2024-05-06T07:08:09.123400Z", 123_400_000],
    ["2024-05-06T07:08:09.12345Z", "2024-05-06T07:08:09.123450Z", 123_450_000],
    ["2024-05-06T07:08:09.123456Z", "2024-05-06T07:08:09.123456Z", 123_456_000],
    ["2024-05-06T07:08:09.1234567Z", "2024-05-06T07:08:09.123456700Z", 123_456_700],
    ["2024-05-06T07:08:09.12345678Z", "2024-05-06T07:08:09.123456780Z", 123_456_780],
    ["2024-05-06T07:08:09.123456789Z", "2024-05-06T07:08:09.123456789Z", 123_456_789],
    ["2024-05-06T07:08:09.000000001Z", "2024-05-06T07:08:09.000000001Z", 1],
    ["2024-05-06T07:08:09.000001Z", "2024-05-06T07:08:09.000001Z", 1000],
    ["2024-05-06T07:08:09.000000000Z", "2024-05-06T07:08:09Z", 0]
  ])("%s: nanos kept, written as %s", (input, output, nanos) => {
    const t = decode(input)
    expect(t.nanos).toBe(nanos)
    expect(encode(t)).toBe(output)
    expect(String(t)).toBe(output)
    expect(JSON.stringify({ t })).toBe(JSON.stringify({ t: output }))
  })

  it.prop(
    "any timestamp is written with Z and 0, 3, 6 or 9 digits, and read back exactly",
    { t: Timestamp.TimestampFromSelf },
    ({ t }) => {
      const text = Timestamp.format(t)
      expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3}|\.\d{6}|\.\d{9})?Z$/)
      expect(Timestamp.equivalence(decode(text), t)).toBe(true)
      expect(Timestamp.toEpochNanos(decode(text))).toBe(Timestamp.toEpochNanos(t))
    }
  )

  it.prop(
    "agrees with Date on the calendar, from year 1 to 9999",
    { millis: FastCheck.integer({ min: -62135596800000, max: 253402300799999 }) },
    ({ millis }) => {
      const t = Timestamp.fromEpochMillis(millis)!
      const iso = new Date(millis).toISOString() // always .mmm
      expect(Timestamp.format(t).replace(/Z$/, "").padEnd(23, ".000").slice(0, 23)).toBe(
        iso.slice(0, 23)
      )
      expect(decode(iso)).toEqual(t)
    }
  )
})

describe("Timestamp: rejected text", () => {
  it.each([
    ["10000-01-01T00:00:00Z", "expected an RFC 3339 timestamp"],
    ["0000-01-01T00:00:00Z", "the year must be from 0001 to 9999"],
    ["0000-12-31T23:59:59Z", "the year must be from 0001 to 9999"],
    ["2024-01-01T00:00:00.1234567890Z", "at most 9 fractional digits"],
    ["2024-01-01T00:00:00", "expected an RFC 3339 timestamp"],
    ["2024-01-01T00:00:00.123", "expected an RFC 3339 timestamp"],
    ["2023-02-29T00:00:00Z", "day 29 does not exist in 2023-02"],
    ["2100-02-29T00:00:00Z", "day 29 does not exist in 2100-02"],
    ["2024-04-31T00:00:00Z", "day 31 does not exist in 2024-04"],
    ["2024-13-01T00:00:00Z", "month 13 does not exist"],
    ["2024-01-01T24:00:00Z", "hour 24 is out of range"],
    ["2024-01-01T23:60:00Z", "minute 60 is out of range"],
    ["2024-01-01T23:59:60Z", "second 60 is out of range"],
    ["2024-01-01T00:00:00+24:00", "offset +24:00 is out of range"],
    ["2024-01-01t00:00:00z", "expected an RFC 3339 timestamp"],
    ["2024-01-01T00:00:00z", "expected an RFC 3339 timestamp"],
    ["2024-01-01 00:00:00Z", "expected an RFC 3339 timestamp"],
    ["2024-1-01T00:00:00Z", "expected an RFC 3339 timestamp"],
    ["2024-01-01T00:00:00.Z", "expected an RFC 3339 timestamp"],
    ["2024-01-01T00:00:00+0100", "expected an RFC 3339 timestamp"],
    ["yesterday", "expected an RFC 3339 timestamp"],
    ["", "expected an RFC 3339 timestamp"],
    ["0001-01-01T00:30:00+01:00", "outside 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z"],
    ["9999-12-31T23:30:00-01:00", "outside 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z"]
  ])("%s: %s", (input, reason) => {
    expect(Timestamp.parse(input)).toEqual(expect.stringContaining(reason))
    // inside an object, the message names the field and the offending text
    const { issues, tree } = reject(Model.Space, { id: "space_1", createdAt: input })
    expect(messagesAt(issues, ["createdAt"]).join("\n")).toContain(reason)
    expect(messagesAt(issues, ["createdAt"]).join("\n")).toContain(JSON.stringify(input))
    expect(tree).toContain(`["createdAt"]`)
  })

  it("a number or null is not a timestamp", () => {
    expect(
      messagesAt(reject(Model.Space, { id: "s", updatedAt: 1700000000 }).issues, ["updatedAt"])
    ).toEqual(["Expected string, actual 1700000000"])
    expect(reject(Model.Space, { id: "s", updatedAt: null }).tree).toContain(`["updatedAt"]`)
  })
})

// The regex reader `parse` had before it read the layout by position: the oracle it must agree
// with, on every text, message for message.
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
const daysInMonth = (y: number, m: number) =>
  m === 2 ? (isLeap(y) ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31
const oracle = (text: string): string | { seconds: number; nanos: number } => {
  const m = RFC3339.exec(text)
  if (m === null) {
    return "expected an RFC 3339 timestamp such as 2024-01-31T12:00:00Z (four-digit year, zero-padded parts, upper-case T, an offset Z or ±hh:mm)"
  }
  const [, ys, mos, ds, hs, mis, ss, frac, z, sign, ohs, oms] = m
  const [year, month, day, hour, minute, second] = [ys, mos, ds, hs, mis, ss].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number
  ]
  if (year < 1) return "the year must be from 0001 to 9999"
  if (month < 1 || month > 12) return `month ${mos} does not exist`
  if (day < 1 || day > daysInMonth(year, month)) return `day ${ds} does not exist in ${ys}-${mos}`
  if (hour > 23) return `hour ${hs} is out of range`
  if (minute > 59) return `minute ${mis} is out of range`
  if (second > 59) return `second ${ss} is out of range`
  if (frac !== undefined && frac.length > 9) return "at most 9 fractional digits are allowed"
  let offset = 0
  if (z === undefined) {
    const oh = Number(ohs)
    const om = Number(oms)
    if (oh > 23 || om > 59) return `offset ${sign}${ohs}:${oms} is out of range`
    offset = (sign === "-" ? -1 : 1) * (oh * 3600 + om * 60)
  }
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day) // setUTCFullYear: years 1 to 99 are not 1900 + year
  date.setUTCHours(hour, minute, second, 0)
  const seconds = date.getTime() / 1000 - offset
  const t = Timestamp.make(seconds, frac === undefined ? 0 : Number(frac.padEnd(9, "0")))
  return t === undefined
    ? "the instant is outside 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z"
    : { seconds: t.seconds, nanos: t.nanos }
}
const readable = (r: Timestamp.Timestamp | string) =>
  typeof r === "string" ? r : { seconds: r.seconds, nanos: r.nanos }

describe("Timestamp: the reader agrees with the RFC 3339 grammar", () => {
  // Texts near the layout: valid ones with one character replaced, dropped, doubled or appended.
  const layoutChars = "0123456789-T:.Z+ zt/٣\n"
  const nearLayout = FastCheck.tuple(
    FastCheck.integer({ min: -62135596800, max: 253402300799 }),
    FastCheck.integer({ min: 0, max: 999_999_999 }),
    FastCheck.constantFrom("", ".1", ".12345", ".123456789", ".1234567890", ".", ".000"),
    FastCheck.constantFrom(
      "Z",
      "+00:00",
      "-05:30",
      "+23:59",
      "+24:00",
      "-00:60",
      "+0100",
      "z",
      "",
      "Z\n",
      "+01:00:00"
    ),
    FastCheck.array(
      FastCheck.tuple(
        FastCheck.nat(40),
        FastCheck.constantFrom(...layoutChars),
        FastCheck.constantFrom("replace", "drop", "insert")
      ),
      { maxLength: 2 }
    )
  ).map(([seconds, nanos, frac, offset, edits]) => {
    let text =
      Timestamp.format(new Timestamp.Timestamp({ seconds, nanos })).slice(0, 19) + frac + offset
    for (const [at, c, how] of edits) {
      const i = at % (text.length + 1)
      text =
        how === "replace"
          ? text.slice(0, i) + c + text.slice(i + 1)
          : how === "drop"
            ? text.slice(0, i) + text.slice(i + 1)
            : text.slice(0, i) + c + text.slice(i)
    }
    return text
  })
  // Every calendar field out of range, in every combination.
  const fields = FastCheck.tuple(
    FastCheck.integer({ min: 0, max: 9999 }),
    FastCheck.integer({ min: 0, max: 99 }),
    FastCheck.integer({ min: 0, max: 99 }),
    FastCheck.integer({ min: 0, max: 99 }),
    FastCheck.integer({ min: 0, max: 99 }),
    FastCheck.integer({ min: 0, max: 99 }),
    FastCheck.constantFrom("Z", "+24:00", "-23:59", "+12:60", "+99:99", "-00:00")
  ).map(([y, mo, d, h, mi, s, offset]) => {
    const p = (n: number, w = 2) => String(n).padStart(w, "0")
    return `${p(y, 4)}-${p(mo)}-${p(d)}T${p(h)}:${p(mi)}:${p(s)}${offset}`
  })

  it.prop(
    "near the layout",
    [nearLayout],
    ([text]) => {
      expect(readable(Timestamp.parse(text))).toEqual(oracle(text))
    },
    { fastCheck: { numRuns: 5000 } }
  )

  it.prop(
    "every field in and out of range",
    [fields],
    ([text]) => {
      expect(readable(Timestamp.parse(text))).toEqual(oracle(text))
    },
    { fastCheck: { numRuns: 5000 } }
  )

  it.prop("any string", [FastCheck.string({ maxLength: 40 })], ([text]) => {
    expect(readable(Timestamp.parse(text))).toEqual(oracle(text))
  })
})

describe("Timestamp: values and conversions", () => {
  it("make checks the range and the nanos", () => {
    expect(Timestamp.make(Timestamp.MIN_SECONDS)).toEqual(Timestamp.min)
    expect(Timestamp.make(Timestamp.MIN_SECONDS - 1)).toBeUndefined()
    expect(Timestamp.make(Timestamp.MAX_SECONDS, 999_999_999)).toEqual(Timestamp.max)
    expect(Timestamp.make(Timestamp.MAX_SECONDS + 1)).toBeUndefined()
    expect(Timestamp.make(0, 1_000_000_000)).toBeUndefined()
    expect(Timestamp.make(0, -1)).toBeUndefined()
    expect(Timestamp.make(0.5)).toBeUndefined()
  })

  it("a parsed timestamp is indistinguishable from one built with new", () => {
    const parsed = Timestamp.parse("2024-05-06T07:08:09.123456789Z") as Timestamp.Timestamp
    const built = new Timestamp.Timestamp({ seconds: parsed.seconds, nanos: parsed.nanos })
    expect(parsed).toBeInstanceOf(Timestamp.Timestamp)
    expect(Object.getPrototypeOf(parsed)).toBe(Object.getPrototypeOf(built))
    expect(Object.getOwnPropertyNames(parsed)).toEqual(Object.getOwnPropertyNames(built))
    expect(Object.getOwnPropertyDescriptors(parsed)).toEqual(
      Object.getOwnPropertyDescriptors(built)
    )
    expect(Equal.equals(parsed, built)).toBe(true)
    expect(Hash.hash(parsed)).toBe(Hash.hash(built))
    expect(Timestamp.make(parsed.seconds, parsed.nanos)).toStrictEqual(built)
    expect(String(parsed)).toBe(String(built))
  })

  it("to and from Date and DateTime, at millisecond precision", () => {
    const t = decode("2024-02-29T12:34:56.789123456Z")
    expect(Timestamp.toDate(t).toISOString()).toBe("2024-02-29T12:34:56.789Z")
    expect(Timestamp.toEpochMillis(t)).toBe(Date.UTC(2024, 1, 29, 12, 34, 56, 789))
    expect(DateTime.formatIso(Timestamp.toDateTime(t))).toBe("2024-02-29T12:34:56.789Z")
    expect(Timestamp.format(Timestamp.fromDate(new Date("2024-02-29T12:34:56.789Z"))!)).toBe(
      "2024-02-29T12:34:56.789Z"
    )
    expect(
      Timestamp.format(Timestamp.fromDateTime(DateTime.unsafeMake("1999-12-31T23:59:59.001Z"))!)
    ).toBe("1999-12-31T23:59:59.001Z")
    // before 1970
    const old = decode("1900-01-01T00:00:00.5Z")
    expect(Timestamp.toDate(old).toISOString()).toBe("1900-01-01T00:00:00.500Z")
    expect(Timestamp.fromDate(Timestamp.toDate(old))).toEqual(old)
    // outside the range of the interface
    expect(Timestamp.fromDate(new Date("+010000-01-01T00:00:00Z"))).toBeUndefined()
    expect(Timestamp.fromDate(new Date(Number.NaN))).toBeUndefined()
  })

  it("fractional milliseconds round to the nanosecond and carry", () => {
    expect(Timestamp.format(Timestamp.fromEpochMillis(1.5)!)).toBe("1970-01-01T00:00:00.001500Z")
    expect(Timestamp.format(Timestamp.fromEpochMillis(999.9999999999)!)).toBe(
      "1970-01-01T00:00:01Z"
    )
    expect(Timestamp.format(Timestamp.fromEpochMillis(-0.5)!)).toBe("1969-12-31T23:59:59.999500Z")
    expect(Timestamp.fromEpochMillis(Number.POSITIVE_INFINITY)).toBeUndefined()
  })

  it("to and from nanoseconds since the epoch", () => {
    expect(Timestamp.fromEpochNanos(-1n)).toEqual(
      new Timestamp.Timestamp({ seconds: -1, nanos: 999_999_999 })
    )
    expect(Timestamp.format(Timestamp.fromEpochNanos(-1n)!)).toBe("1969-12-31T23:59:59.999999999Z")
    expect(Timestamp.toEpochNanos(decode("1970-01-01T00:00:01.000000002Z"))).toBe(1_000_000_002n)
  })

  it("orders instants, not texts", () => {
    const a = decode("2024-01-01T01:00:00+01:00") // 00:00Z
    const b = decode("2024-01-01T00:30:00Z")
    expect(Timestamp.isBefore(a, b)).toBe(true)
    expect(Timestamp.isAfter(b, a)).toBe(true)
    expect(Timestamp.Order(a, decode("2024-01-01T00:00:00Z"))).toBe(0)
    expect(
      Timestamp.isBefore(
        decode("2024-01-01T00:00:00.000000001Z"),
        decode("2024-01-01T00:00:00.000000002Z")
      )
    ).toBe(true)
  })

  it("formatAt writes the same instant at other offsets and with other fractional digits", () => {
    const t = decode("2024-01-01T00:30:00.1234Z")
    expect(Timestamp.formatAt(t, { offsetMinutes: 120 })).toBe("2024-01-01T02:30:00.1234+02:00")
    expect(Timestamp.formatAt(t, { offsetMinutes: -330, digits: 9 })).toBe(
      "2023-12-31T19:00:00.123400000-05:30"
    )
    // Fewer digits than the instant needs are not written: no digit is lost.
    expect(Timestamp.formatAt(t, { digits: 0 })).toBe("2024-01-01T00:30:00.1234Z")
    expect(Timestamp.formatAt(decode("2024-01-01T00:30:00Z"), { digits: 0 })).toBe(
      "2024-01-01T00:30:00Z"
    )
    for (const offsetMinutes of [-840, -1, 0, 1, 345, 840]) {
      for (const digits of [0, 3, 6, 9]) {
        const text = Timestamp.formatAt(t, { offsetMinutes, digits })!
        expect(Timestamp.Order(decode(text), t)).toBe(0)
      }
    }
    // A wall clock outside the years 0001 to 9999 has no RFC 3339 text.
    expect(Timestamp.formatAt(Timestamp.min, { offsetMinutes: -60 })).toBeUndefined()
    expect(Timestamp.formatAt(Timestamp.max, { offsetMinutes: 60 })).toBeUndefined()
    expect(Timestamp.formatAt(Timestamp.min, { offsetMinutes: 60 })).toBe(
      "0001-01-01T01:00:00+01:00"
    )
  })

  it("addNanos clamps to the range", () => {
    expect(Timestamp.addNanos(Timestamp.max, 1n)).toEqual(Timestamp.max)
    expect(Timestamp.addNanos(Timestamp.min, -1n)).toEqual(Timestamp.min)
    expect(Timestamp.format(Timestamp.addNanos(decode("2024-12-31T23:59:59.999999999Z"), 1n))).toBe(
      "2025-01-01T00:00:00Z"
    )
  })

  it.effect("now reads the Clock", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.UTC(2030, 0, 2, 3, 4, 5, 678))
      const t = yield* Timestamp.now
      expect(Timestamp.format(t)).toBe("2030-01-02T03:04:05.678Z")
    })
  )

  it.live("now is the real time with the live clock", () =>
    Effect.gen(function* () {
      const before = Date.now()
      const t = yield* Timestamp.now
      const after = Date.now()
      expect(Timestamp.toEpochMillis(t)).toBeGreaterThanOrEqual(before - 5)
      expect(Timestamp.toEpochMillis(t)).toBeLessThanOrEqual(after + 5)
    })
  )

  it("the decoded form is a Timestamp value", () => {
    expect(Schema.is(Timestamp.TimestampFromSelf)(decode("2024-01-01T00:00:00Z"))).toBe(true)
    expect(Schema.is(Timestamp.TimestampFromSelf)("2024-01-01T00:00:00Z")).toBe(false)
  })
})
