/**
 * The suites: families of cases, each for one operation (or `_` for the whole API), each case
 * giving check outcomes. Everything is derived from the operation table: which suites an
 * operation gets depends on its kind and its request and response schemas.
 */
import * as Arbitrary from "effect/Arbitrary"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import { Filter, Operations, Timestamp } from "@data-access/schema"
import type { CheckId } from "../Checks.js"
import * as Mutations from "../Mutations.js"
import { forEachProperty, redactSecrets, secretFieldNames } from "./ast.js"
import * as Gen from "./generate.js"
import { type BudgetExhausted, type Exchange, post, type RawRequest, type Target } from "./http.js"
import * as Inspect from "./inspect.js"
import { asRecord, canonical, firstDifference, isZero, sameAsSent, snakeToCamel } from "./json.js"
import { fail, type Outcome, pass } from "./outcome.js"
import { describeReference, type Pools, referenceOf, requestPropertyNames, valuesOf } from "./pools.js"

/** An operation of the table, with its schemas widened. */
export type Op = Operations.Operation
type Body = Record<string, unknown>

/** What every suite needs: the target, the pools, the run's settings. */
export interface Context {
  readonly target: Target
  readonly pools: Pools
  readonly runId: string
  readonly skewMillis: number
  readonly readOnly: boolean
  readonly examples: number
  /** Valid examples of a Create operation (each makes an object). */
  readonly createExamples: number
  /** The run seed. */
  readonly seed: number
}

/** Generated cases (fast-check, shrinkable) or a fixed list (replayed by index). */
export type Cases =
  | { readonly _tag: "Property"; readonly arbitrary: fc.Arbitrary<any>; readonly examples: number }
  | { readonly _tag: "Enumerated"; readonly count: number; readonly at: (i: number) => any }

/** A family of cases of one operation and the checks they give outcomes for. */
export interface Suite {
  readonly family: string
  /** The operation's method, or `_` for cases of the whole API. */
  readonly method: string
  readonly checks: ReadonlyArray<CheckId>
  /** Whether its requests can create or change objects. */
  readonly writes: boolean
  /** Why it does not run (missing prerequisites, read-only mode). */
  readonly skip: string | undefined
  readonly cases: Cases
  readonly run: (a: any) => Effect.Effect<ReadonlyArray<Outcome>, BudgetExhausted>
}

/** A value as shown in a finding: JSON, secret fields redacted, long text cut. */
const show = (v: unknown): string => {
  const text = JSON.stringify(redactSecrets(v)) ?? "absent"
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}

const isWrite = (op: Op) => op.kind === "create" || op.kind === "update"

const send = (ctx: Context, request: RawRequest) => ctx.target.send(request)

const none: Cases = { _tag: "Enumerated", count: 0, at: () => undefined }

const skipped = (family: string, method: string, checks: ReadonlyArray<CheckId>, writes: boolean, reason: string): Suite => ({
  family,
  method,
  checks,
  writes,
  skip: reason,
  cases: none,
  run: () => Effect.succeed([])
})

const scaled = (ctx: Context, divisor: number, min: number) => Math.max(min, Math.ceil(ctx.examples / divisor))

const objectOf = (op: Op, json: unknown): unknown => {
  const r = asRecord(json)
  return op.wrapperKey === undefined ? r : r?.[op.wrapperKey]
}

/** The object with every default filled in (absent zero values read as their zero value). */
const fullObject = (schema: Schema.Schema.AnyNoContext, raw: unknown): Record<string, unknown> | undefined =>
  Either.getOrUndefined(
    Either.flatMap(Schema.decodeUnknownEither(schema)(raw), (a) => Schema.encodeEither(schema)(a))
  ) as Record<string, unknown> | undefined

const objectPropertyNames = (op: Op): ReadonlySet<string> => {
  const ast = Schema.encodedSchema(op.object).ast
  return new Set(ast._tag === "TypeLiteral" ? ast.propertySignatures.map((p) => String(p.name)) : [])
}

// ---------------------------------------------------------------------------------------------
// valid-accepted, create-echo and the per-response checks
// ---------------------------------------------------------------------------------------------

const validAccepted = (e: Exchange): Outcome | undefined => {
  const status = Inspect.statusOf(e)
  if (status === undefined || status >= 500) return undefined
  if (status === 200) return pass("valid-accepted")
  const code = Inspect.codeOf(e) ?? `HTTP ${status}`
  return fail("valid-accepted", `rejected with ${code}`, `a valid request was rejected with ${code}`, e, Option.match(e.response, { onNone: () => undefined, onSome: (r) => Inspect.excerpt(r, 300) }))
}

/** create-echo: sent fields read back unchanged; secrets sent are not returned. */
export const createEcho = (op: Op, sent: Body, e: Exchange): Outcome | undefined => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || r.status !== 200 || Option.isNone(r.json)) return undefined
  const raw = objectOf(op, r.json.value)
  const full = fullObject(op.object, raw)
  if (full === undefined) return undefined
  const props = objectPropertyNames(op)
  const known = new Set(requestPropertyNames(op))
  const rawObj = asRecord(raw) ?? {}
  // Secrets: a secret sent must not come back at its own place.
  const echoed: Array<string> = []
  const findEchoes = (s: unknown, got: unknown, path: string): void => {
    const so = asRecord(s)
    const go = asRecord(got)
    if (so === undefined || go === undefined) return
    for (const [k, v] of Object.entries(so)) {
      const at = path ? `${path}.${k}` : k
      if (secretFieldNames.has(k) && typeof v === "string" && v !== "" && go[k] === v) echoed.push(at)
      else findEchoes(v, go[k], at)
    }
  }
  findEchoes(sent, rawObj, "")
  if (echoed.length > 0) {
    return fail("create-echo", `secret echoed: ${echoed.join(", ")}`, `the response returns the secret sent in ${echoed.join(", ")}`, e, `${echoed.join(", ")} = [redacted]`)
  }
  for (const [k, v] of Object.entries(sent)) {
    if (!known.has(k) || v === null || v === undefined || secretFieldNames.has(k)) continue
    if (props.has(k)) {
      if (!sameAsSent(v, full[k], (key) => secretFieldNames.has(key))) {
        return fail("create-echo", `${k} differs`, `sent ${k} ${show(v)}, the created object has ${show(full[k])}`, e, `${k} = ${show(full[k])}`)
      }
      continue
    }
    const m = /^(.+)Id$/.exec(k)
    if (m !== null && props.has(m[1]!) && asRecord(rawObj[m[1]!]) !== undefined) {
      const got = asRecord(rawObj[m[1]!])!.id
      if (got !== v) {
        return fail("create-echo", `${k} differs`, `sent ${k} ${show(v)}, the created object's ${m[1]}.id is ${JSON.stringify(got)}`, e, `${m[1]}.id = ${JSON.stringify(got)}`)
      }
    }
  }
  return pass("create-echo")
}

