import type { Parts } from "../Timestamp.js"

export const MIN_SECONDS = -62135596800

export const MAX_SECONDS = 253402300799

export const inRange = (seconds: number, nanos: number): boolean =>
  Number.isSafeInteger(seconds) &&
  Number.isInteger(nanos) &&
  nanos >= 0 &&
  nanos <= 999_999_999 &&
  seconds >= MIN_SECONDS &&
  seconds <= MAX_SECONDS

const OUT_OF_RANGE = "the instant is outside 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z"

const daysFromCivil = (y: number, m: number, d: number): number => {
  const yy = m <= 2 ? y - 1 : y
  const era = Math.floor(yy / 400)
  const yoe = yy - era * 400
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
}

const civilFromDays = (z0: number): readonly [number, number, number] => {
  const z = z0 + 719468
  const era = Math.floor(z / 146097)
  const doe = z - era * 146097
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365
  )
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1
  const m = mp + (mp < 10 ? 3 : -9)
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d]
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0

const daysInMonth = (y: number, m: number) =>
  m === 2 ? (isLeap(y) ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31

const NOT_RFC3339 =
  "expected an RFC 3339 timestamp such as 2024-01-31T12:00:00Z (four-digit year, zero-padded parts, upper-case T, an offset Z or ±hh:mm)"

/** The value of the ASCII digit at `i`, or -1 (the regex `\d` without the `u` flag: 0-9 only). */
const digitAt = (text: string, i: number): number => {
  const c = text.charCodeAt(i) - 48
  return c >= 0 && c <= 9 ? c : -1
}

/** The two-digit number at `i`, or -1. */
const twoDigits = (text: string, i: number): number => {
  const a = digitAt(text, i)
  const b = digitAt(text, i + 1)
  return a < 0 || b < 0 ? -1 : a * 10 + b
}

const POWERS_OF_TEN = [
  1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000
]

export const parse = <T>(text: string, make: (seconds: number, nanos: number) => T): T | string => {
  const length = text.length
  // The shortest valid text is 20 characters: 2024-01-31T12:00:00Z.
  if (length < 20) return NOT_RFC3339
  const y0 = digitAt(text, 0)
  const y1 = digitAt(text, 1)
  const y2 = digitAt(text, 2)
  const y3 = digitAt(text, 3)
  const month = twoDigits(text, 5)
  const day = twoDigits(text, 8)
  const hour = twoDigits(text, 11)
  const minute = twoDigits(text, 14)
  const second = twoDigits(text, 17)
  if (
    y0 < 0 ||
    y1 < 0 ||
    y2 < 0 ||
    y3 < 0 ||
    month < 0 ||
    day < 0 ||
    hour < 0 ||
    minute < 0 ||
    second < 0 ||
    text.charCodeAt(4) !== 45 /* - */ ||
    text.charCodeAt(7) !== 45 /* - */ ||
    text.charCodeAt(10) !== 84 /* T */ ||
    text.charCodeAt(13) !== 58 /* : */ ||
    text.charCodeAt(16) !== 58 /* : */
  ) {
    return NOT_RFC3339
  }
  // Optional fraction: a dot and at least one digit.
  let i = 19
  let fracDigits = 0
  let fracValue = 0
  if (text.charCodeAt(i) === 46 /* . */) {
    i++
    const start = i
    while (i < length) {
      const d = digitAt(text, i)
      if (d < 0) break
      // Only the first nine digits count; more are rejected below, after the calendar checks.
      if (i - start < 9) fracValue = fracValue * 10 + d
      i++
    }
    fracDigits = i - start
    if (fracDigits === 0) return NOT_RFC3339
  }
  // The offset: Z, or ±hh:mm, and then the end of the text.
  const designator = text.charCodeAt(i)
  let utc = false
  let sign = 0
  let offsetHours = 0
  let offsetMinutes = 0
  if (designator === 90 /* Z */ && i + 1 === length) {
    utc = true
  } else if ((designator === 43 /* + */ || designator === 45) /* - */ && i + 6 === length) {
    offsetHours = twoDigits(text, i + 1)
    offsetMinutes = twoDigits(text, i + 4)
    if (offsetHours < 0 || offsetMinutes < 0 || text.charCodeAt(i + 3) !== 58 /* : */)
      return NOT_RFC3339
    sign = designator === 45 ? -1 : 1
  } else {
    return NOT_RFC3339
  }
  const year = y0 * 1000 + y1 * 100 + y2 * 10 + y3
  if (year < 1) return "the year must be from 0001 to 9999"
  if (month < 1 || month > 12) return `month ${text.slice(5, 7)} does not exist`
  if (day < 1 || day > daysInMonth(year, month)) {
    return `day ${text.slice(8, 10)} does not exist in ${text.slice(0, 4)}-${text.slice(5, 7)}`
  }
  if (hour > 23) return `hour ${text.slice(11, 13)} is out of range`
  if (minute > 59) return `minute ${text.slice(14, 16)} is out of range`
  if (second > 59) return `second ${text.slice(17, 19)} is out of range`
  if (fracDigits > 9) return "at most 9 fractional digits are allowed"
  let offset = 0
  if (!utc) {
    if (offsetHours > 23 || offsetMinutes > 59)
      return `offset ${text.slice(i, i + 6)} is out of range`
    offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
  }
  const seconds =
    daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset
  const nanos = fracValue * POWERS_OF_TEN[9 - fracDigits]!
  return inRange(seconds, nanos) ? make(seconds, nanos) : OUT_OF_RANGE
}

const pad = (n: number, width: number) => String(n).padStart(width, "0")

export const format = (t: Parts): string => {
  if (t.nanos === 0) return `${wallClock(t.seconds)}Z`
  const digits = t.nanos % 1_000_000 === 0 ? 3 : t.nanos % 1000 === 0 ? 6 : 9
  return `${wallClock(t.seconds)}.${pad(t.nanos, 9).slice(0, digits)}Z`
}

/** `YYYY-MM-DDTHH:MM:SS` of a count of seconds since the epoch. */
const wallClock = (seconds: number): string => {
  const days = Math.floor(seconds / 86400)
  const secOfDay = seconds - days * 86400
  const [y, mo, d] = civilFromDays(days)
  return `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(Math.floor(secOfDay / 3600), 2)}:${pad(
    Math.floor((secOfDay % 3600) / 60),
    2
  )}:${pad(secOfDay % 60, 2)}`
}

export const formatAt = (
  t: Parts,
  options: { readonly offsetMinutes?: number; readonly digits?: number }
): string | undefined => {
  const offset = Math.trunc(options.offsetMinutes ?? 0)
  if (Math.abs(offset) >= 24 * 60) return undefined
  const local = t.seconds + offset * 60
  if (local < MIN_SECONDS || local > MAX_SECONDS) return undefined
  let needed = 9
  while (needed > 0 && t.nanos % POWERS_OF_TEN[10 - needed]! === 0) needed--
  const digits = Math.min(9, Math.max(needed, Math.trunc(options.digits ?? needed)))
  const fraction = digits === 0 ? "" : `.${pad(t.nanos, 9).slice(0, digits)}`
  const zone =
    offset === 0
      ? "Z"
      : `${offset < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(offset) / 60), 2)}:${pad(Math.abs(offset) % 60, 2)}`
  return `${wallClock(local)}${fraction}${zone}`
}

export const toEpochMillis = (t: Parts): number =>
  t.seconds * 1000 + Math.floor(t.nanos / 1_000_000)

export const toEpochNanos = (t: Parts): bigint =>
  BigInt(t.seconds) * 1_000_000_000n + BigInt(t.nanos)

export const fromEpochNanos = <T>(
  nanos: bigint,
  make: (seconds: number, nanos: number) => T
): T | undefined => {
  const seconds = nanos / 1_000_000_000n - (nanos % 1_000_000_000n < 0n ? 1n : 0n)
  const s = Number(seconds)
  const n = Number(nanos - seconds * 1_000_000_000n)
  return inRange(s, n) ? make(s, n) : undefined
}

export const fromEpochMillis = <T>(
  millis: number,
  make: (seconds: number, nanos: number) => T
): T | undefined => {
  if (!Number.isFinite(millis)) return undefined
  // Whole milliseconds exactly; a fraction rounded to the nanosecond, carrying into the next second.
  const whole = Math.floor(millis)
  return fromEpochNanos(
    BigInt(whole) * 1_000_000n + BigInt(Math.round((millis - whole) * 1_000_000)),
    make
  )
}

export const clockNanos = (nanos: bigint, millis: number): bigint =>
  Number.isInteger(millis) && nanos === BigInt(Math.floor(millis * 1_000_000))
    ? BigInt(millis) * 1_000_000n
    : nanos

export const compare = (a: Parts, b: Parts): -1 | 0 | 1 =>
  a.seconds < b.seconds
    ? -1
    : a.seconds > b.seconds
      ? 1
      : a.nanos < b.nanos
        ? -1
        : a.nanos > b.nanos
          ? 1
          : 0

export const equals = (a: Parts, b: Parts): boolean =>
  a.seconds === b.seconds && a.nanos === b.nanos

const MIN_NANOS = BigInt(MIN_SECONDS) * 1_000_000_000n

const MAX_NANOS = BigInt(MAX_SECONDS) * 1_000_000_000n + 999_999_999n

export const addNanos = <T>(
  t: Parts,
  delta: bigint,
  make: (seconds: number, nanos: number) => T
): T => {
  const n = toEpochNanos(t) + delta
  return fromEpochNanos(n < MIN_NANOS ? MIN_NANOS : n > MAX_NANOS ? MAX_NANOS : n, make)!
}
