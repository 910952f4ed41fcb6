// Writes src/generated/*.ts, the Effect 4 form of the contract, from the Effect 3 package
// `@data-access/schema`: it walks the SchemaAST of every exported schema and the operation table,
// and copies the plain-data exports (wire constants, code tables, filter keys). The contract is
// written once, in packages/schema; nothing under src/generated is edited by hand.
//
//   node scripts/generate.mjs          write the files
//   node scripts/generate.mjs --check  exit 1 when a committed file differs from the output
//
// `render()` is also imported by test/Generated.test.ts, which fails when the files are stale.
//
// What maps to what (Effect 3 AST -> Effect 4 source):
// - keywords (`never`: the other member of a one-of, set only as `null`), literals, unions, arrays, non-empty arrays, structs -> the same constructors;
// - refinements -> `.check(...)` with the filter read from the refinement's JSON Schema
//   annotation (minLength, minimum/maximum, integer, pattern) and its message; the one-of rule of
//   CreateHumanUserPasswordRequest (its `oneOf` annotation) -> `Fields.exactlyOne(keys)`;
// - `Schema.Redacted(S)` -> `Schema.RedactedFromValue(S)`;
// - property transformations, classified by running their decode: an absent key that reads as a
//   value -> `Fields.withDefault(S, value)`; `null` that reads as "not set" -> `Fields.nullable(S)`;
// - a transformation to the empty struct -> `Fields.toEmptyObject(S)`;
// - `suspend` back to a named schema -> `Schema.suspend` with printed Type / Encoded types;
// - per-line schemas (`Timestamp`, `Int64`) -> the hand-written modules of this package.
import { readFileSync, realpathSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { isMain, renameForEffect4, writeOrCheck } from "../../../scripts/generated-files.mjs"

const here = dirname(fileURLToPath(import.meta.url))
const outDir = join(here, "..", "src", "generated")
const schemaDir = dirname(fileURLToPath(import.meta.resolve("@data-access/schema/package.json")))
const schemaVersion = JSON.parse(readFileSync(join(schemaDir, "package.json"), "utf8")).version
// The Effect 3 copy that @data-access/schema itself imports.
const effect3Dir = realpathSync(join(schemaDir, "node_modules", "effect"))
const effect3 = (m) => import(pathToFileURL(join(effect3Dir, "dist", "esm", `${m}.js`)).href)

const [Option, Redacted, Schema, AST] = await Promise.all(
  ["Option", "Redacted", "Schema", "SchemaAST"].map(effect3)
)

/** The Effect 3 modules read, in dependency order, each with the generated file it becomes. */
const MODULES = [
  "Timestamp",
  "Primitives",
  "Filter",
  "Model",
  "Requests",
  "ConnectError",
  "KnownIds",
  "Operations"
]
const source = Object.fromEntries(
  await Promise.all(MODULES.map(async (m) => [m, await import(`@data-access/schema/${m}`)]))
)

/** A module's exports in name order (a namespace object's own order differs between loaders). */
const sortedEntries = (ns) =>
  Object.keys(ns)
    .sort()
    .map((k) => [k, ns[k]])

/** Exports written by hand in this package, per line (not contract facts). */
const HAND_WRITTEN = new Map([
  [
    source.Timestamp.TimestampString.ast,
    { module: "Timestamp", file: "../Timestamp.js", name: "TimestampString" }
  ],
  [source.Primitives.Int64.ast, { module: "Fields", file: "../internal/fields.js", name: "Int64" }]
])
/** Classes and helpers left to each line (the ConnectError class is hand-written in ConnectError.ts). */
const SKIP = new Set([
  "ConnectError.ConnectError",
  "Timestamp.TimestampFromSelf",
  "Timestamp.TimestampString",
  "Primitives.Int64",
  "KnownIds.decodeJson"
])
/** Modules read but not written: Timestamp's values are generated from source (SOURCE_MODULES), its schemas are hand-written. */
const NOT_WRITTEN = new Set(["Timestamp"])

// ---------------------------------------------------------------------------------------------
// Annotations
// ---------------------------------------------------------------------------------------------

const annotation = (ast, key) => ast.annotations[Symbol.for(`effect/annotation/${key}`)]
const identifierOf = (ast) => annotation(ast, "Identifier")
const PATTERN_ID = Symbol.for("effect/SchemaId/Pattern")

/** The message of a refinement, when its annotation is a constant. */
const messageOf = (ast) => {
  const f = annotation(ast, "Message")
  if (typeof f !== "function") return undefined
  try {
    const m = f({ _tag: "Type", ast, actual: undefined })
    const text = typeof m === "string" ? m : typeof m?.message === "string" ? m.message : undefined
    return text
  } catch {
    return undefined
  }
}

// ---------------------------------------------------------------------------------------------
// Values (defaults and plain data) as TypeScript source
// ---------------------------------------------------------------------------------------------

const isPlainData = (v) => {
  if (v === null || ["string", "number", "boolean"].includes(typeof v)) return true
  if (Array.isArray(v)) return v.every(isPlainData)
  if (v instanceof Set) return [...v].every((x) => x === null || typeof x !== "object")
  if (typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype)
    return Object.values(v).every(isPlainData)
  return false
}

const key = (k) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : JSON.stringify(k))