const validSuite = (op: Op, ctx: Context): Suite => {
  const checks: Array<CheckId> = ["no-server-errors", "success-shape", "error-shape", "response-schema", "timestamps", "valid-accepted"]
  if (op.kind === "create") checks.push("create-echo")
  if (ctx.readOnly && isWrite(op)) return skipped("valid", op.method, checks, true, "read-only mode")
  const g = Gen.valid(op, ctx.pools, ctx.runId, { unknownFields: true })
  if (g._tag === "Skip") return skipped("valid", op.method, checks, isWrite(op), g.reason)
  return {
    family: "valid",
    method: op.method,
    checks,
    writes: isWrite(op),
    skip: undefined,
    cases: { _tag: "Property", arbitrary: g.arbitrary, examples: op.kind === "create" ? Math.min(ctx.examples, ctx.createExamples) : ctx.examples },
    run: (body: Body) =>
      Effect.map(send(ctx, post(op.path, body)), (e) => {
        const out = [...Inspect.basic(op, e, ctx.skewMillis)]
        const va = validAccepted(e)
        if (va) out.push(va)
        if (op.kind === "create") {
          const ce = createEcho(op, Gen.normalizeKeys(body) as Body, e)
          if (ce) out.push(ce)
        }
        return out
      })
  }
}

// ---------------------------------------------------------------------------------------------
// invalid-rejected
// ---------------------------------------------------------------------------------------------

const rejected = (e: Exchange, rule: string): Outcome | undefined => {
  const status = Inspect.statusOf(e)
  if (status === undefined) return undefined
  const code = Inspect.codeOf(e)
  if (status === 400 && code === "invalid_argument") return pass("invalid-rejected")
  const got = code ?? `HTTP ${status}`
  return fail("invalid-rejected", `${rule}: got ${got}`, `an invalid request (${rule}) got ${got}, expected invalid_argument`, e, Option.match(e.response, { onNone: () => undefined, onSome: (r) => Inspect.excerpt(r, 300) }))
}

const invalidSuite = (op: Op, ctx: Context): Suite => {
  const checks: Array<CheckId> = ["no-server-errors", "error-shape", "invalid-rejected"]
  if (ctx.readOnly && isWrite(op)) return skipped("invalid", op.method, checks, true, "read-only mode")
  const g = Gen.invalid(op, ctx.pools, ctx.runId)
  if (g._tag === "Skip") return skipped("invalid", op.method, checks, isWrite(op), g.reason)
  return {
    family: "invalid",
    method: op.method,
    checks,
    writes: isWrite(op),
    skip: undefined,
    cases: { _tag: "Property", arbitrary: g.arbitrary, examples: ctx.examples },
    run: (m: Gen.Invalid) =>
      Effect.map(send(ctx, post(op.path, m.body)), (e) =>
        [Inspect.noServerErrors(e), Inspect.errorShape(e), rejected(e, m.rule)].filter((o): o is Outcome => o !== undefined)
      )
  }
}

const requiredFieldsOf = (op: Op): ReadonlyArray<string> => {
  const ast = Schema.encodedSchema(op.request).ast
  const tl = ast._tag === "Refinement" ? ast.from : ast
  return tl._tag === "TypeLiteral" ? tl.propertySignatures.filter((p) => !p.isOptional).map((p) => String(p.name)) : []
}

/**
 * Every rule once: the distinct mutations (by rule) of a few valid requests, each sent once, so
 * that no rule depends on the luck of the random invalid examples.
 */
const rulesSuite = (op: Op, ctx: Context): Suite => {
  const checks: Array<CheckId> = ["no-server-errors", "error-shape", "invalid-rejected"]
  if (ctx.readOnly && isWrite(op)) return skipped("rules", op.method, checks, true, "read-only mode")
  let cases: ReadonlyArray<Gen.Invalid> | undefined
  const all = () => {
    if (cases !== undefined) return cases
    const g = Gen.valid(op, ctx.pools, ctx.runId, { unknownFields: false })
    const bodies = g._tag === "Ok" ? fc.sample(g.arbitrary, { seed: ctx.seed, numRuns: 25 }) : fc.sample(Arbitrary.make(op.request).map((a) => Schema.encodeSync(op.request)(a) as Body), { seed: ctx.seed, numRuns: 25 })
    // Bodies with only their required fields first: the mutations of those are minimal.
    const required = new Set(requiredFieldsOf(op))
    const minimal = bodies
      .map((b) => Object.fromEntries(Object.entries(b).filter(([k]) => required.has(k))))
      .filter((b) => Gen.isValid(op, b))
    const byRule = new Map<string, Gen.Invalid>()
    for (const b of [...minimal, ...bodies]) for (const m of Mutations.derive(op.request, b)) if (!byRule.has(m.rule)) byRule.set(m.rule, m)
    cases = [...byRule.values()]
    return cases
  }
  return {
    family: "rules",
    method: op.method,
    checks,
    writes: isWrite(op),
    skip: undefined,
    cases: { _tag: "Enumerated", get count() { return all().length }, at: (i) => all()[i] },
    run: (m: Gen.Invalid) =>
      Effect.map(send(ctx, post(op.path, m.body)), (e) =>
        [Inspect.noServerErrors(e), Inspect.errorShape(e), rejected(e, m.rule)].filter((o): o is Outcome => o !== undefined)
      )
  }
}

