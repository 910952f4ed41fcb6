// A variant of the domain's identifiers (the reference server's random.js): random UUIDs, neither
// ULID-shaped nor time-ordered, with no type prefix (SWEEP_IDS=uuid).
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

export const ulid = () => Crypto.randomUUID()
export const fastUlid = () => Crypto.randomUUID()
export const makeId = () => Crypto.randomUUID()
export const token = (bytes = 24) => Crypto.randomBytes(bytes).toString("base64url")