/** A value as source; `ctx.use(name)` records what it needs imported. */
const value = (v, ctx) => {
  if (typeof v === "bigint") return `${v}n`
  if (v === undefined) return "undefined"
  if (v === null || ["string", "number", "boolean"].includes(typeof v)) return JSON.stringify(v)
  if (Redacted.isRedacted(v)) {
    ctx.use("Redacted")
    return `Redacted.make(${value(Redacted.value(v), ctx)})`
  }
  if (Array.isArray(v)) return `[${v.map((x) => value(x, ctx)).join(", ")}]`
  if (v instanceof Set) return `new Set(${value([...v], ctx)})`
  if (typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
    const entries = Object.entries(v)
    return entries.length === 0
      ? "{}"
      : `{ ${entries.map(([k, x]) => `${key(k)}: ${value(x, ctx)}`).join(", ")} }`
  }
  throw new Error(`cannot write the value ${String(v)} as source`)
}

// ---------------------------------------------------------------------------------------------
// The registry: every exported schema by its AST, so references stay references
// ---------------------------------------------------------------------------------------------

/** AST -> { module, name, ast } */
const named = new Map()
for (const m of MODULES) {
  if (NOT_WRITTEN.has(m)) continue
  for (const [name, v] of sortedEntries(source[m])) {
    if (SKIP.has(`${m}.${name}`) || !Schema.isSchema(v)) continue
    if (!named.has(v.ast)) named.set(v.ast, { module: m, name, ast: v.ast })
  }
}
// The responses live only inside the operation table: they are named after their identifier.
for (const op of source.Operations.all) {
  if (!named.has(op.response.ast))
    named.set(op.response.ast, {
      module: "Operations",
      name: `${op.method}Response`,
      ast: op.response.ast
    })
}

// ---------------------------------------------------------------------------------------------
// Printing TypeScript types (only for recursive schemas, whose type TypeScript cannot infer)
// ---------------------------------------------------------------------------------------------

const printType = (ast, self, side) => {
  switch (ast._tag) {
    case "StringKeyword":
      return "string"
    case "NumberKeyword":
      return "number"
    case "BooleanKeyword":
      return "boolean"
    case "UndefinedKeyword":
      return "undefined"
    case "UnknownKeyword":
      return "unknown"
    case "NeverKeyword":
      return "never"
    case "Literal":
      return JSON.stringify(ast.literal)
    case "Union":
      return ast.types.map((t) => printType(t, self, side)).join(" | ")
    case "Refinement":
      return printType(ast.from, self, side)
    case "Suspend":
      return `${self.name}${side}`
    case "Transformation":
      return printType(side === "Type" ? ast.to : ast.from, self, side)
    case "TupleType": {
      const rest = ast.rest.map((r) => printType(r.type, self, side))
      if (ast.elements.length === 0) return `ReadonlyArray<${rest[0]}>`
      return `readonly [${ast.elements.map((e) => printType(e.type, self, side)).join(", ")}, ...Array<${rest[0]}>]`
    }
    case "TypeLiteral": {
      if (ast.indexSignatures.length > 0)
        return `{ readonly [x: string]: ${printType(ast.indexSignatures[0].type, self, side)} }`
      const props = ast.propertySignatures.map(
        (p) => `readonly ${key(p.name)}${p.isOptional ? "?" : ""}: ${printType(p.type, self, side)}`
      )
      return props.length === 0 ? "{}" : `{ ${props.join("; ")} }`
    }
  }
  throw new Error(`cannot print the type of a ${ast._tag}`)
}

