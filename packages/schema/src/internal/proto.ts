/**
 * The API as a proto3 file (`proto/core/v1/api.proto`), rendered from the operation table and the
 * wire (encoded) side of its request and response schemas, so the `.proto` and the Effect Schemas
 * are one source. `scripts/proto.mjs` writes the file; a test fails when the committed one is stale.
 *
 * What maps to what:
 * - strings, unions of string literals (enum values such as `python3.11` are not proto enum
 *   names), refinements of strings and `Redacted` secrets -> `string`; base64 secrets -> `bytes`;
 * - integers -> `int32` (their bounds must fit), `Int64` -> `int64`, booleans -> `bool`;
 * - RFC 3339 timestamps -> `google.protobuf.Timestamp`; records of unknown values ->
 *   `google.protobuf.Struct`; a struct with an `@type` literal (the filter's value) ->
 *   `google.protobuf.Any`;
 * - arrays -> `repeated`; structs -> messages named by their `identifier` annotation (an unnamed
 *   struct is named after its owner and key); a union of structs of one key each (the filter) -> a
 *   message of one `oneof kind`;
 * - a scalar field is `optional` (explicit presence) when its wire form admits `null`, and on every
 *   optional field of a request (an update's absent field leaves the value unchanged, unlike
 *   `false` or `""`).
 *
 * Field numbers are fixed once: rendered with the file as it was, a field keeps its number, a new
 * field takes the message's next unused number and a removed field's number and name are reserved,
 * so a binary client built from an older file still reads every field it knows.
 *
 * @since 0.5.0
 */
import * as Option from "effect/Option"
import * as AST from "effect/SchemaAST"
import { Base64Secret, Int64 } from "./primitives.js"
import { TimestampString } from "./timestampSchemas.js"
import { type Operation, operations, PACKAGE } from "./operationTable.js"

/** The path of the file inside the package's `proto` folder (the buf module root). */
export const FILE = "core/v1/api.proto"

/** The name of the `oneof` that holds the fields of an operation's `oneOf` fact. */
const ONEOF_NAMES: Readonly<Record<string, string>> = { CreateHumanUserPassword: "user" }

const INT32_MIN = -2147483648
const INT32_MAX = 2147483647
const INT_SCHEMA_ID = Symbol.for("effect/SchemaId/Int")

const WKT = {
  Any: "google/protobuf/any.proto",
  Struct: "google/protobuf/struct.proto",
  Timestamp: "google/protobuf/timestamp.proto"
} as const

interface Field {
  readonly key: string
  readonly type: string
  readonly repeated: boolean
  readonly optional: boolean
  readonly secret: boolean
  readonly oneof: string | undefined
}

interface Message {
  readonly name: string
  readonly fields: ReadonlyArray<Field>
}

/** What a schema's wire form is once the transformations, refinements and `null` are peeled off. */
interface Peeled {
  readonly ast: AST.AST
  readonly identifier: string | undefined
  /** `null` is a wire value of the field (it reads as "not set"). */
  readonly nullable: boolean
  readonly secret: boolean
  readonly integer: boolean
  readonly minimum: number | undefined
  readonly maximum: number | undefined
  /** A schema the mapping names directly (`google.protobuf.Timestamp`, `int64`, `bytes`). */
  readonly special: string | undefined
}

const isNullish = (ast: AST.AST): boolean =>
  ast._tag === "UndefinedKeyword" || (ast._tag === "Literal" && ast.literal === null)

const isRedacted = (ast: AST.Transformation): boolean => {
  const to = ast.to
  if (to._tag !== "Declaration") return false
  const tc = to.annotations[AST.TypeConstructorAnnotationId] as
    { readonly _tag?: string } | undefined
  return tc?._tag === "effect/Redacted"
}

const numberBounds = (ast: AST.Refinement): { minimum?: number; maximum?: number } => {
  const js = Option.getOrUndefined(AST.getJSONSchemaAnnotation(ast)) as
    { readonly minimum?: unknown; readonly maximum?: unknown } | undefined
  return {
    ...(typeof js?.minimum === "number" ? { minimum: js.minimum } : {}),
    ...(typeof js?.maximum === "number" ? { maximum: js.maximum } : {})
  }
}

