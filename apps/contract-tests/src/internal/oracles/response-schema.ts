/**
 * response-schema: a 200 body decodes with its operation's response schema (timestamps in `Z`,
 * int64 as strings) and names its fields in lowerCamelCase.
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import type * as Schema from "effect/Schema"
import {
  type ContractRules,
  Decode,
  Operations,
  Primitives,
  SchemaWalk,
  Secrets
} from "@data-access/schema"
import type { Exchange } from "../http.js"
import { snakeToCamel } from "../json.js"
import { fail, type Outcome, passes } from "../outcome.js"
import { forEachTimestamp, normalizePath } from "../answerReading.js"
import { defined, type ExchangeOracle, onAnswer } from "../exchangeOracle.js"

type Op = Operations.Operation

/** The wire shape of an int64 (a string or a number); every int64 field's shape is this one. */
const int64Shape = SchemaWalk.shapeOf(Primitives.Int64.ast)

/** Whether a field's shape is an int64's, maybe among other members (nullable, optional). */
const holdsInt64 = (shape: SchemaWalk.Shape): boolean =>
  shape === int64Shape || (shape._tag === "Union" && shape.members.some(holdsInt64))

/** Names of the int64 fields of every response (`relativeTime`), written as JSON strings. */
export const int64Fields: ReadonlySet<string> = (() => {
  const names = new Set<string>()
  for (const op of Operations.all as ReadonlyArray<Operations.Operation>) {
    SchemaWalk.forEachField(SchemaWalk.shapeOf(op.response.ast), (f) => {
      if (holdsInt64(f.shape)) names.add(f.name)
    })
  }
  return names
})()

/**
 * Each operation's response decoder, made once: the schema compiled (`Decode`, as the client
 * decodes), and the schema's parser with every issue for an answer it does not accept.
 */
const responseDecoders = new Map<
  Op,
  (u: unknown) => Either.Either<unknown, ParseResult.ParseError>
>()
const responseDecoder = (op: Op) => {
  let decode = responseDecoders.get(op)
  if (decode === undefined)
    responseDecoders.set(
      op,
      (decode = Decode.makeDecoder(op.response as Schema.Schema<unknown, unknown>, {
        errors: "all"
      }))
    )
  return decode
}

/** Characters of answer texts kept, at most this many (then forgotten, and kept anew), each text at most `MAX_PASSED_TEXT`. */
const MAX_PASSED_CHARS = 4_000_000
const MAX_PASSED_TEXT = 16 * 1024
let passedChars = 0

/**
 * The 200 answer texts that passed response-schema, with their operation's method. The verdict is
 * a function of the operation and the text alone (the body is the text's JSON), and the same
 * objects come back in many answers (a Get of an object a List served, a page read twice): such a
 * text passes again without being decoded again. A text that failed is judged anew each time, for
 * its own exchange. Bounded (the proxy judges traffic for as long as it runs).
 */
const passedTexts = new Set<string>()

const RESPONSE_SCHEMA_RULES: ReadonlyArray<ContractRules.RuleId> = [
  "response.schema",
  "response.field-types",
  "timestamps.utc-z",
  "timestamps.fraction-digits",
  "int64.as-string"
]

/** response-schema: the 200 body decodes with the operation's response schema; timestamps end in `Z`. */
export const responseSchema = (op: Op, e: Exchange): Outcome | undefined => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || r.status !== 200 || Option.isNone(r.json)) return undefined
  const key = r.text.length <= MAX_PASSED_TEXT ? `${op.method}\u0000${r.text}` : undefined
  if (key !== undefined && passedTexts.has(key)) return passes(RESPONSE_SCHEMA_RULES)
  const outcome = judgeResponseSchema(op, r.json.value, e)
  if (outcome.ok && key !== undefined) {
    if (passedChars >= MAX_PASSED_CHARS) {
      passedTexts.clear()
      passedChars = 0
    }
    passedTexts.add(key)
    passedChars += key.length
  }
  return outcome
}

const valueAt = (root: unknown, path: ReadonlyArray<PropertyKey>): unknown => {
  let v = root
  for (const p of path) {
    if (v === null || typeof v !== "object") return undefined
    v = (v as Record<PropertyKey, unknown>)[p]
  }
  return v
}

