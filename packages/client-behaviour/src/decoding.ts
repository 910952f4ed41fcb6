/**
 * The compiled decoder's oracle, for both Effect lines: on every input, the fast path
 * (`@data-access/core/Decoder` over the line's description of its schema) accepts exactly what the
 * line's own parser accepts, and returns an equal value (the same keys in the same order, secrets
 * with the same content, values of the same classes). Each line's test supplies its two decoders
 * and valid wire JSON; the mutations and the failure cases are the same for both.
 */

/** What a line's decoder answered. */
export type Outcome =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string }

/** The line's parts the oracle needs. */
export interface Line {
  /** The compiled decoder alone: the value, or `undefined` when it gives up (`FAIL`). */
  readonly fast: (u: unknown) => { readonly ok: true; readonly value: unknown } | undefined
  /** The line's own parser. */
  readonly slow: (u: unknown) => Outcome
  /** The client's decoder: the fast path, then the parser for the error. */
  readonly client: (u: unknown) => Outcome
  readonly isRedacted: (u: unknown) => boolean
  readonly redactedValue: (u: unknown) => unknown
}

/** A `Line` of a compiled decoder that returns its value or `FAIL`. */
export const line = (
  parts: Omit<Line, "fast"> & { readonly compiled: (u: unknown) => unknown; readonly FAIL: unknown }
): Line => ({
  fast: (u) => {
    const r = parts.compiled(u)
    return r === parts.FAIL ? undefined : { ok: true, value: r }
  },
  slow: parts.slow,
  client: parts.client,
  isRedacted: parts.isRedacted,
  redactedValue: parts.redactedValue
})

/** A seeded generator of integers (mulberry32). */
export interface Rng {
  nextInt(min: number, max: number): number
}

export const rng = (seed: number): Rng => {
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

const breakings: ReadonlyArray<(v: unknown) => unknown> = [
  () => 42, // a wrong type
  () => null,
  () => undefined,
  () => "",
  () => "x", // too short, not in an enum, not a timestamp
  () => "2025-13-01T00:00:00Z",
  () => "9223372036854775808", // beyond int64
  () => -1,
  () => 70000,
  () => 0.5,
  () => 2 ** 53,
  () => true,
  () => ({}),
  () => [],
  (v) => (typeof v === "string" ? `${v} ` : v)
]

/** Wire JSON of a valid response with some fields dropped, broken or added, to reach both answers. */
export const mutate = (json: unknown, rnd: Rng): unknown => {
  if (Array.isArray(json)) return json.map((x) => mutate(x, rnd))
  if (json !== null && typeof json === "object") {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(json)) {
      const roll = rnd.nextInt(0, 40)
      if (roll === 0) continue // the field left out
      if (roll <= breakings.length) out[k] = breakings[roll - 1]!(v)
      else out[k] = mutate(v, rnd)
    }
    if (rnd.nextInt(0, 10) === 0) out.unknownField = "ignored"
    return out
  }
  return json
}

/** A decoded value in a form `toEqual` compares exactly: classes named, secrets opened, key order kept. */
export const comparable = (
  line: Pick<Line, "isRedacted" | "redactedValue">,
  u: unknown
): unknown => {
  if (line.isRedacted(u)) return { redacted: comparable(line, line.redactedValue(u)) }
  if (Array.isArray(u)) return u.map((x) => comparable(line, x))
  if (typeof u === "bigint") return { bigint: u.toString() }
  if (u !== null && typeof u === "object") {
    const proto = Object.getPrototypeOf(u)
    const out: Array<unknown> = [proto === Object.prototype ? "object" : proto?.constructor?.name]
    for (const k of Object.keys(u)) out.push(k, comparable(line, (u as Record<string, unknown>)[k]))
    return out
  }
  return u
}

/** The secrets of a decoded value, each once (to check that no two decodes share one). */
export const secrets = (
  line: Pick<Line, "isRedacted">,
  u: unknown,
  out: Array<unknown> = []
): Array<unknown> => {
  if (line.isRedacted(u)) out.push(u)
  else if (Array.isArray(u)) for (const x of u) secrets(line, x, out)
  else if (u !== null && typeof u === "object")
    for (const k of Object.keys(u)) secrets(line, (u as Record<string, unknown>)[k], out)
  return out
}