const peel = (root: AST.AST): Peeled => {
  let ast = root
  let identifier: string | undefined
  let nullable = false
  let secret = false
  let integer = false
  let minimum: number | undefined
  let maximum: number | undefined
  for (;;) {
    identifier ??= Option.getOrUndefined(AST.getIdentifierAnnotation(ast))
    const special =
      ast === TimestampString.ast
        ? "google.protobuf.Timestamp"
        : ast === Int64.ast
          ? "int64"
          : ast === Base64Secret.ast
            ? "bytes"
            : undefined
    if (special !== undefined) {
      return {
        ast,
        identifier,
        nullable,
        secret: secret || special === "bytes",
        integer,
        minimum,
        maximum,
        special
      }
    }
    switch (ast._tag) {
      case "Transformation":
        secret ||= isRedacted(ast)
        ast = ast.from
        continue
      case "Refinement": {
        if (Option.getOrUndefined(AST.getSchemaIdAnnotation(ast)) === INT_SCHEMA_ID) integer = true
        const b = numberBounds(ast)
        if (b.minimum !== undefined) minimum = Math.max(minimum ?? -Infinity, b.minimum)
        if (b.maximum !== undefined) maximum = Math.min(maximum ?? Infinity, b.maximum)
        ast = ast.from
        continue
      }
      case "Suspend":
        ast = ast.f()
        continue
      case "Union": {
        const rest = ast.types.filter((t) => !isNullish(t))
        if (rest.length < ast.types.length) {
          nullable ||= ast.types.some((t) => t._tag === "Literal" && t.literal === null)
          if (rest.length === 1) {
            ast = rest[0]!
            continue
          }
        }
        return { ast, identifier, nullable, secret, integer, minimum, maximum, special: undefined }
      }
      default:
        return { ast, identifier, nullable, secret, integer, minimum, maximum, special: undefined }
    }
  }
}

/**
 * Whether a schema's wire form is only `null` or absent: a field that carries nothing (the other
 * member of a one-of, `never` but for `null`).
 */
const isOnlyNullish = (ast: AST.AST): boolean => {
  const p = peel(ast)
  return (
    isNullish(p.ast) ||
    p.ast._tag === "NeverKeyword" ||
    (p.ast._tag === "Union" && p.ast.types.every(isNullish))
  )
}

const isStringish = (ast: AST.AST): boolean => {
  const p = peel(ast)
  if (p.special !== undefined) return false
  if (p.ast._tag === "StringKeyword" || p.ast._tag === "TemplateLiteral") return true
  if (p.ast._tag === "Literal") return typeof p.ast.literal === "string"
  if (p.ast._tag === "Union") return p.ast.types.every(isStringish)
  return false
}

const isAnyMessage = (ast: AST.AST): boolean =>
  ast._tag === "TypeLiteral" &&
  ast.propertySignatures.some((p) => p.name === "@type" && peel(p.type).ast._tag === "Literal")

const isOpaqueRecord = (ast: AST.AST): boolean =>
  ast._tag === "TypeLiteral" &&
  ast.propertySignatures.length === 0 &&
  ast.indexSignatures.length === 1 &&
  ast.indexSignatures[0]!.type._tag === "UnknownKeyword"

/** A union of structs that each carry one key (the filter): a message of one `oneof`. */
const oneofMembers = (ast: AST.Union): ReadonlyArray<AST.PropertySignature> | undefined => {
  const members: Array<AST.PropertySignature> = []
  for (const t of ast.types) {
    const p = peel(t)
    if (p.ast._tag !== "TypeLiteral" || p.ast.indexSignatures.length > 0) return undefined
    const carried = p.ast.propertySignatures.filter((s) => !isOnlyNullish(s.type))
    if (carried.length > 1) return undefined
    members.push(...carried)
  }
  const names = members.map((m) => m.name)
  return new Set(names).size === names.length && members.length > 0 ? members : undefined
}

const pascal = (key: string): string => key.charAt(0).toUpperCase() + key.slice(1)

/** The proto field name of a JSON key: lower_snake_case. */
export const snakeCase = (key: string): string =>
  key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/** The JSON name protoc gives a field name by default (underscores dropped, next letter upper). */
export const defaultJsonName = (name: string): string =>
  name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()).replace(/_/g, "")

const fail = (where: string, what: string): never => {
  throw new Error(`proto: ${where}: ${what}`)
}