/** Bodies that are not a valid request at all: empty, not JSON, not an object, `{}` when something is required. */
const bodySuite = (op: Op, ctx: Context): Suite => {
  const checks: Array<CheckId> = ["no-server-errors", "error-shape", "invalid-rejected"]
  if (ctx.readOnly && isWrite(op)) return skipped("body", op.method, checks, true, "read-only mode")
  const cases: Array<{ rule: string; body: string }> = [
    { rule: "empty body", body: "" },
    { rule: "malformed JSON", body: "{" },
    { rule: "JSON array body", body: "[]" },
    { rule: "JSON string body", body: JSON.stringify("text") }
  ]
  if (!Gen.isValid(op, {})) cases.push({ rule: "empty object", body: "{}" })
  return {
    family: "body",
    method: op.method,
    checks,
    writes: isWrite(op),
    skip: undefined,
    cases: { _tag: "Enumerated", count: cases.length, at: (i) => cases[i] },
    run: (c: { rule: string; body: string }) =>
      Effect.map(send(ctx, { ...post(op.path, undefined), body: c.body }), (e) =>
        [Inspect.noServerErrors(e), Inspect.errorShape(e), rejected(e, c.rule)].filter((o): o is Outcome => o !== undefined)
      )
  }
}

// ---------------------------------------------------------------------------------------------
// Unknown ids: not_found
// ---------------------------------------------------------------------------------------------

const unknownIdSuite = (op: Op, ctx: Context): Suite | undefined => {
  if ((op.kind !== "get" && op.kind !== "update") || !requestPropertyNames(op).includes("id")) return undefined
  const checks: Array<CheckId> = ["no-server-errors", "error-shape"]
  if (ctx.readOnly && isWrite(op)) return skipped("unknown_id", op.method, checks, true, "read-only mode")
  const g = Gen.unknownId(op, ctx.pools, ctx.runId)
  if (g._tag === "Skip") return skipped("unknown_id", op.method, checks, isWrite(op), g.reason)
  return {
    family: "unknown_id",
    method: op.method,
    checks,
    writes: isWrite(op),
    skip: undefined,
    cases: { _tag: "Property", arbitrary: g.arbitrary, examples: scaled(ctx, 20, 3) },
    run: (body: Body) =>
      Effect.map(send(ctx, post(op.path, body)), (e) => {
        const out: Array<Outcome> = [Inspect.noServerErrors(e)]
        const shape = Inspect.errorShape(e)
        const status = Inspect.statusOf(e)
        if (status !== undefined && status < 500) {
          const code = Inspect.codeOf(e)
          if (code === "not_found" && status === 404) out.push(shape ?? pass("error-shape"))
          else {
            const got = code ?? `HTTP ${status}`
            out.push(fail("error-shape", `unknown id: got ${got}`, `an id that names nothing got ${got}, expected not_found`, e, Option.match(e.response, { onNone: () => undefined, onSome: (r) => Inspect.excerpt(r, 300) })))
          }
        }
        return out
      })
  }
}

// ---------------------------------------------------------------------------------------------
// auth and protocol
// ---------------------------------------------------------------------------------------------

/** A body for cases where only headers or methods matter: a valid request if one can be made. */
const sampleBody = (op: Op, ctx: Context): Body => {
  const g = Gen.valid(op, ctx.pools, ctx.runId, { unknownFields: false })
  const arb = g._tag === "Ok" ? g.arbitrary : fc.constant({})
  return fc.sample(arb, { seed: 1, numRuns: 1 })[0] ?? {}
}

const authSuite = (op: Op, ctx: Context): Suite => {
  const checks: Array<CheckId> = ["auth", "no-server-errors", "error-shape"]
  if (ctx.readOnly && isWrite(op)) return skipped("auth", op.method, checks, true, "read-only mode")
  const modes = ["missing", "empty", "wrong"] as const
  let body: Body | undefined
  return {
    family: "auth",
    method: op.method,
    checks,
    writes: isWrite(op),
    skip: undefined,
    cases: { _tag: "Enumerated", count: modes.length, at: (i) => modes[i] },
    run: (mode: (typeof modes)[number]) =>
      Effect.suspend(() => {
        body ??= sampleBody(op, ctx)
        return Effect.map(send(ctx, post(op.path, body, { key: mode })), (e) => {
          const out: Array<Outcome> = [Inspect.noServerErrors(e)]
          const shape = Inspect.errorShape(e)
          if (shape) out.push(shape)
          const status = Inspect.statusOf(e)
          if (status !== undefined) {
            const code = Inspect.codeOf(e)
            out.push(
              status === 401 && code === "unauthenticated"
                ? pass("auth")
                : fail("auth", `${mode} key: got ${code ?? `HTTP ${status}`}`, `a request with a ${mode} API key got ${code ?? `HTTP ${status}`}, expected unauthenticated (401)`, e, Option.match(e.response, { onNone: () => undefined, onSome: (r) => Inspect.excerpt(r, 200) }))
            )
          }
          return out
        })
      })
  }
}

interface ProtocolCase {
  readonly name: string
  readonly request: (body: Body) => RawRequest
  readonly expect: (e: Exchange) => string | undefined
}