// ---------------------------------------------------------------------------------------------
// Schemas as Effect 4 source
// ---------------------------------------------------------------------------------------------

const withoutUndefined = (ast) => {
  if (ast._tag !== "Union") return { ast, undefinedToo: false }
  const rest = ast.types.filter((t) => t._tag !== "UndefinedKeyword")
  if (rest.length === ast.types.length) return { ast, undefinedToo: false }
  return { ast: rest.length === 1 ? rest[0] : AST.Union.make(rest), undefinedToo: true }
}

const isRedactedDeclaration = (ast) =>
  ast._tag === "Declaration" &&
  ast.typeParameters.length === 1 &&
  String(annotation(ast, "Description") ?? "").startsWith("Redacted(")

const isNullLiteral = (ast) => ast._tag === "Literal" && ast.literal === null

/** The checks of one refinement (its own filter, not its `from`). */
const checksOf = (ast, ctx) => {
  const json = annotation(ast, "JSONSchema") ?? {}
  const message = messageOf(ast)
  const ann = message !== undefined ? `, { message: ${JSON.stringify(message)} }` : ""
  const annOnly = message !== undefined ? `{ message: ${JSON.stringify(message)} }` : ""
  if (
    Array.isArray(json.oneOf) &&
    json.oneOf.every((o) => Array.isArray(o.required) && o.required.length === 1)
  ) {
    ctx.use("Fields")
    return `Fields.exactlyOne(${JSON.stringify(json.oneOf.map((o) => o.required[0]))})`
  }
  if (json.type === "integer" && Object.keys(json).length === 1) return `Schema.isInt(${annOnly})`
  if (typeof json.minLength === "number" && Object.keys(json).length === 1)
    return `Schema.isMinLength(${json.minLength}${ann})`
  if (
    typeof json.minimum === "number" &&
    typeof json.maximum === "number" &&
    Object.keys(json).length === 2
  ) {
    return `Schema.isBetween({ minimum: ${json.minimum}, maximum: ${json.maximum} }${ann})`
  }
  if (typeof json.minimum === "number" && Object.keys(json).length === 1) {
    return `Schema.isGreaterThanOrEqualTo(${json.minimum}${ann})`
  }
  const pattern = ast.annotations[PATTERN_ID]?.regex
  if (pattern instanceof RegExp) return `Schema.isPattern(${pattern.toString()}${ann})`
  throw new Error(
    `a refinement (${identifierOf(ast) ?? annotation(ast, "Title") ?? "?"}) with no known filter: ${JSON.stringify(json)}`
  )
}

/** One struct field of a plain (untransformed) struct. */
const plainField = (p, ctx) => {
  if (!p.isOptional) return gen(p.type, ctx)
  const { ast, undefinedToo } = withoutUndefined(p.type)
  return undefinedToo ? `Schema.optional(${gen(ast, ctx)})` : `Schema.optionalKey(${gen(ast, ctx)})`
}

