// A variant of the domain's clock of stored timestamps (the reference server's clock.js), chosen by
// SWEEP_CLOCK: "ahead:<ms>" (a clock that many milliseconds ahead of real time), "grain:<ms>"
// (times rounded down to that grain: createdAt ties between objects made in one grain), or
// "nanos" (nanosecond timestamps, nine fractional digits).
import process from "node:process"
const [kind, arg] = (process.env.SWEEP_CLOCK ?? "").split(":")
const offset = kind === "ahead" ? Number(arg) : 0
let lastMicros = 0

const microStamp = () => {
  const now = (Date.now() + offset) * 1000 - 1000
  lastMicros = Math.max(now, lastMicros + 1)
  const millis = Math.floor(lastMicros / 1000)
  const micros = lastMicros % 1000
  return { millis, micros }
}

export const stamp = () => {
  if (kind === "grain") {
    const grain = Number(arg)
    return new Date(Math.floor((Date.now() - 1) / grain) * grain).toISOString()
  }
  const { millis, micros } = microStamp()
  const iso = new Date(millis).toISOString()
  if (kind === "nanos")
    return `${iso.slice(0, -1)}${String(micros).padStart(3, "0")}${String(1 + Math.floor(Math.random() * 999)).padStart(3, "0")}Z`
  return micros === 0 ? iso : `${iso.slice(0, -1)}${String(micros).padStart(3, "0")}Z`
}
