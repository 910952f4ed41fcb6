import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import * as Model from "./model/index.js"
import * as Requests from "./requests.js"
import { forEachProperty } from "./schemaWalk.js"

export const REDACTED = "[redacted]"

export const MIN_LENGTH = 4

export const headerNames: ReadonlySet<string> = new Set([
  "x-api-key",
  "authorization",
  "cookie",
  "proxy-authorization"
])

/** Whether an AST is `Schema.Redacted(...)`: a secret on the wire. */
const isRedacted = (ast: AST.AST): boolean => {
  if (ast._tag === "Transformation") return isRedacted(ast.to)
  if (ast._tag === "Declaration") {
    const tc = ast.annotations[AST.TypeConstructorAnnotationId] as
      { readonly _tag?: string } | undefined
    return tc?._tag === "effect/Redacted"
  }
  return false
}

/** Adds the name of every `Redacted` property reachable from an AST (each node visited once). */
const collect = (root: AST.AST, names: Set<string>, seen: Set<AST.AST>): void =>
  // A recursive schema (filters): a few levels show every property, even if each step builds new nodes.
  forEachProperty(
    root,
    (p) => {
      if (typeof p.name === "string" && isRedacted(p.type)) names.add(p.name)
    },
    { seen, suspendDepth: 4 }
  )

export const fieldNames: ReadonlySet<string> = (() => {
  const names = new Set<string>()
  const seen = new Set<AST.AST>()
  for (const module of [Model, Requests] as ReadonlyArray<Record<string, unknown>>) {
    for (const value of Object.values(module))
      if (Schema.isSchema(value)) collect(value.ast, names, seen)
  }
  return names
})()

const camel = (key: string): string =>
  key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())

export const isFieldName = (key: string): boolean =>
  fieldNames.has(key) || (key.includes("_") && fieldNames.has(camel(key)))

export const values = (json: unknown): ReadonlyArray<string> => {
  const out: Array<string> = []
  // A stack rather than recursion: a body from the wire may be nested as deep as JSON.parse allows.
  // Children go on in reverse, so values come off in the order met; a found value is a `Found`.
  const stack: Array<unknown> = [json]
  while (stack.length > 0) {
    const v = stack.pop()
    if (v instanceof Found) out.push(v.value)
    else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i])
    } else if (v !== null && typeof v === "object") {
      const entries = Object.entries(v)
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, x] = entries[i]!
        if (typeof x === "string" && isFieldName(k)) {
          if (x.length >= MIN_LENGTH) stack.push(new Found(x))
        } else stack.push(x)
      }
    }
  }
  return out
}

class Found {
  constructor(readonly value: string) {}
}

export const redact = (json: unknown): unknown => {
  if (Array.isArray(json)) return json.map(redact)
  if (json !== null && typeof json === "object") {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(json))
      out[k] = typeof v === "string" && v !== "" && isFieldName(k) ? REDACTED : redact(v)
    return out
  }
  return json
}

export const scrubber = (secrets: Iterable<string>): ((text: string) => string) => {
  const ordered = [...new Set(secrets)]
    .filter((s) => s.length >= MIN_LENGTH)
    .sort((a, b) => b.length - a.length)
  if (ordered.length === 0) return (text) => text
  return (text) =>
    ordered.reduce((t, secret) => (t.includes(secret) ? t.split(secret).join(REDACTED) : t), text)
}