/** One field with a property transformation, classified by what its decode does. */
const transformedField = (fromProp, toProp, pst, ctx) => {
  const absent = pst.decode(Option.none())
  if (fromProp.isOptional && !toProp.isOptional && Option.isSome(absent)) {
    const { ast, undefinedToo } = withoutUndefined(fromProp.type)
    ctx.use("Fields")
    const fn = undefinedToo ? "withDefault" : "withDefaultKey"
    return `Fields.${fn}(${gen(ast, ctx)}, ${value(absent.value, ctx)})`
  }
  if (fromProp.isOptional && toProp.isOptional && Option.isNone(absent)) {
    const ofNull = pst.decode(Option.some(null))
    const t = fromProp.type
    if (Option.isNone(ofNull) && t._tag === "Union" && t.types.some(isNullLiteral)) {
      const rest = t.types.filter((x) => !isNullLiteral(x))
      ctx.use("Fields")
      return `Fields.nullable(${gen(rest.length === 1 ? rest[0] : AST.Union.make(rest), ctx)})`
    }
  }
  throw new Error(`a property transformation of "${String(fromProp.name)}" of no known kind`)
}

const struct = (fields) =>
  fields.length === 0
    ? "Schema.Struct({})"
    : `Schema.Struct({\n${fields.map(([k, v]) => `  ${key(k)}: ${v}`).join(",\n")}\n})`

/** The Effect 4 source of an AST. `ctx.self` is the named schema being written. */
const gen = (ast, ctx) => {
  const hand = HAND_WRITTEN.get(ast)
  if (hand) {
    ctx.use(hand.module)
    return `${hand.module}.${hand.name}`
  }
  const entry = named.get(ast)
  if (entry && entry !== ctx.self) return ctx.ref(entry)
  switch (ast._tag) {
    case "StringKeyword":
      return "Schema.String"
    case "NumberKeyword":
      return "Schema.Number"
    case "BooleanKeyword":
      return "Schema.Boolean"
    case "BigIntKeyword":
      return "Schema.BigInt"
    case "UndefinedKeyword":
      return "Schema.Undefined"
    case "UnknownKeyword":
      return "Schema.Unknown"
    case "NeverKeyword":
      return "Schema.Never"
    case "Literal":
      return ast.literal === null ? "Schema.Null" : `Schema.Literal(${JSON.stringify(ast.literal)})`
    case "Union": {
      if (ast.types.every((t) => t._tag === "Literal" && t.literal !== null)) {
        return `Schema.Literals(${JSON.stringify(ast.types.map((t) => t.literal))})`
      }
      const nonNull = ast.types.filter((t) => !isNullLiteral(t))
      if (nonNull.length === 1 && ast.types.length === 2)
        return `Schema.NullOr(${gen(nonNull[0], ctx)})`
      const defined = ast.types.filter((t) => t._tag !== "UndefinedKeyword")
      if (defined.length === 1 && ast.types.length === 2)
        return `Schema.UndefinedOr(${gen(defined[0], ctx)})`
      return `Schema.Union([\n${ast.types.map((t) => gen(t, ctx)).join(",\n")}\n])`
    }
    case "TupleType": {
      if (ast.rest.length === 1 && ast.elements.length === 0)
        return `Schema.Array(${gen(ast.rest[0].type, ctx)})`
      if (
        ast.rest.length === 1 &&
        ast.elements.length === 1 &&
        ast.elements[0].type === ast.rest[0].type
      ) {
        return `Schema.NonEmptyArray(${gen(ast.rest[0].type, ctx)})`
      }
      throw new Error("a tuple of no known shape")
    }
    case "TypeLiteral": {
      if (ast.indexSignatures.length > 0) {
        const [ix] = ast.indexSignatures
        if (
          ast.propertySignatures.length > 0 ||
          ast.indexSignatures.length > 1 ||
          ix.parameter._tag !== "StringKeyword"
        ) {
          throw new Error("an index signature of no known shape")
        }
        return `Schema.Record(Schema.String, ${gen(ix.type, ctx)})`
      }
      return struct(ast.propertySignatures.map((p) => [p.name, plainField(p, ctx)]))
    }
    case "Refinement": {
      const checks = []
      let from = ast
      // A chain of refinements without names of their own becomes one `.check(...)`.
      do {
        checks.unshift(checksOf(from, ctx))
        from = from.from
      } while (from._tag === "Refinement" && !named.has(from) && !HAND_WRITTEN.has(from))
      return `${gen(from, ctx)}.check(${checks.join(", ")})`
    }
    case "Suspend": {
      const target = ast.f()
      const entry = named.get(target)
      if (!entry) throw new Error("a suspended schema with no name")
      ctx.recursive = true
      return `Schema.suspend((): Schema.Codec<${entry.name}Type, ${entry.name}Encoded> => ${entry === ctx.self ? entry.name : ctx.ref(entry)})`
    }
    case "Transformation": {
      if (isRedactedDeclaration(ast.to)) return `Schema.RedactedFromValue(${gen(ast.from, ctx)})`
      if (ast.transformation._tag === "TypeLiteralTransformation") {
        const psts = new Map(
          ast.transformation.propertySignatureTransformations.map((t) => [t.from, t])
        )
        const toProps = new Map(ast.to.propertySignatures.map((p) => [p.name, p]))
        return struct(
          ast.from.propertySignatures.map((p) => {
            const pst = psts.get(p.name)
            return [
              p.name,
              pst ? transformedField(p, toProps.get(pst.to), pst, ctx) : plainField(p, ctx)
            ]
          })
        )
      }
      if (
        ast.to._tag === "TypeLiteral" &&
        ast.to.propertySignatures.length === 0 &&
        ast.to.indexSignatures.length === 0
      ) {
        ctx.use("Fields")
        return `Fields.toEmptyObject(${gen(ast.from, ctx)})`
      }
      throw new Error(`a transformation of no known kind (${identifierOf(ast) ?? "?"})`)
    }
  }
  throw new Error(`an AST node of no known kind: ${ast._tag}`)
}

