/**
 * The secrets of the interface (decisions.md section 8) and how to keep them out of text: the
 * secret fields (every `Redacted` field of the model and request schemas), the headers that carry
 * credentials, the secret values a JSON body holds, and a scrubber that replaces them in any text.
 * The server, the contract runner's reports and the conformance proxy all use these.
 *
 * @since 0.3.0
 */
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import * as Model from "./Model.js"
import * as Requests from "./Requests.js"
import { forEachProperty } from "./SchemaWalk.js"

/**
 * What a secret is replaced with.
 *
 * @since 0.3.0
 * @category constants
 */
export const REDACTED = "[redacted]"

/**
 * The shortest value treated as a secret when collecting or scrubbing values: 4 characters.
 *
 * Below it, replacing a value in free text would shred the text (every `a` of a report for a
 * one-letter value) and finding it in an answer would prove nothing. From 4 characters on, a
 * coincidental match costs one `[redacted]` too many in a report, whereas a higher floor would print
 * a short real password or key, which decisions.md section 8 forbids. The contract runner's own
 * secrets are long and distinctive (`ctsecret...`), so its leak check is not made noisier by it.
 *
 * @since 0.3.0
 * @category constants
 */
export const MIN_LENGTH = 4

/**
 * Request headers that carry credentials: never logged, recorded or shown.
 *
 * @since 0.3.0
 * @category headers
 */
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

/**
 * The names of the secret fields: every property whose schema is `Redacted`, at any depth, in the
 * model and request schemas (`apiKey`, `apiSecret`, `password`, `secret`, `webhookSecret`,
 * `certificate`, `privateKey`). Names are lowerCamelCase, as the schemas spell them.
 *
 * @since 0.3.0
 * @category fields
 */
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

/**
 * Whether a JSON key names a secret field, in lowerCamelCase or in its proto snake_case form
 * (`api_key`).
 *
 * @since 0.3.0
 * @category fields
 */
export const isFieldName = (key: string): boolean =>
  fieldNames.has(key) || (key.includes("_") && fieldNames.has(camel(key)))

/**
 * The values of the secret fields of a JSON value, at any depth: strings of at least `MIN_LENGTH`
 * characters, in the order met.
 *
 * @since 0.3.0
 * @category values
 */
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

/**
 * A copy of a JSON value with the value of every secret field (a non-empty string), at any depth,
 * replaced with `[redacted]`.
 *
 * @since 0.3.0
 * @category values
 */
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

/**
 * A function that replaces every occurrence of the given secret values in a text with
 * `[redacted]`. Values shorter than `MIN_LENGTH` are left alone; longer values are replaced
 * first, so a secret that contains another is hidden whole.
 *
 * @example
 * ```ts
 * import { Secrets } from "@data-access/schema"
 *
 * const scrub = Secrets.scrubber(Secrets.values({ basic: { password: "hunter22" } }))
 * scrub("login failed for password hunter22") // "login failed for password [redacted]"
 * ```
 *
 * @since 0.3.0
 * @category scrubbing
 */
export const scrubber = (secrets: Iterable<string>): ((text: string) => string) => {
  const ordered = [...new Set(secrets)]
    .filter((s) => s.length >= MIN_LENGTH)
    .sort((a, b) => b.length - a.length)
  if (ordered.length === 0) return (text) => text
  return (text) =>
    ordered.reduce((t, secret) => (t.includes(secret) ? t.split(secret).join(REDACTED) : t), text)
}
