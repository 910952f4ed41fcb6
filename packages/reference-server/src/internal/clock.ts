/**
 * The server's clock of stored timestamps.
 *
 * @internal
 */

// A monotonic clock of microseconds, one millisecond behind real time, so that every timestamp
// is strictly earlier than the response and every update strictly later than the one before.
let lastMicros = 0

/** A timestamp earlier than now, strictly later than every one given before (RFC 3339 text). */
export const stamp = (): string => {
  const now = Date.now() * 1000 - 1000
  lastMicros = Math.max(now, lastMicros + 1)
  const millis = Math.floor(lastMicros / 1000)
  const micros = lastMicros % 1000
  const iso = new Date(millis).toISOString()
  return micros === 0 ? iso : `${iso.slice(0, -1)}${String(micros).padStart(3, "0")}Z`
}