/** Whether a property type is a secret: a `Redacted` transformation, maybe optional or nullable. */
const isSecretType = (ast) => {
  if (ast._tag === "Union") {
    const rest = ast.types.filter((t) => t._tag !== "UndefinedKeyword" && !isNullLiteral(t))
    return rest.length === 1 && isSecretType(rest[0])
  }
  return ast._tag === "Transformation" && isRedactedDeclaration(ast.to)
}

/** The names of the secret fields of every named schema (decisions.md section 8); a `suspend` points back to a named schema, walked on its own. */
const secretFieldNames = () => {
  const out = new Set()
  const seen = new Set()
  const walk = (ast) => {
    if (seen.has(ast)) return
    seen.add(ast)
    const props =
      ast._tag === "TypeLiteral"
        ? ast.propertySignatures
        : ast._tag === "Transformation" && ast.from._tag === "TypeLiteral"
          ? ast.from.propertySignatures
          : []
    for (const p of props) if (isSecretType(p.type)) out.add(p.name)
    const children =
      ast._tag === "Transformation"
        ? [ast.from, ast.to]
        : ast._tag === "Refinement"
          ? [ast.from]
          : ast._tag === "Union"
            ? ast.types
            : ast._tag === "TupleType"
              ? [...ast.elements.map((e) => e.type), ...ast.rest.map((r) => r.type)]
              : []
    for (const child of [...children, ...props.map((p) => p.type)]) walk(child)
  }
  for (const entry of named.values()) walk(entry.ast)
  return out
}

// ---------------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------------

const HEADER = (m) =>
  `// Generated by scripts/generate.mjs from @data-access/schema ${schemaVersion} (${m}.ts). Do not edit:\n` +
  `// change packages/schema, then run \`pnpm --filter @data-access/schema-effect4 generate\`.\n`

const IMPORTS = {
  Schema: `import * as Schema from "effect/Schema"`,
  Redacted: `import * as Redacted from "effect/Redacted"`,
  Fields: `import * as Fields from "../internal/fields.js"`,
  Timestamp: `import * as Timestamp from "../Timestamp.js"`
}