interface Context {
  readonly messages: Map<
    string,
    { readonly ast: AST.AST; message: Message | undefined; text?: string }
  >
  readonly order: Array<string>
  readonly imports: Set<string>
}

/** The proto type of a field's schema, registering the messages it needs. */
const typeOf = (
  ctx: Context,
  owner: string,
  key: string,
  ast: AST.AST,
  request: boolean
): {
  readonly type: string
  readonly repeated: boolean
  readonly scalar: boolean
  readonly peeled: Peeled
} => {
  const where = `${owner}.${key}`
  const p = peel(ast)
  if (p.special !== undefined) {
    if (p.special === "google.protobuf.Timestamp") ctx.imports.add(WKT.Timestamp)
    return {
      type: p.special,
      repeated: false,
      scalar: p.special !== "google.protobuf.Timestamp",
      peeled: p
    }
  }
  const base = p.ast
  switch (base._tag) {
    case "StringKeyword":
    case "TemplateLiteral":
      return { type: "string", repeated: false, scalar: true, peeled: p }
    case "BooleanKeyword":
      return { type: "bool", repeated: false, scalar: true, peeled: p }
    case "NumberKeyword": {
      if (!p.integer) fail(where, "a number that is not an integer has no proto type here")
      if (
        p.minimum === undefined ||
        p.maximum === undefined ||
        p.minimum < INT32_MIN ||
        p.maximum > INT32_MAX
      ) {
        fail(where, `an integer must be bounded within int32 (got ${p.minimum} to ${p.maximum})`)
      }
      return { type: "int32", repeated: false, scalar: true, peeled: p }
    }
    case "Literal":
      if (typeof base.literal === "string")
        return { type: "string", repeated: false, scalar: true, peeled: p }
      return fail(where, `the literal ${String(base.literal)} has no proto type`)
    case "TupleType": {
      const items = [...base.elements.map((e) => e.type), ...base.rest.map((r) => r.type)]
      if (items.length === 0 || items.some((i) => i !== items[0]))
        fail(where, "only arrays of one item schema map to repeated")
      const item = typeOf(ctx, owner, key, items[0]!, request)
      if (item.repeated) fail(where, "an array of arrays has no proto type")
      return { type: item.type, repeated: true, scalar: false, peeled: item.peeled }
    }
    case "TypeLiteral": {
      if (isOpaqueRecord(base)) {
        ctx.imports.add(WKT.Struct)
        return { type: "google.protobuf.Struct", repeated: false, scalar: false, peeled: p }
      }
      if (isAnyMessage(base)) {
        ctx.imports.add(WKT.Any)
        return { type: "google.protobuf.Any", repeated: false, scalar: false, peeled: p }
      }
      const name = p.identifier ?? `${owner}${pascal(key)}`
      register(ctx, name, base, request, undefined)
      return { type: name, repeated: false, scalar: false, peeled: p }
    }
    case "Union": {
      if (isStringish(base)) return { type: "string", repeated: false, scalar: true, peeled: p }
      if (oneofMembers(base) !== undefined) {
        const name = p.identifier ?? `${owner}${pascal(key)}`
        register(ctx, name, base, request, undefined)
        return { type: name, repeated: false, scalar: false, peeled: p }
      }
      return fail(where, `a union of ${base.types.map((t) => t._tag).join(", ")} has no proto type`)
    }
    default:
      return fail(where, `${base._tag} has no proto type`)
  }
}

/** Builds a message's fields from a struct (or a union of one-key structs) and its nested messages. */
const build = (
  ctx: Context,
  name: string,
  ast: AST.AST,
  request: boolean,
  oneof: { readonly name: string; readonly keys: ReadonlyArray<string> } | undefined
): Message => {
  const fieldOf = (s: AST.PropertySignature, group: string | undefined): Field => {
    if (typeof s.name !== "string") return fail(name, "a property key must be a string")
    const t = typeOf(ctx, name, s.name, s.type, request)
    if (group !== undefined && t.repeated)
      fail(`${name}.${s.name}`, "a repeated field cannot be in a oneof")
    return {
      key: s.name,
      type: t.type,
      repeated: t.repeated,
      optional: t.scalar && group === undefined && (t.peeled.nullable || (request && s.isOptional)),
      secret: t.peeled.secret,
      oneof: group
    }
  }
  if (ast._tag === "Union") {
    const members = oneofMembers(ast) ?? fail(name, "a union must be of structs of one key each")
    return { name, fields: members.map((s) => fieldOf(s, "kind")) }
  }
  if (ast._tag !== "TypeLiteral") return fail(name, `${ast._tag} is not a struct`)
  if (ast.indexSignatures.length > 0)
    fail(name, "a struct with an index signature has no message form")
  return {
    name,
    fields: ast.propertySignatures
      .filter((s) => !isOnlyNullish(s.type))
      .map((s) =>
        fieldOf(
          s,
          oneof !== undefined && oneof.keys.includes(String(s.name)) ? oneof.name : undefined
        )
      )
  }
}

