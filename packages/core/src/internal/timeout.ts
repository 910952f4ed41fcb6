import type { Timeout } from "../Timeout.js"

export const TIMEOUT_HEADER = "connect-timeout-ms"

export const MAX_TIMEOUT_MILLIS = 9_999_999_999

const timeoutPattern = /^[0-9]{1,10}$/

export const parseTimeout = (header: string | undefined): Timeout =>
  header === undefined
    ? { _tag: "None" }
    : timeoutPattern.test(header)
      ? { _tag: "Millis", millis: Number(header) }
      : { _tag: "Invalid", value: header }

export const formatTimeout = (millis: number): string => {
  const whole = Math.ceil(millis)
  return String(whole >= MAX_TIMEOUT_MILLIS ? MAX_TIMEOUT_MILLIS : whole >= 1 ? whole : 1)
}