const renderModule = (m) => {
  const uses = new Set()
  const body = []
  const emitted = new Set()
  const ctxFor = (self) => {
    const ctx = {
      self,
      recursive: false,
      use: (name) => uses.add(name),
      ref: (entry) => {
        if (entry.module !== m) {
          uses.add(`module:${entry.module}`)
          return `${entry.module}.${entry.name}`
        }
        emit(entry)
        return entry.name
      }
    }
    return ctx
  }
  const emit = (entry) => {
    if (emitted.has(entry)) return
    emitted.add(entry)
    const ctx = ctxFor(entry)
    uses.add("Schema")
    let code = gen(entry.ast, ctx)
    const id = identifierOf(entry.ast)
    if (id !== undefined) code = `${code}.annotate({ identifier: ${JSON.stringify(id)} })`
    const doc = `/** \`${m}.${entry.name}\` of @data-access/schema. */`
    if (ctx.recursive) {
      const t = printType(AST.typeAST(entry.ast), entry, "Type")
      const e = printType(AST.encodedAST(entry.ast), entry, "Encoded")
      body.push(
        `/** The decoded form of \`${entry.name}\`. */\nexport type ${entry.name}Type = ${t}`,
        `/** The wire form of \`${entry.name}\`. */\nexport type ${entry.name}Encoded = ${e}`,
        `${doc}\nexport const ${entry.name}: Schema.Codec<${entry.name}Type, ${entry.name}Encoded> = ${code}`,
        `/** The decoded form of \`${entry.name}\`. */\nexport type ${entry.name} = ${entry.name}Type`
      )
    } else {
      body.push(
        `${doc}\nexport const ${entry.name} = ${code}`,
        `/** The decoded form of \`${entry.name}\`. */\nexport type ${entry.name} = typeof ${entry.name}.Type`
      )
    }
  }

  // Plain data first (constants, tables), then the schemas in dependency order.
  for (const [name, v] of sortedEntries(source[m])) {
    if (
      SKIP.has(`${m}.${name}`) ||
      Schema.isSchema(v) ||
      typeof v === "function" ||
      !isPlainData(v)
    )
      continue
    const ctx = ctxFor(undefined)
    const text = value(v, ctx)
    body.push(
      `/** \`${m}.${name}\` of @data-access/schema. */\nexport const ${name} = ${v instanceof Set ? text : `${text} as const`}`
    )
  }
  for (const entry of named.values()) if (entry.module === m) emit(entry)

  if (m === "Primitives") {
    const names = [...secretFieldNames()].sort()
    body.push(
      `/** Every field name whose value is a secret (decoded to \`Redacted\`), found in the schemas of @data-access/schema. */\nexport const secretFields: ReadonlySet<string> = new Set(${JSON.stringify(names)})`
    )
  }

  if (m === "Operations") {
    const ctx = ctxFor(undefined)
    const ops = source.Operations.all.map((op) => {
      const fields = [
        ["service", JSON.stringify(op.service)],
        ["method", JSON.stringify(op.method)],
        ["path", JSON.stringify(op.path)],
        ["kind", JSON.stringify(op.kind)],
        ["request", gen(op.request.ast, ctx)],
        ["response", gen(op.response.ast, ctx)],
        ["wrapperKey", value(op.wrapperKey, ctx)],
        ["itemField", value(op.itemField, ctx)],
        ["object", gen(op.object.ast, ctx)],
        ["safeToRetry", value(op.safeToRetry, ctx)],
        ["requiredHeaders", value(op.requiredHeaders, ctx)]
      ]
      return `  ${op.method}: {\n${fields.map(([k, v]) => `    ${k}: ${v}`).join(",\n")}\n  }`
    })
    body.push(
      `/** The operation table (\`Operations.operations\` of @data-access/schema), as data. */\nexport const operations = {\n${ops.join(",\n")}\n} as const`
    )
  }

  const imports = [...uses]
    .map((u) =>
      u.startsWith("module:") ? `import * as ${u.slice(7)} from "./${u.slice(7)}.js"` : IMPORTS[u]
    )
    .sort()
  return `${HEADER(m)}${imports.join("\n")}${imports.length ? "\n\n" : ""}${body.join("\n\n")}\n`
}

// ---------------------------------------------------------------------------------------------
// Source files that are the same code on both lines
// ---------------------------------------------------------------------------------------------