const expectStatus = (status: number, code?: string, header?: readonly [string, RegExp]) => (e: Exchange): string | undefined => {
  const got = Inspect.statusOf(e)
  if (got === undefined) return "no response"
  if (got !== status) return `HTTP ${got}${Inspect.codeOf(e) ? ` ${Inspect.codeOf(e)}` : ""}, expected ${status}`
  if (code !== undefined && Inspect.codeOf(e) !== code) return `code ${Inspect.codeOf(e) ?? "(none)"}, expected ${code}`
  if (header !== undefined) {
    const v = Option.getOrUndefined(e.response)?.headers[header[0]]
    if (v === undefined || !header[1].test(v)) return `header ${header[0]} is ${JSON.stringify(v ?? null)}`
  }
  return undefined
}

const protocolSuite = (op: Op, ctx: Context): Suite => {
  const checks: Array<CheckId> = ["protocol", "no-server-errors", "error-shape"]
  if (ctx.readOnly && isWrite(op)) return skipped("protocol", op.method, checks, true, "read-only mode")
  const cases: Array<ProtocolCase> = [
    ...(["GET", "PUT", "DELETE", "PATCH"] as const).map(
      (method): ProtocolCase => ({
        name: `${method} instead of POST`,
        request: (body) => post(op.path, method === "GET" ? undefined : body, { method, contentType: method === "GET" ? undefined : "application/json" }),
        expect: expectStatus(405, undefined, ["allow", /\bPOST\b/])
      })
    ),
    {
      name: "Content-Type text/plain",
      request: (body) => post(op.path, body, { contentType: "text/plain" }),
      expect: expectStatus(415)
    }
  ]
  for (const header of Object.keys(op.requiredHeaders)) {
    const isVersion = header.toLowerCase() === "connect-protocol-version"
    cases.push({
      name: `without ${header}`,
      request: (body) => (isVersion ? post(op.path, body, { protocolVersion: undefined }) : post(op.path, body)),
      expect: expectStatus(400, "invalid_argument")
    })
    if (isVersion) {
      cases.push({ name: `${header}: 2`, request: (body) => post(op.path, body, { protocolVersion: "2" }), expect: expectStatus(400, "invalid_argument") })
    }
  }
  let body: Body | undefined
  return {
    family: "protocol",
    method: op.method,
    checks,
    writes: isWrite(op),
    skip: undefined,
    cases: { _tag: "Enumerated", count: cases.length, at: (i) => cases[i] },
    run: (c: ProtocolCase) =>
      Effect.suspend(() => {
        body ??= sampleBody(op, ctx)
        return Effect.map(send(ctx, c.request(body)), (e) => {
          const problem = c.expect(e)
          const shape = Inspect.errorShape(e)
          return [
            Inspect.noServerErrors(e),
            ...(shape === undefined ? [] : [shape]),
            problem === undefined ? pass("protocol") : fail("protocol", `${c.name}: ${problem.replace(/".*"/, "…")}`, `${c.name}: ${problem}`, e, Option.match(e.response, { onNone: () => undefined, onSome: (r) => Inspect.excerpt(r, 200) }))
          ]
        })
      })
  }
}

const routesSuite = (ctx: Context): Suite => {
  const services = [...Operations.services.keys()]
  const paths = [
    ...services.map((s) => `/${Operations.PACKAGE}.${s}/NoSuchMethod`),
    `/${Operations.PACKAGE}.NoSuchService/NoSuchMethod`,
    `/core.v0.${services[0]}/NoSuchMethod`
  ]
  return {
    family: "routes",
    method: "_",
    checks: ["protocol", "no-server-errors", "error-shape"],
    writes: false,
    skip: undefined,
    cases: { _tag: "Enumerated", count: paths.length, at: (i) => paths[i] },
    run: (path: string) =>
      Effect.map(send(ctx, post(path, {})), (e) => {
        const problem = expectStatus(404, "unimplemented")(e)
        const shape = Inspect.errorShape(e)
        return [
          Inspect.noServerErrors(e),
          ...(shape === undefined ? [] : [shape]),
          problem === undefined ? pass("protocol") : fail("protocol", `unknown route: ${problem}`, `POST ${path} (an unknown route): ${problem}`, e, Option.match(e.response, { onNone: () => undefined, onSome: (r) => Inspect.excerpt(r, 200) }))
        ]
      })
  }
}

// ---------------------------------------------------------------------------------------------
// stable-reads
// ---------------------------------------------------------------------------------------------

const stableSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "get") return undefined
  const checks: Array<CheckId> = ["stable-reads"]
  const g = Gen.valid(op, ctx.pools, ctx.runId, { unknownFields: false })
  if (g._tag === "Skip") return skipped("stable", op.method, checks, false, g.reason)
  return {
    family: "stable",
    method: op.method,
    checks,
    writes: false,
    skip: undefined,
    cases: { _tag: "Property", arbitrary: g.arbitrary, examples: scaled(ctx, 10, 3) },
    run: (body: Body) =>
      Effect.gen(function* () {
        const a = yield* send(ctx, post(op.path, body))
        const b = yield* send(ctx, post(op.path, body))
        const ja = Option.getOrUndefined(Option.flatMap(a.response, (r) => (r.status === 200 ? r.json : Option.none())))
        const jb = Option.getOrUndefined(Option.flatMap(b.response, (r) => (r.status === 200 ? r.json : Option.none())))
        if (ja === undefined || jb === undefined) {
          if (Inspect.statusOf(a) !== Inspect.statusOf(b)) {
            return [fail("stable-reads", "status differs", `the same Get answered ${Inspect.summary(a)} then ${Inspect.summary(b)}`, b)]
          }
          return []
        }
        const diff = firstDifference(ja, jb)
        return [diff === undefined ? pass("stable-reads") : fail("stable-reads", `differs at ${diff.replace(/\[\d+\]/g, "[]")}`, `the same Get twice gave different objects (first difference at ${diff})`, b, `at ${diff}`)]
      })
  }
}