/** The verdict on one input: what differs between the fast path and the parser, or undefined. */
export const disagreement = (line: Line, input: unknown): string | undefined => {
  const slow = line.slow(input)
  const fast = line.fast(input)
  if (fast === undefined)
    return slow.ok ? "the fast path gave up on an input the parser accepts" : undefined
  if (!slow.ok) return `the fast path accepts an input the parser rejects (${slow.error})`
  const a = JSON.stringify(comparable(line, fast.value))
  const b = JSON.stringify(comparable(line, slow.value))
  if (a !== b) return `the values differ:\n  fast ${a}\n  slow ${b}`
  // A second decode makes its own secrets: none is shared with the first (a wipe of one would
  // reach the other), nor with the input.
  const again = line.fast(input)
  const before = new Set(secrets(line, fast.value))
  if (again !== undefined && secrets(line, again.value).some((s) => before.has(s)))
    return "two decodes share a secret"
  const client = line.client(input)
  if (!client.ok || JSON.stringify(comparable(line, client.value)) !== b)
    return "the client's decoder differs from the parser"
  return undefined
}

/** Checks `inputs` and their mutations; returns how many the parser accepted and rejected. */
export const agree = (
  line: Line,
  inputs: Iterable<unknown>,
  seed: number,
  fail: (message: string, input: unknown) => void
): { accepted: number; rejected: number } => {
  const rnd = rng(seed)
  let accepted = 0
  let rejected = 0
  for (const wire of inputs) {
    for (const input of [wire, mutate(wire, rnd), mutate(wire, rnd)]) {
      const problem = disagreement(line, input)
      if (problem !== undefined) fail(problem, input)
      if (line.slow(input).ok) accepted++
      else rejected++
    }
  }
  return { accepted, rejected }
}

/** A valid GetResource response, for the failure cases' counterpart. */
export const validResource = {
  resource: {
    id: "resource_1",
    name: "db",
    technology: "postgres",
    hostname: "db.internal",
    port: 5432,
    createdAt: "2025-01-07T03:56:48.034Z"
  }
}

/**
 * One failure of each kind, as a change to a valid GetResource response: the fast path gives up
 * and the client's decoder fails with the parser's own error.
 */
export const failureCases: ReadonlyArray<{ readonly name: string; readonly input: unknown }> =
  (() => {
    const resource = validResource.resource
    const withResource = (patch: Record<string, unknown>, drop?: string) => {
      const r: Record<string, unknown> = { ...resource, ...patch }
      if (drop !== undefined) delete r[drop]
      return { resource: r }
    }
    return [
      { name: "not an object", input: [] },
      { name: "null body", input: null },
      { name: "a required field absent", input: withResource({}, "id") },
      { name: "a required nested object absent", input: {} },
      { name: "a wrong type", input: withResource({ name: 42 }) },
      { name: "null for a string", input: withResource({ hostname: null }) },
      { name: "a check (min length)", input: withResource({ id: "" }) },
      { name: "a check (integer range)", input: withResource({ port: 70000 }) },
      { name: "a check (integer)", input: withResource({ port: 0.5 }) },
      { name: "a value outside an enum", input: withResource({ technology: "oracle" }) },
      {
        name: "a transformation (bad timestamp)",
        input: withResource({ createdAt: "2025-13-01T00:00:00Z" })
      },
      {
        name: "a transformation (timestamp of the wrong type)",
        input: withResource({ createdAt: 1 })
      },
      { name: "a nested struct of the wrong type", input: withResource({ space: "space_1" }) },
      { name: "a nested struct's field", input: withResource({ space: { id: "" } }) }
    ]
  })()

/** The test runner's few functions the suite needs (vitest's, passed in: this package has no dependency). */
export interface TestApi {
  readonly describe: (name: string, body: () => void) => void
  readonly it: (name: string, body: () => void) => void
  readonly fail: (message: string) => never
}

/** The fast-check functions the suite needs (Effect 3's `FastCheck`, on both lines). */
export interface Properties {
  readonly assert: (property: any, options: { readonly numRuns: number }) => void
  readonly property: (...args: Array<any>) => unknown
  readonly integer: () => any
  readonly array: (
    item: any,
    options: { readonly minLength: number; readonly maxLength: number }
  ) => any
}