const judgeResponseSchema = (op: Op, json: unknown, e: Exchange): Outcome => {
  const decoded = responseDecoder(op)(json)
  if (Either.isLeft(decoded)) {
    const issue = ParseResult.ArrayFormatter.formatIssueSync(decoded.left.issue)[0]!
    const at = normalizePath(issue.path)
    const secret = issue.path.some((p) => Secrets.fieldNames.has(String(p)))
    const shown = secret
      ? Secrets.REDACTED
      : (JSON.stringify(Secrets.redact(valueAt(json, issue.path))) ?? "absent")
    const message = secret
      ? `${issue._tag} (secret field, value not shown)`
      : issue.message.replace(/"[^"]{60,}"/g, '"…"')
    return fail(
      issue._tag === "Type" ? "response.field-types" : "response.schema",
      `${at}: ${issue._tag}`,
      `response ${at || "(body)"}: ${message}`,
      e,
      `${at || "(body)"} = ${shown}`
    )
  }
  let bad: Outcome | undefined
  forEachTimestamp(json, (path, _name, value) => {
    if (bad !== undefined || typeof value !== "string") return
    const at = normalizePath(path)
    if (!value.endsWith("Z")) {
      bad = fail(
        "timestamps.utc-z",
        `${at}: not Z`,
        `response ${at}: timestamp ${JSON.stringify(value)} is not written in UTC with Z`,
        e,
        `${at} = ${JSON.stringify(value)}`
      )
      return
    }
    const fraction = /\.([0-9]*)Z$/.exec(value)?.[1]
    if (fraction !== undefined && ![3, 6, 9].includes(fraction.length)) {
      bad = fail(
        "timestamps.fraction-digits",
        `${at}: ${fraction.length} fractional digits`,
        `response ${at}: timestamp ${JSON.stringify(value)} has ${fraction.length} fractional digits, not 0, 3, 6 or 9`,
        e,
        `${at} = ${JSON.stringify(value)}`
      )
    }
  })
  if (bad === undefined && int64Fields.size > 0) {
    const go = (v: unknown, path: ReadonlyArray<PropertyKey>): void => {
      if (bad !== undefined) return
      if (Array.isArray(v)) v.forEach((x, i) => go(x, [...path, i]))
      else if (v !== null && typeof v === "object") {
        for (const [k, x] of Object.entries(v)) {
          if (int64Fields.has(k) && typeof x === "number") {
            const at = normalizePath([...path, k])
            bad = fail(
              "int64.as-string",
              `${at}: int64 as a number`,
              `response ${at}: the int64 ${x} is written as a JSON number, not a string`,
              e,
              `${at} = ${x}`
            )
            return
          }
          go(x, [...path, k])
        }
      }
    }
    go(json, [])
  }
  return bad ?? passes(RESPONSE_SCHEMA_RULES)
}

/** Every property name of the response schemas, in lowerCamelCase. */
const responseNames: ReadonlySet<string> = (() => {
  const out = new Set<string>()
  for (const op of Operations.all)
    SchemaWalk.forEachField(SchemaWalk.shapeOf(op.response.ast), (f) => out.add(f.name))
  return out
})()

/** A key of a JSON value, at any depth, that spells a response field in snake_case. */
const snakeCaseKey = (v: unknown, path: string, depth = 0): string | undefined => {
  if (depth > 32 || v === null || typeof v !== "object") return undefined
  if (Array.isArray(v)) {
    for (const x of v) {
      const found = snakeCaseKey(x, `${path}[]`, depth + 1)
      if (found !== undefined) return found
    }
    return undefined
  }
  for (const [k, x] of Object.entries(v)) {
    const at = path === "" ? k : `${path}.${k}`
    if (k.includes("_") && !responseNames.has(k) && responseNames.has(snakeToCamel(k))) return at
    const found = snakeCaseKey(x, at, depth + 1)
    if (found !== undefined) return found
  }
  return undefined
}

/** A JSON key with an underscore, in a body's text (a value that looks like one only costs a walk). */
const SNAKE_KEY_TEXT = /"[A-Za-z0-9]*_[A-Za-z0-9_]*"\s*:/

/** Output is always lowerCamelCase (decisions.md section 1): a success body names no field in snake_case. */
export const camelCaseOutput = (e: Exchange): Outcome | undefined => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || r.status !== 200 || Option.isNone(r.json)) return undefined
  // Most bodies have no key with an underscore at all: one scan of the text says so.
  if (!SNAKE_KEY_TEXT.test(r.text)) return passes(["wire.output-camel-case"])
  const at = snakeCaseKey(r.json.value, "")
  return at === undefined
    ? passes(["wire.output-camel-case"])
    : fail(
        "wire.output-camel-case",
        "snake_case field name",
        `the success body names ${at} in snake_case; output is always lowerCamelCase`,
        e,
        at
      )
}

const responseSchemaOracle = onAnswer(
  "response-schema",
  [
    "response.schema",
    "response.field-types",
    "timestamps.utc-z",
    "timestamps.fraction-digits",
    "int64.as-string"
  ],
  (v) => (v.op === undefined ? [] : defined(responseSchema(v.op, v.exchange)))
)

const camelCaseOutputOracle = onAnswer("camel-case-output", ["wire.output-camel-case"], (v) =>
  defined(camelCaseOutput(v.exchange))
)

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [responseSchemaOracle, camelCaseOutputOracle]