const register = (
  ctx: Context,
  name: string,
  ast: AST.AST,
  request: boolean,
  oneof: { readonly name: string; readonly keys: ReadonlyArray<string> } | undefined
): void => {
  const known = ctx.messages.get(name)
  if (known !== undefined) {
    // Two schemas of one name must render alike (a message is reached under several owners).
    if (known.ast !== ast && known.message !== undefined) {
      const other = renderMessage(
        build({ ...ctx, messages: new Map(ctx.messages), order: [] }, name, ast, request, oneof)
      )
      if (other !== renderMessage(known.message))
        fail(name, "two different schemas have this identifier")
    }
    return
  }
  const entry: { ast: AST.AST; message: Message | undefined } = { ast, message: undefined }
  ctx.messages.set(name, entry)
  ctx.order.push(name)
  entry.message = build(ctx, name, ast, request, oneof)
}

const fieldLine = (f: Field, number: number, indent: string): Array<string> => {
  const snake = snakeCase(f.key)
  if (!/^[a-z][a-z0-9_]*$/.test(snake)) fail(f.key, "the key has no lower_snake_case field name")
  const jsonName = defaultJsonName(snake) === f.key ? "" : ` [json_name = "${f.key}"]`
  const label = f.repeated ? "repeated " : f.optional ? "optional " : ""
  return [
    ...(f.secret ? [`${indent}// A secret (decisions.md section 8): never logged or shown.`] : []),
    `${indent}${label}${f.type} ${snake} = ${number}${jsonName};`
  ]
}

/** The field numbers and reservations of one message of an earlier file. */
interface Numbering {
  readonly numbers: ReadonlyMap<string, number>
  readonly reservedNumbers: ReadonlyArray<number>
  readonly reservedNames: ReadonlyArray<string>
}

/** Reads the field numbers and reservations of every message of an earlier rendering. */
export const numberings = (previous: string): ReadonlyMap<string, Numbering> => {
  const out = new Map<string, Numbering>()
  for (const m of previous.matchAll(/^message (\w+) \{\n([\s\S]*?)^\}/gm)) {
    const body = m[2]!
    const numbers = new Map(
      [...body.matchAll(/^\s+(?:\w+ )?[\w.]+ (\w+) = (\d+)/gm)].map((f) => [f[1]!, Number(f[2])])
    )
    const reserved = [...body.matchAll(/^\s+reserved (.+);$/gm)].flatMap((r) => r[1]!.split(", "))
    out.set(m[1]!, {
      numbers,
      reservedNumbers: reserved.filter((r) => /^\d+$/.test(r)).map(Number),
      reservedNames: reserved.filter((r) => r.startsWith('"')).map((r) => r.slice(1, -1))
    })
  }
  return out
}

/** A message's field numbers: an earlier file's where it has the field, else the next unused. */
const numberFields = (m: Message, earlier: Numbering | undefined): Numbering => {
  const numbers = new Map<string, number>()
  let next = Math.max(0, ...(earlier?.numbers.values() ?? []), ...(earlier?.reservedNumbers ?? []))
  for (const f of m.fields) {
    numbers.set(f.key, earlier?.numbers.get(snakeCase(f.key)) ?? ++next)
  }
  const names = new Set(m.fields.map((f) => snakeCase(f.key)))
  const removed = [...(earlier?.numbers ?? [])].filter(([name]) => !names.has(name))
  return {
    numbers,
    reservedNumbers: [...(earlier?.reservedNumbers ?? []), ...removed.map(([, n]) => n)].sort(
      (a, b) => a - b
    ),
    reservedNames: [...(earlier?.reservedNames ?? []), ...removed.map(([name]) => name)].sort()
  }
}