/**
 * Modules of `@data-access/schema`'s source written once for both lines (no schema in them), each
 * with the path under src/generated it is copied to, the APIs Effect 4 renamed renamed.
 */
const SOURCE_MODULES = [
  ["internal/timestamp", "internal/timestamp"],
  ["internal/connectError", "internal/connectError"],
  ["Operations", "internal/operations"],
  ["internal/operationIndex", "internal/operationIndex"]
]

/** Effect 3 -> Effect 4, in order. */
const SOURCE_RULES = [
  // The Effect 3 package's modules that hold schemas are the generated ones here.
  [/from "\.\/errorBody\.js"/g, 'from "../ConnectError.js"'],
  [/from "\.\/internal\/operationTable\.js"/g, 'from "../../internal/operationTable.js"'],
  // The index of the operation table sits beside the copy of the Operations face, which holds its types.
  [/from "\.\/internal\/operationIndex\.js"/g, 'from "./operationIndex.js"'],
  [/from "\.\.\/Operations\.js"/g, 'from "./operations.js"'],
  [/from "\.\/operationTable\.js"/g, 'from "../../internal/operationTable.js"'],
  [/"@data-access\/schema\/(\w+)"/g, '"@data-access/schema-effect4/$1"'],
  [/DateTime\.unsafeMake\(/g, "DateTime.makeUnsafe("],
  [/\.unsafeCurrentTimeNanos\(\)/g, ".currentTimeNanosUnsafe()"],
  [/\.unsafeCurrentTimeMillis\(\)/g, ".currentTimeMillisUnsafe()"],
  // A field's constructor default; Effect 4 has no arbitrary annotation of that form.
  [
    /Schema\.optionalWith\(Schema\.Array\((\w+)\), \{ default: \(\) => \[\] \}\)/g,
    "Schema.Array($1).pipe(Schema.withConstructorDefault(Effect.succeed([])))"
  ],
  [
    /import \* as Predicate from "effect\/Predicate"/g,
    'import * as Effect from "effect/Effect"\nimport * as Predicate from "effect/Predicate"'
  ],
  [/Schema\.Number\.annotations\(\{ arbitrary: [^\n]*\}\)\n/g, "Schema.Number\n"],
  [/Schema\.optional\(/g, "Schema.optionalKey("]
]

/** Names of Effect 3 that must not survive the renames. */
const SOURCE_EFFECT3_ONLY = [
  /DateTime\.unsafeMake\(/,
  /\.unsafeCurrentTime/,
  /effect\/(ParseResult|Arbitrary|Either)"/,
  /@data-access\/schema\//,
  /Schema\.(optional|optionalWith)\(/,
  /\.annotations\(/,
  /errorBody\.js/
]

const renderSource = (m) =>
  `// Generated by scripts/generate.mjs from packages/schema/src/${m}.ts. Do not edit:\n` +
  `// change that file, then run \`pnpm --filter @data-access/schema-effect4 generate\`.\n` +
  renameForEffect4(
    readFileSync(join(schemaDir, "src", `${m}.ts`), "utf8"),
    SOURCE_RULES,
    SOURCE_EFFECT3_ONLY,
    `${m}.ts`
  )

/** Every generated file: name -> content, formatted with the repository's Prettier settings. */
export const render = async () => {
  const prettier = await import("prettier")
  const options = {
    ...(await prettier.resolveConfig(join(outDir, "Model.ts"))),
    parser: "typescript"
  }
  const files = await Promise.all([
    ...MODULES.filter((m) => !NOT_WRITTEN.has(m)).map(async (m) => [
      `${m}.ts`,
      await prettier.format(renderModule(m), options)
    ]),
    ...SOURCE_MODULES.map(async ([m, to]) => [
      `${to}.ts`,
      await prettier.format(renderSource(m), options)
    ])
  ])
  return Object.fromEntries(files)
}

/** The directory the files are written to. */
export const outputDirectory = outDir

if (isMain(import.meta.url)) writeOrCheck(await render(), outDir)
