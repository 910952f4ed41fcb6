// A variant of the domain's identifiers (the reference server's random.js), by SWEEP_IDS: `uuid`
// (random UUIDs, neither ULID-shaped nor time-ordered, no type prefix), `b64` (base64 of random
// bytes: `+`, `/` and `=` in ids) or `seq` (a decimal counter: "1", "2"...).
import process from "node:process"
import * as Crypto from "node:crypto"

export const prng = (seed) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

let counter = 0
const mode = process.env.SWEEP_IDS

const newId = () =>
  mode === "b64"
    ? Crypto.randomBytes(16).toString("base64")
    : mode === "seq"
      ? String(++counter)
      : Crypto.randomUUID()

export const ulid = () => newId()
export const fastUlid = () => Crypto.randomUUID()
export const makeId = () => newId()
export const token = (bytes = 24) => Crypto.randomBytes(bytes).toString("base64url")
