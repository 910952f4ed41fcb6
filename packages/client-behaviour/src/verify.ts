/** The checks of a case's run against what the case expects, and of a client against the operation table. */
import { type Case, methodName, type Observed, type Outcome, USER_AGENT } from "./model.js"

/** The few matchers of `expect` that the checks here use, whichever vitest runs them. */
export interface Expect {
  (
    actual: unknown,
    message?: string
  ): {
    toBe(expected: unknown): void
    toEqual(expected: unknown): void
    toMatchObject(expected: object): void
    toContain(expected: string): void
    toBeGreaterThan(expected: number): void
    toBeGreaterThanOrEqual(expected: number): void
    toBeLessThan(expected: number): void
    toBeLessThanOrEqual(expected: number): void
    toHaveLength(expected: number): void
    toBeTypeOf(expected: "string"): void
    readonly not: { toContain(expected: string): void }
  }
}

/** Compares how a call ended with the outcome a case expects. */
export const verifyOutcome = (
  outcome: Outcome,
  result: Observed["result"],
  expect: Expect
): void => {
  if (outcome._tag === "Interrupted") {
    expect(result._tag).toEqual("Interrupted")
  } else if (outcome._tag === "Success") {
    expect({
      result: result._tag,
      error: result._tag === "Failure" ? String(result.error) : undefined
    }).toEqual({
      result: "Success",
      error: undefined
    })
    if (result._tag !== "Success") return
    if (outcome.value !== undefined) expect(result.value).toMatchObject(outcome.value as object)
    if (outcome.items !== undefined) {
      const items = [...(result.value as Iterable<unknown>)]
      expect(items.length).toEqual(outcome.items.length)
      expect(items).toMatchObject(outcome.items as Array<unknown>)
    }
  } else {
    expect(result._tag).toEqual("Failure")
    if (result._tag !== "Failure") return
    expect(result.error).toMatchObject(outcome.error)
    if (outcome.statusFallback !== undefined)
      expect(result.statusFallback).toEqual(outcome.statusFallback)
    if (outcome.isRetryable !== undefined) expect(result.isRetryable).toEqual(outcome.isRetryable)
    if (outcome.says !== undefined) expect(String(result.error)).toContain(outcome.says)
    if (outcome.neverShows !== undefined) {
      expect(String(result.error)).not.toContain(outcome.neverShows)
      expect(JSON.stringify(result.error)).not.toContain(outcome.neverShows)
    }
  }
}

/** Compares what a run observed with its case. `userAgent` is the line's. */
export const verify = (c: Case, observed: Observed, expect: Expect, userAgent: string): void => {
  const { result, seen } = observed
  verifyOutcome(c.outcome, result, expect)
  // A call that succeeded or failed other than the case expects has nothing more to compare.
  if (c.outcome._tag !== "Interrupted" && result._tag !== c.outcome._tag) return
  const sent = c.sent
  if (typeof sent.count === "number") expect(seen.length).toEqual(sent.count)
  else {
    expect(seen.length).toBeGreaterThanOrEqual(sent.count[0])
    expect(seen.length).toBeLessThanOrEqual(sent.count[1])
  }
  if (sent.url !== undefined) for (const s of seen) expect(s.url).toEqual(sent.url)
  sent.headers?.forEach((expected, i) => {
    const actual = seen[i]?.headers ?? {}
    for (const [name, value] of Object.entries(expected)) {
      expect({ request: i, name, value: actual[name] }).toEqual({
        request: i,
        name,
        value: value === USER_AGENT ? userAgent : value
      })
    }
  })
  if (sent.bodies !== undefined) expect(seen.map((s) => s.body)).toEqual(sent.bodies)
  if (sent.interrupted !== undefined) {
    expect({ interrupted: observed.interrupted }).toEqual({
      interrupted: sent.interrupted === "each" ? seen.length : sent.interrupted
    })
  }
  if (c.endsAt !== undefined) {
    expect(observed.endedAt).toBeGreaterThanOrEqual(c.endsAt[0])
    expect(observed.endedAt).toBeLessThanOrEqual(c.endsAt[1])
  }
  sent.gaps?.forEach(([min, max], i) => {
    const gap = (seen[i + 1]?.at ?? NaN) - (seen[i]?.at ?? NaN)
    expect(gap).toBeGreaterThanOrEqual(min)
    expect(gap).toBeLessThanOrEqual(max)
  })
}
/**
 * Checks a client against the operation table: the service clients are exactly the table's
 * services, and each of them and the combined client have a method per operation (`getResource`)
 * and a `<method>Stream` per List operation.
 */
export const verifyServices = (
  table: Iterable<readonly [string, Iterable<{ readonly method: string; readonly kind: string }>]>,
  combined: object,
  serviceClients: Readonly<Record<string, object>>,
  expect: Expect
): void => {
  const services = [...table]
  expect(Object.keys(serviceClients).sort()).toEqual(services.map(([service]) => service).sort())
  for (const [service, ops] of services) {
    for (const op of ops) {
      const names =
        op.kind === "list"
          ? [methodName(op.method), methodName(op.method, true)]
          : [methodName(op.method)]
      for (const method of names) {
        const kinds = [combined, serviceClients[service]].map(
          (client) => typeof (client as Record<string, unknown> | undefined)?.[method]
        )
        expect({ service, method, kinds }).toEqual({
          service,
          method,
          kinds: ["function", "function"]
        })
      }
    }
  }
}
