/**
 * Identifiers and deterministic pseudo-random numbers.
 *
 * @internal
 */
import * as Crypto from "node:crypto"

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"

/** A deterministic generator of numbers in [0, 1) (mulberry32). */
export const prng = (seed: number): (() => number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const encodeTime = (millis: number): string => {
  let out = ""
  let t = Math.max(0, Math.floor(millis))
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[t % 32]! + out
    t = Math.floor(t / 32)
  }
  return out
}

/**
 * A lowercase ULID: 10 characters of time, 16 of randomness. `random` returns numbers in [0, 1);
 * without it the randomness comes from the operating system.
 */
export const ulid = (millis: number, random?: () => number): string => {
  let out = encodeTime(millis)
  if (random) {
    for (let i = 0; i < 16; i++) out += ALPHABET[Math.floor(random() * 32)]!
  } else {
    const bytes = Crypto.randomBytes(16)
    for (let i = 0; i < 16; i++) out += ALPHABET[bytes[i]! & 31]!
  }
  return out
}

/** A ULID whose randomness comes from `Math.random` (request ids: unique enough, not secret). */
export const fastUlid = (millis: number): string => ulid(millis, Math.random)

/** An identifier as decisions.md section 5 describes: `<prefix>_<ulid>`. */
export const makeId = (prefix: string, millis: number, random?: () => number): string =>
  `${prefix}_${ulid(millis, random)}`

/** A random secret-looking token (base64url). */
export const token = (bytes = 24): string => Crypto.randomBytes(bytes).toString("base64url")
