import * as Operations from "@data-access/schema/Operations"
import { describe, expect, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { makeDecoder } from "../src/internal/decode.js"

/** Compares decoded values, secrets included (Redacted values compare by content). */
const comparable = (u: unknown): unknown => {
  if (Redacted.isRedacted(u)) return { redacted: comparable(Redacted.value(u)) }
  if (Array.isArray(u)) return u.map(comparable)
  if (typeof u === "bigint") return { bigint: u.toString() }
  if (u !== null && typeof u === "object") {
    const proto = Object.getPrototypeOf(u)
    const out: Record<string, unknown> = { _proto: proto === Object.prototype ? "object" : proto?.constructor?.name }
    for (const k of Object.keys(u).sort()) out[k] = comparable((u as Record<string, unknown>)[k])
    return out
  }
  return u
}

interface Rng {
  nextInt(min: number, max: number): number
}
/** mulberry32: a small seeded generator. */
const rng = (seed: number): Rng => {
  let a = seed >>> 0
  return {
    nextInt(min, max) {
      a = (a + 0x6d2b79f5) >>> 0
      let t = a
      t = Math.imul(t ^ (t >>> 15), t | 1)
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
      const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296
      return min + Math.floor(r * (max - min + 1))
    }
  }
}

/** Wire JSON of a valid response, with some fields dropped or broken to exercise both paths. */
const mutate = (json: unknown, rnd: Rng): unknown => {
  if (Array.isArray(json)) return json.map((x) => mutate(x, rnd))
  if (json !== null && typeof json === "object") {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(json)) {
      const roll = rnd.nextInt(0, 30)
      if (roll === 0) continue // drop the field
      if (roll === 1) out[k] = 42 // wrong type
      else if (roll === 2) out[k] = null
      else if (roll <= 5 && typeof v === "number") out[k] = [-1, 70000, 2 ** 40, 0.5][roll - 3]! // out of range
      else if (roll <= 5 && typeof v === "string") out[k] = ["", "x", "2025-13-01T00:00:00Z"][roll - 3]! // too short, bad enum or time
      else out[k] = mutate(v, rnd)
    }
    if (rnd.nextInt(0, 10) === 0) out.unknownField = "ignored"
    return out
  }
  return json
}

describe("the fast decoder accepts and returns exactly what the schema does", () => {
  for (const op of Operations.all) {
    it(op.method, () => {
      const schema = op.response as unknown as Schema.Schema<unknown, unknown>
      const fast = makeDecoder(schema)
      const slow = Schema.decodeUnknownEither(schema)
      const encode = Schema.encodeSync(schema)
      let accepted = 0
      let rejected = 0
      FastCheck.assert(
        FastCheck.property(Arbitrary.make(schema), FastCheck.integer(), (value, seed) => {
          const wire = JSON.parse(JSON.stringify(encode(value))) as unknown
          const rnd = rng(seed)
          for (const input of [wire, mutate(wire, rnd)]) {
            const a = fast(input)
            const b = slow(input)
            expect(a._tag).toBe(b._tag)
            if (Either.isRight(a) && Either.isRight(b)) {
              accepted++
              expect(comparable(a.right)).toEqual(comparable(b.right))
              // The same keys in the same order, as a user's JSON.stringify or snapshot would show.
              expect(JSON.stringify(a.right, (_, v: unknown) => (typeof v === "bigint" ? String(v) : v))).toBe(
                JSON.stringify(b.right, (_, v: unknown) => (typeof v === "bigint" ? String(v) : v))
              )
            } else rejected++
          }
        }),
        { numRuns: 60 }
      )
      expect(accepted).toBeGreaterThan(0)
      void rejected
    })
  }
})