const renderMessage = (m: Message, earlier?: Numbering): string => {
  const { numbers, reservedNumbers, reservedNames } = numberFields(m, earlier)
  const lines = [`message ${m.name} {`]
  const done = new Set<string>()
  for (const f of m.fields) {
    if (f.oneof === undefined) {
      lines.push(...fieldLine(f, numbers.get(f.key)!, "  "))
    } else if (!done.has(f.oneof)) {
      done.add(f.oneof)
      lines.push(`  oneof ${f.oneof} {`)
      for (const g of m.fields) {
        if (g.oneof === f.oneof) lines.push(...fieldLine(g, numbers.get(g.key)!, "    "))
      }
      lines.push("  }")
    }
  }
  if (reservedNumbers.length > 0) {
    lines.push(
      `  reserved ${reservedNumbers.join(", ")};`,
      `  reserved ${reservedNames.map((n) => `"${n}"`).join(", ")};`
    )
  }
  lines.push("}")
  return lines.join("\n")
}

const rootAst = (ast: AST.AST, where: string): AST.AST => {
  const p = peel(ast)
  if (p.ast._tag !== "TypeLiteral") fail(where, "a request or response must be a struct")
  return p.ast
}

const rpcComment = (o: Operation): Array<string> => {
  const headers = Object.entries(o.requiredHeaders).map(([h, v]) => `${h}: ${v}`)
  return [
    `  // ${o.kind === "list" ? "A paged list" : o.kind === "get" ? "A read" : o.kind === "create" ? "A create" : "An update (absent fields are left unchanged)"}; POST ${o.path}.`,
    ...(headers.length > 0 ? [`  // Requires the header ${headers.join(", ")}.`] : [])
  ]
}

/**
 * The whole `.proto` file of an operation table (by default the interface's: 13 services, 22 rpcs
 * and their messages), keeping the field numbers of `previous` (the file as it was). Throws on a
 * schema that has no proto form.
 */
export const render = (
  table: Readonly<Record<string, Operation>> = operations,
  previous = ""
): string => {
  const earlier = numberings(previous)
  const all: ReadonlyArray<Operation> = Object.values(table)
  const ctx: Context = { messages: new Map(), order: [], imports: new Set() }
  for (const o of all) {
    const oneof =
      o.oneOf !== undefined ? { name: ONEOF_NAMES[o.method] ?? "choice", keys: o.oneOf } : undefined
    register(ctx, `${o.method}Request`, rootAst(o.request.ast, `${o.method}Request`), true, oneof)
    register(
      ctx,
      `${o.method}Response`,
      rootAst(o.response.ast, `${o.method}Response`),
      false,
      undefined
    )
  }
  const services = new Map<string, Array<Operation>>()
  for (const o of all) services.set(o.service, [...(services.get(o.service) ?? []), o])
  const out: Array<string> = [
    "// Code generated by @data-access/schema (scripts/proto.mjs) from the operation table",
    "// (src/internal/operationTable.ts) and the wire side of its request and response schemas.",
    "// DO NOT EDIT: change the schemas and run the package's build, which keeps every field's",
    "// number from this file (a new field takes the next one; a removed one's is reserved).",
    "//",
    "// The Connect JSON form of these messages is the interface's wire form: field names in",
    "// lowerCamelCase, int64 as strings, timestamps in RFC 3339. Enumerated values travel as",
    "// strings (values such as `python3.11` and `dry-run` are not proto enum names).",
    'syntax = "proto3";',
    "",
    `package ${PACKAGE};`,
    "",
    ...[...ctx.imports].sort().map((i) => `import "${i}";`),
    ""
  ]
  for (const [service, ops] of services) {
    out.push(`service ${service} {`)
    for (const o of ops) {
      out.push(
        ...rpcComment(o),
        `  rpc ${o.method}(${o.method}Request) returns (${o.method}Response);`
      )
    }
    out.push("}", "")
  }
  for (const name of ctx.order)
    out.push(renderMessage(ctx.messages.get(name)!.message!, earlier.get(name)), "")
  return out.join("\n").replace(/\n+$/, "\n")
}