/** What a line's test gives the suite. */
export interface Suite {
  /** The operations whose responses are checked. */
  readonly methods: ReadonlyArray<string>
  /** `@data-access/core/Decoder`: its two compilers and `FAIL`. */
  readonly Decoder: {
    readonly compile: (node: never) => (u: unknown) => unknown
    readonly compileClosures: (node: never) => (u: unknown) => unknown
    readonly FAIL: unknown
  }
  /** The line's description of a method's response, its parser and its client's decoder. */
  readonly decoders: (method: string) => {
    readonly description: unknown
    readonly slow: (u: unknown) => Outcome
    readonly client: (u: unknown) => Outcome
  }
  /** The line's `Redacted` module. */
  readonly Redacted: {
    readonly isRedacted: (u: unknown) => boolean
    readonly value: (r: never) => unknown
  }
  /** An arbitrary of valid values of the method's response (of Effect 3's schema), and their wire JSON. */
  readonly values: (method: string) => unknown
  readonly wire: (method: string, value: unknown) => unknown
  /** An arbitrary of wire inputs of the response's encoded side (absent fields, nulls, out-of-range values). */
  readonly encoded: (method: string) => unknown
  readonly fc: Properties
  readonly runs: number
}

/** The compiled decoder's tests of one line: every response schema, and each kind of failure. */
export const run = (suite: Suite, t: TestApi): void => {
  const { fc, runs } = suite
  const lineOf = (method: string, compiler: "generated code" | "closures"): Line => {
    const { description, slow, client } = suite.decoders(method)
    const compile = compiler === "closures" ? suite.Decoder.compileClosures : suite.Decoder.compile
    return line({
      compiled: compile(description as never),
      FAIL: suite.Decoder.FAIL,
      slow,
      client,
      isRedacted: suite.Redacted.isRedacted,
      redactedValue: (u) => suite.Redacted.value(u as never)
    })
  }
  const fail = (message: string, input: unknown) =>
    t.fail(`${message}\n  input ${JSON.stringify(input)}`)
  for (const method of suite.methods) {
    t.describe(`${method} response`, () => {
      for (const compiler of ["generated code", "closures"] as const) {
        t.it(
          `the fast path (${compiler}) accepts what the parser accepts and returns an equal value`,
          () => {
            const l = lineOf(method, compiler)
            let accepted = 0
            fc.assert(
              fc.property(
                fc.array(suite.values(method), { minLength: 1, maxLength: 3 }),
                fc.integer(),
                (values: Array<unknown>, seed: number) => {
                  const wires = values.map(
                    (v) => JSON.parse(JSON.stringify(suite.wire(method, v))) as unknown
                  )
                  accepted += agree(l, wires, seed, fail).accepted
                }
              ),
              { numRuns: runs }
            )
            if (accepted <= runs) t.fail(`only ${accepted} accepted inputs`)
          }
        )
      }
      t.it(
        "agrees on wire inputs generated from the encoded side (absent fields, nulls, out-of-range values)",
        () => {
          const l = lineOf(method, "generated code")
          fc.assert(
            fc.property(suite.encoded(method), fc.integer(), (input: unknown, seed: number) => {
              agree(l, [input], seed, fail)
            }),
            { numRuns: runs }
          )
        }
      )
    })
  }
  t.describe("each kind of failure (GetResource)", () => {
    const l = lineOf("GetResource", "generated code")
    t.it("the valid counterpart decodes on the fast path", () => {
      if (l.fast(validResource) === undefined) t.fail("the fast path gave up on a valid response")
    })
    for (const { name, input } of failureCases) {
      t.it(`${name}: the fast path gives up, the client reports the parser's error`, () => {
        if (l.fast(input) !== undefined) fail("the fast path accepts it", input)
        const slow = l.slow(input)
        if (slow.ok) fail("the parser accepts it", input)
        if (JSON.stringify(l.client(input)) !== JSON.stringify(slow))
          fail("the client's error differs from the parser's", input)
      })
    }
  })
}
