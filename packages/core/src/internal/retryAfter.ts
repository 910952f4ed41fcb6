export const HEADER = "retry-after"

export const MILLIS_HEADER = "retry-after-ms"

// Digits with an optional fraction, surrounding whitespace allowed: `7`, `1.5`, ` 30 `. No sign,
// no exponent. (RFC 9110's delay-seconds is digits only; a fraction is read rather than refused.)
const numberPattern = /^\s*\d+(\.\d+)?\s*$/

export const parseSeconds = (value: string | undefined): number | undefined =>
  value !== undefined && numberPattern.test(value) ? Number(value) : undefined

const days = "(Mon|Tue|Wed|Thu|Fri|Sat|Sun)"

const longDays = "(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"

const months = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"

const time = "\\d{2}:\\d{2}:\\d{2}"

// RFC 9110 section 5.6.7: IMF-fixdate, and the obsolete RFC 850 and asctime forms a reader accepts.
const httpDatePattern = new RegExp(
  `^(${days}, \\d{2} ${months} \\d{4} ${time} GMT|${longDays}, \\d{2}-${months}-\\d{2} ${time} GMT|${days} ${months} ( \\d|\\d{2}) ${time} \\d{4})$`
)

export const parseHttpDate = (value: string): number | undefined => {
  const trimmed = value.trim()
  if (!httpDatePattern.test(trimmed)) return undefined
  // Date.parse reads the asctime form in local time: it has no zone, and HTTP dates are GMT.
  const millis = Date.parse(/\d{4}$/.test(trimmed) ? `${trimmed} GMT` : trimmed)
  return Number.isNaN(millis) ? undefined : millis
}

export const parse = (
  headers: Readonly<Record<string, string | undefined>>,
  nowMillis: number
): number | undefined => {
  const millis = parseSeconds(headers[MILLIS_HEADER])
  if (millis !== undefined) return millis
  const value = headers[HEADER]
  if (value === undefined) return undefined
  const seconds = parseSeconds(value)
  if (seconds !== undefined) return seconds * 1000
  const date = parseHttpDate(value)
  return date === undefined ? undefined : Math.max(0, date - nowMillis)
}

export const format = (seconds: number): string => String(Math.max(0, Math.ceil(seconds)))