// ---------------------------------------------------------------------------------------------
// update-semantics
// ---------------------------------------------------------------------------------------------

/** The list operations that return the same object schema (the later read of an update). */
const readersOf = (op: Op): ReadonlyArray<Op> => (Operations.all as ReadonlyArray<Op>).filter((o) => o.kind === "list" && o.object === op.object)

const itemsOf = (op: Op, json: unknown): ReadonlyArray<Record<string, unknown>> => {
  const items = op.itemField === undefined ? undefined : asRecord(json)?.[op.itemField]
  return Array.isArray(items) ? items.filter((x): x is Record<string, unknown> => asRecord(x) !== undefined) : []
}

interface Walk {
  readonly items: ReadonlyArray<Record<string, unknown>>
  readonly pages: ReadonlyArray<{ readonly exchange: Exchange; readonly items: ReadonlyArray<Record<string, unknown>>; readonly meta: Record<string, unknown> }>
  readonly ended: boolean
  /** The exchange that stopped the walk with an error. */
  readonly error: Exchange | undefined
}

/** Walks the pages of a List request, at most `maxPages` requests. */
const walk = (ctx: Context, op: Op, body: Body, maxPages: number): Effect.Effect<Walk, BudgetExhausted> =>
  Effect.gen(function* () {
    const pages: Array<Walk["pages"][number]> = []
    let cursor: string | undefined
    for (let i = 0; i < maxPages; i++) {
      const e = yield* send(ctx, post(op.path, cursor === undefined ? body : { ...body, cursor }))
      const r = Option.getOrUndefined(e.response)
      if (r === undefined || r.status !== 200 || Option.isNone(r.json)) return { items: pages.flatMap((p) => p.items), pages, ended: false, error: e }
      const items = itemsOf(op, r.json.value)
      const meta = asRecord(asRecord(r.json.value)?.listMetadata) ?? {}
      pages.push({ exchange: e, items, meta })
      const next = meta.nextCursor
      if (typeof next !== "string" || next === "") return { items: pages.flatMap((p) => p.items), pages, ended: true, error: undefined }
      cursor = next
    }
    return { items: pages.flatMap((p) => p.items), pages, ended: false, error: undefined }
  })

const findById = (ctx: Context, reader: Op, id: string, base: Body) =>
  Effect.map(walk(ctx, reader, { ...base, limit: 500 }, 20), (w) => ({ item: w.items.find((x) => x.id === id), walk: w }))

/** Why the required references of an operation cannot be filled, if they cannot. */
const missingReference = (op: Op, pools: Pools): string | undefined => {
  const encoded = Schema.encodedSchema(op.request).ast
  const tl = encoded._tag === "TypeLiteral" ? encoded : undefined
  for (const p of tl?.propertySignatures ?? []) {
    const ref = referenceOf(op, String(p.name))
    if (!p.isOptional && ref !== undefined && valuesOf(pools, ref).length === 0) {
      return `no ${describeReference(ref)} in the fixtures or discovered (needed for ${String(p.name)})`
    }
  }
  return undefined
}

/** A body with just the required references of an operation (for reads that list everything). */
const requiredRefs = (op: Op, pools: Pools, n: number): Body | undefined => {
  const body: Body = {}
  const encoded = Schema.encodedSchema(op.request).ast
  const tl = encoded._tag === "TypeLiteral" ? encoded : undefined
  for (const p of tl?.propertySignatures ?? []) {
    const ref = referenceOf(op, String(p.name))
    if (p.isOptional || ref === undefined || String(p.name) === "limit") continue
    const values = valuesOf(pools, ref)
    if (values.length === 0) return undefined
    body[String(p.name)] = values[n % values.length]
  }
  return body
}

const updateSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "update") return undefined
  const checks: Array<CheckId> = ["update-semantics"]
  if (ctx.readOnly) return skipped("update", op.method, checks, true, "read-only mode")
  const g = Gen.valid(op, ctx.pools, ctx.runId, { unknownFields: false })
  if (g._tag === "Skip") return skipped("update", op.method, checks, true, g.reason)
  const props = objectPropertyNames(op)
  const readers = readersOf(op)
  const decode = Schema.decodeUnknownOption(op.request)
  return {
    family: "update",
    method: op.method,
    checks,
    writes: true,
    skip: undefined,
    cases: { _tag: "Property", arbitrary: g.arbitrary, examples: scaled(ctx, 10, 3) },
    run: (body: Body) =>
      Effect.gen(function* () {
        const id = body.id as string
        const unwrap = (e: Exchange) =>
          Option.getOrUndefined(Option.flatMap(e.response, (r) => (r.status === 200 ? Option.map(r.json, (j) => objectOf(op, j)) : Option.none())))
        // The state before: an update that sends only the id changes nothing.
        const e0 = yield* send(ctx, post(op.path, { id }))
        const before = fullObject(op.object, unwrap(e0))
        if (before === undefined) return []
        const e1 = yield* send(ctx, post(op.path, body))
        const after = fullObject(op.object, unwrap(e1))
        if (after === undefined) return []
        const out: Array<Outcome> = []
        const sent = Object.entries(body).filter(([k, v]) => k !== "id" && v !== null && v !== undefined && props.has(k) && !secretFieldNames.has(k))
        const sentKeys = new Set(sent.map(([k]) => k))
        for (const [k, v] of sent) {
          if (!sameAsSent(v, after[k])) {
            out.push(fail("update-semantics", `sent ${k} not applied`, `sent ${k} ${show(v)}, the update returned ${show(after[k])}`, e1, `${k} = ${show(after[k])}`))
          }
        }
        for (const k of props) {
          if (k === "updatedAt" || sentKeys.has(k)) continue
          // A nested object that a sent reference changes (`space` for `spaceId`) may change too.
          if (sentKeys.has(`${k}Id`)) continue
          const d = firstDifference(before[k], after[k])
          if (d !== undefined && !(isZero(before[k]) && isZero(after[k]))) {
            out.push(fail("update-semantics", `unsent ${k} changed`, `${k} was not sent but changed (at ${d})`, e1, `${d}: before ${show(before[k])}`))
          }
        }
        if (props.has("updatedAt")) {
          const t0 = typeof before.updatedAt === "string" ? Timestamp.parse(before.updatedAt) : undefined
          const t1 = typeof after.updatedAt === "string" ? Timestamp.parse(after.updatedAt) : undefined
          if (t0 instanceof Timestamp.Timestamp && t1 instanceof Timestamp.Timestamp) {
            if (!Timestamp.isAfter(t1, t0)) {
              out.push(fail("update-semantics", "updatedAt did not move forward", `updatedAt went from ${before.updatedAt} to ${after.updatedAt}`, e1, `updatedAt = ${JSON.stringify(after.updatedAt)}`))
            }
          } else if (t1 === undefined) {
            out.push(fail("update-semantics", "updatedAt missing", "the updated object has no updatedAt", e1))
          }
        }
        // A later read shows the change.
        for (const reader of readers) {
          const base = requiredRefs(reader, ctx.pools, 0)
          if (base === undefined) continue
          const { item, walk: w } = yield* findById(ctx, reader, id, base)
          const full = fullObject(reader.object, item)
          if (full === undefined) {
            if (w.ended) out.push(fail("update-semantics", `${reader.method} misses the object`, `${reader.method} does not list the updated object ${id}`, w.pages[w.pages.length - 1]?.exchange))
            continue
          }
          for (const [k, v] of sent) {
            if (!sameAsSent(v, full[k])) {
              out.push(fail("update-semantics", `${reader.method} shows old ${k}`, `after the update, ${reader.method} shows ${k} ${show(full[k])}, sent ${show(v)}`, w.pages[w.pages.length - 1]?.exchange))
            }
          }
        }
        // Put back what was changed.
        const restore: Body = { id }
        for (const k of sentKeys) restore[k] = before[k] ?? null
        for (const k of Object.keys(restore)) {
          if (k !== "id" && Option.isNone(decode({ id, [k]: restore[k] }))) delete restore[k]
        }
        if (Object.keys(restore).length > 1) yield* send(ctx, post(op.path, restore))
        return out.length === 0 ? [pass("update-semantics")] : out
      })
  }
}

// ---------------------------------------------------------------------------------------------
// paging
// ---------------------------------------------------------------------------------------------

const createdKey = (item: Record<string, unknown>): bigint => {
  const t = typeof item.createdAt === "string" ? Timestamp.parse(item.createdAt) : undefined
  return t instanceof Timestamp.Timestamp ? Timestamp.toEpochNanos(t) : -(2n ** 70n)
}

const compareItems = (a: Record<string, unknown>, b: Record<string, unknown>): number => {
  const ca = createdKey(a)
  const cb = createdKey(b)
  if (ca !== cb) return ca < cb ? -1 : 1
  const ia = String(a.id ?? "")
  const ib = String(b.id ?? "")
  return ia < ib ? -1 : ia > ib ? 1 : 0
}

const MAX_WALK_PAGES = 40

const pagingSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list") return undefined
  const checks: Array<CheckId> = ["paging"]
  if (requiredRefs(op, ctx.pools, 0) === undefined) return skipped("paging", op.method, checks, false, missingReference(op, ctx.pools) ?? "missing references")
  const reference = new Map<string, Walk>()
  return {
    family: "paging",
    method: op.method,
    checks,
    writes: false,
    skip: undefined,
    cases: {
      _tag: "Property",
      arbitrary: fc.record({ pages: fc.integer({ min: 1, max: 12 }), order: fc.constantFrom(undefined, "asc", "desc"), ref: fc.nat({ max: 1000 }) }),
      examples: scaled(ctx, 20, 3)
    },
    run: ({ pages, order, ref }: { pages: number; order: "asc" | "desc" | undefined; ref: number }) =>
      Effect.gen(function* () {
        const base = requiredRefs(op, ctx.pools, ref)!
        const key = canonical(base)
        let all = reference.get(key)
        if (all === undefined) {
          all = yield* walk(ctx, op, { ...base, limit: 500 }, MAX_WALK_PAGES)
          reference.set(key, all)
        }
        if (all.error !== undefined) return []
        const total = all.items.length
        const limit = Math.max(1, Math.ceil(total / pages))
        const maxPages = Math.ceil(total / limit) + 2
        const body: Body = { ...base, limit, ...(order === undefined ? {} : { order }) }
        const w = yield* walk(ctx, op, body, all.ended ? maxPages : MAX_WALK_PAGES)
        if (w.error !== undefined) return []
        const out: Array<Outcome> = []
        for (const p of w.pages) {
          const count = typeof p.meta.count === "number" ? p.meta.count : 0
          if (count !== p.items.length) out.push(fail("paging", "count differs from items", `listMetadata.count is ${count} but the page has ${p.items.length} items`, p.exchange, `listMetadata.count = ${count}`))
          if (p.items.length > limit) out.push(fail("paging", "more items than limit", `a page has ${p.items.length} items, more than limit ${limit}`, p.exchange))
          const first = p.items[0]?.id ?? ""
          const last = p.items[p.items.length - 1]?.id ?? ""
          if ((p.meta.after ?? "") !== last || (p.meta.before ?? "") !== first) {
            out.push(fail("paging", "after/before", `listMetadata.after/before are ${JSON.stringify(p.meta.after ?? "")}/${JSON.stringify(p.meta.before ?? "")}, expected the ids of the last/first item ${JSON.stringify(last)}/${JSON.stringify(first)}`, p.exchange))
          }
        }
        const lastExchange = w.pages[w.pages.length - 1]?.exchange
        if (!w.ended && all.ended) out.push(fail("paging", "walk does not end", `walking ${total} items with limit ${limit} did not end after ${w.pages.length} pages`, lastExchange))
        const ids = w.items.map((x) => String(x.id))
        const seen = new Set<string>()
        const twice = ids.find((id) => (seen.has(id) ? true : (seen.add(id), false)))
        if (twice !== undefined) out.push(fail("paging", "item returned twice", `item ${twice} came back twice in one walk`, lastExchange))
        if (w.ended && all.ended) {
          const expected = new Set(all.items.map((x) => String(x.id)))
          let missing = [...expected].filter((id) => !seen.has(id))
          let extra = [...seen].filter((id) => !expected.has(id))
          if (missing.length > 0 || extra.length > 0) {
            // Someone else may have created objects meanwhile (a shared environment): only items
            // in two reads of everything count as missing, only items in neither as unknown.
            const again = yield* walk(ctx, op, { ...base, limit: 500 }, MAX_WALK_PAGES)
            const later = new Set(again.items.map((x) => String(x.id)))
            if (again.error === undefined && again.ended) {
              missing = missing.filter((id) => later.has(id))
              extra = extra.filter((id) => !later.has(id))
            }
          }
          if (missing.length > 0) out.push(fail("paging", "walk misses items", `walking the pages missed ${missing.length} of ${total} items (e.g. ${missing[0]})`, lastExchange))
          if (extra.length > 0) out.push(fail("paging", "walk returns unknown items", `walking the pages returned ${extra.length} items a single read does not have`, lastExchange))
        }
        const sign = order === "desc" ? -1 : 1
        for (let i = 1; i < w.items.length; i++) {
          if (sign * compareItems(w.items[i - 1]!, w.items[i]!) > 0) {
            out.push(fail("paging", `order ${order ?? "default"} not respected`, `items ${String(w.items[i - 1]!.id)} and ${String(w.items[i]!.id)} are not in ${order ?? "asc (default)"} order of createdAt then id`, w.pages.find((p) => p.items.includes(w.items[i]!))?.exchange))
            break
          }
        }
        return out.length === 0 ? [pass("paging")] : out
      })
  }
}

// ---------------------------------------------------------------------------------------------
// search-filter
// ---------------------------------------------------------------------------------------------

const literalsOf = (ast: AST.AST): Array<string> => {
  switch (ast._tag) {
    case "Literal":
      return typeof ast.literal === "string" ? [ast.literal] : []
    case "Union":
      return ast.types.flatMap(literalsOf)
    case "Refinement":
      return literalsOf(ast.from)
    case "Transformation":
      return literalsOf(ast.to)
    case "TupleType":
      return [...ast.elements.map((e) => e.type), ...ast.rest.map((r) => r.type)].flatMap(literalsOf)
    default:
      return []
  }
}

/** The literals of a request property found anywhere under `under` (the filter `key`s, the `searchFields`). */
const literalsOfProperty = (op: Op, under: string, name: string): ReadonlyArray<string> => {
  const out = new Set<string>()
  forEachProperty(op.request.ast, (p) => {
    if (p.name !== under) return
    if (under === name) literalsOf(p.type).forEach((l) => out.add(l))
    else forEachProperty(p.type, (q) => q.name === name && literalsOf(q.type).forEach((l) => out.add(l)))
  })
  return [...out]
}

/** A field's text for search and filters: snake_case key, defaults filled, `type` the vendor object's name. */
const fieldText = (full: Record<string, unknown>, raw: Record<string, unknown>, key: string): string => {
  if (key === "type") {
    const vendor = Object.keys(raw).find((k) => /Vendor[A-Z]\w*$/.test(k) && asRecord(raw[k]) !== undefined)
    return vendor === undefined ? "" : vendor.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
  }
  const v = full[snakeToCamel(key)]
  return typeof v === "string" ? v : typeof v === "boolean" || typeof v === "number" ? String(v) : ""
}

const compareTimestamps = (key: string, a: string, b: string): number | undefined => {
  if (!/_at$/.test(key)) return undefined
  const ta = Timestamp.parse(a)
  const tb = Timestamp.parse(b)
  if (!(ta instanceof Timestamp.Timestamp) || !(tb instanceof Timestamp.Timestamp)) return undefined
  return Timestamp.Order(ta, tb)
}

interface SearchCase {
  readonly mode: "search" | "filter"
  readonly item: number
  readonly field: number
  readonly start: number
  readonly length: number
  readonly upper: boolean
  readonly operators: ReadonlyArray<number>
  readonly group: "and" | "or" | undefined
  readonly ref: number
}

const searchSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list") return undefined
  const props = requestPropertyNames(op)
  const hasSearch = props.includes("search")
  const hasFilter = props.includes("filter")
  if (!hasSearch && !hasFilter) return undefined
  const checks: Array<CheckId> = ["search-filter"]
  if (requiredRefs(op, ctx.pools, 0) === undefined) return skipped("search", op.method, checks, false, missingReference(op, ctx.pools) ?? "missing references")
  const filterKeys = literalsOfProperty(op, "filter", "key")
  const searchFields = literalsOfProperty(op, "searchFields", "searchFields")
  const operators = Filter.Operator.literals
  const modes = [...(hasSearch ? (["search"] as const) : []), ...(hasFilter && filterKeys.length > 0 ? (["filter"] as const) : [])]
  const reference = new Map<string, Walk>()
  return {
    family: "search",
    method: op.method,
    checks,
    writes: false,
    skip: undefined,
    cases: {
      _tag: "Property",
      arbitrary: fc.record({
        mode: fc.constantFrom(...modes),
        item: fc.nat(),
        field: fc.nat(),
        start: fc.nat({ max: 8 }),
        length: fc.nat({ max: 8 }),
        upper: fc.boolean(),
        operators: fc.array(fc.nat({ max: operators.length - 1 }), { minLength: 1, maxLength: 2 }),
        group: fc.constantFrom(undefined, "and", "or"),
        ref: fc.nat({ max: 1000 })
      }),
      examples: scaled(ctx, 5, 5)
    },
    run: (c: SearchCase) =>
      Effect.gen(function* () {
        const base = requiredRefs(op, ctx.pools, c.ref)!
        const key = canonical(base)
        let all = reference.get(key)
        if (all === undefined) {
          all = yield* walk(ctx, op, { ...base, limit: 500 }, MAX_WALK_PAGES)
          reference.set(key, all)
        }
        if (all.error !== undefined || !all.ended) return []
        const rows = all.items.map((raw) => ({ raw, full: fullObject(op.object, raw) ?? raw }))
        const sample = rows.length === 0 ? undefined : rows[c.item % rows.length]
        const textOf = (k: string) => (sample === undefined ? "" : fieldText(sample.full, sample.raw, k))
        const cut = (s: string) => {
          const from = Math.min(c.start, s.length)
          const piece = s.slice(from, from + (c.length === 0 ? s.length : c.length))
          return c.upper ? piece.toUpperCase() : piece
        }
        let body: Body
        let matches: (row: { raw: Record<string, unknown>; full: Record<string, unknown> }) => boolean
        let described: string
        if (c.mode === "search") {
          const fields = searchFields.length === 0 ? ["name"] : [searchFields[c.field % searchFields.length]!]
          const term = cut(textOf(fields[0]!))
          // `name` is the default: sometimes leave searchFields out to test that too.
          const explicit = searchFields.length > 0 && !(c.upper && fields[0] === "name" && c.start % 2 === 0)
          body = { ...base, limit: 500, search: term, ...(explicit ? { searchFields: fields } : {}) }
          matches = (row) => fields.some((f) => fieldText(row.full, row.raw, f).toLowerCase().includes(term.toLowerCase()))
          described = `search ${JSON.stringify(term)} in ${fields.join(", ")}`
        } else {
          const conditions = c.operators.map((o, i) => {
            const k = filterKeys[(c.field + i) % filterKeys.length]!
            const operator = operators[o]!
            const v = operator === "lower_than" || operator === "greater_than" || operator === "equals" || operator === "not_equals" ? textOf(k) : cut(textOf(k))
            return { field: Filter.valueless.has(operator) ? { key: k, operator } : { key: k, operator, value: { "@type": Filter.STRING_VALUE_TYPE, value: v } } }
          })
          const filter = c.group === undefined || conditions.length === 1 ? conditions[0]! : { group: { operator: c.group, filters: conditions } }
          body = { ...base, limit: 500, filter }
          matches = (row) => Filter.evaluate(filter as Filter.Filter<string>, (k) => fieldText(row.full, row.raw, k), compareTimestamps)
          described = `filter ${JSON.stringify(filter)}`
        }
        const w = yield* walk(ctx, op, body, MAX_WALK_PAGES)
        const lastExchange = w.pages[w.pages.length - 1]?.exchange ?? w.error
        if (w.error !== undefined) {
          const code = Inspect.codeOf(w.error) ?? `HTTP ${Inspect.statusOf(w.error) ?? "none"}`
          return [fail("search-filter", `${c.mode} rejected with ${code}`, `${described} was rejected with ${code}`, w.error)]
        }
        if (!w.ended) return []
        // Returned items are judged by their own content; a matching item counts as missing only
        // when two reads of everything both have it (objects may change meanwhile).
        const wrong = w.items.filter((raw) => !matches({ raw, full: fullObject(op.object, raw) ?? raw })).map((x) => String(x.id))
        const got = new Set(w.items.map((x) => String(x.id)))
        let missing = rows.filter(matches).map((r) => String(r.raw.id)).filter((id) => !got.has(id))
        if (missing.length > 0) {
          const again = yield* walk(ctx, op, { ...base, limit: 500 }, MAX_WALK_PAGES)
          if (again.error === undefined && again.ended) {
            const still = new Set(again.items.map((raw) => ({ raw, full: fullObject(op.object, raw) ?? raw })).filter(matches).map((r) => String(r.raw.id)))
            missing = missing.filter((id) => still.has(id))
          }
        }
        const out: Array<Outcome> = []
        if (wrong.length > 0) out.push(fail("search-filter", `${c.mode} returns non-matching items`, `${described} returned ${wrong.length} items that do not match (e.g. ${wrong[0]})`, lastExchange))
        if (missing.length > 0) out.push(fail("search-filter", `${c.mode} misses matching items`, `${described} left out ${missing.length} matching items (e.g. ${missing[0]})`, lastExchange))
        return out.length === 0 ? [pass("search-filter")] : out
      })
  }
}

/** Every suite of an operation, in run order. */
export const suitesOf = (op: Op, ctx: Context): ReadonlyArray<Suite> =>
  [
    validSuite(op, ctx),
    invalidSuite(op, ctx),
    rulesSuite(op, ctx),
    bodySuite(op, ctx),
    unknownIdSuite(op, ctx),
    authSuite(op, ctx),
    protocolSuite(op, ctx),
    updateSuite(op, ctx),
    stableSuite(op, ctx),
    pagingSuite(op, ctx),
    searchSuite(op, ctx)
  ].filter((s): s is Suite => s !== undefined)

/** Suites of the whole API, not tied to one operation. */
export const globalSuites = (ctx: Context): ReadonlyArray<Suite> => [routesSuite(ctx)]

