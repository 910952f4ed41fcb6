/**
 * The checks both lines' integration tests make against the real reference server, as plain
 * functions of what a line's client returned: an operation's answer has the shape its kind
 * promises, and no secret the server returned shows in anything the client printed, logged or
 * traced.
 */
import { printed } from "./capture.js"
import type { Expect } from "./verify.js"

/** What the checks read of an operation of the table. */
export interface OperationShape {
  readonly method: string
  readonly kind: string
  /** A List response's array field. */
  readonly itemField?: string | undefined
  /** The field that wraps the object of a Get, Create or Update response. */
  readonly wrapperKey?: string | undefined
}

/**
 * Checks one answer of the server: a List has items and counts them; a Get, Create or Update has
 * its object (a Get the one asked for); the one unwrapped response has its username.
 */
export const verifyAnswer = (
  op: OperationShape,
  request: Readonly<Record<string, unknown>>,
  response: Readonly<Record<string, unknown>>,
  expect: Expect
): void => {
  if (op.kind === "list") {
    const items = response[op.itemField!] as ReadonlyArray<unknown>
    const count = (response.listMetadata as { count: number } | undefined)?.count
    expect({ method: op.method, some: items.length > 0, count }).toEqual({
      method: op.method,
      some: true,
      count: items.length
    })
  } else if (op.wrapperKey !== undefined) {
    const object = response[op.wrapperKey] as { id?: string } | ReadonlyArray<unknown> | undefined
    expect({ method: op.method, present: object !== undefined }).toEqual({
      method: op.method,
      present: true
    })
    if (op.kind === "get" && "id" in request && object !== undefined && !Array.isArray(object)) {
      expect({ method: op.method, id: (object as { id?: string }).id }).toEqual({
        method: op.method,
        id: request.id
      })
    }
  } else {
    expect({ method: op.method, username: typeof response.username }).toEqual({
      method: op.method,
      username: "string"
    })
  }
}

/** Every secret inside a decoded value: the text of each value `reveal` opens (a line's `Redacted`). */
export const secretsIn = (
  u: unknown,
  reveal: (u: unknown) => unknown,
  out: Set<string> = new Set()
): Set<string> => {
  const secret = reveal(u)
  if (secret !== undefined) {
    if (typeof secret === "string" && secret.length >= 4) out.add(secret)
  } else if (Array.isArray(u)) u.forEach((x) => secretsIn(x, reveal, out))
  else if (u !== null && typeof u === "object")
    Object.values(u).forEach((x) => secretsIn(x, reveal, out))
  return out
}

/** What a line saw of every operation called against a server that returns its secrets. */
export interface Leaks {
  /** The API key and every secret the decoded values hold. */
  readonly secrets: ReadonlySet<string>
  readonly values: ReadonlyArray<unknown>
  readonly errors: ReadonlyArray<unknown>
  /** Everything the tracer and logger recorded, as text. */
  readonly dump: string
  readonly spans: number
  readonly lines: number
}

/** Checks that there were secrets, spans and logs, and that no secret shows in any of them. */
export const verifyNoLeak = (leaks: Leaks, expect: Expect): void => {
  // The server returned secrets (passwords, webhook secrets, API keys of vendors) ...
  expect({
    secrets: leaks.secrets.size > 5,
    spans: leaks.spans > 22,
    lines: leaks.lines >= 2
  }).toEqual({ secrets: true, spans: true, lines: true })
  const everything = [leaks.dump, ...leaks.values.map(printed), ...leaks.errors.map(printed)].join(
    "\n"
  )
  // ... and none of them shows anywhere.
  const leaked = [...leaks.secrets].filter((secret) => everything.includes(secret))
  expect({ leaked: leaked.length }).toEqual({ leaked: 0 })
}
