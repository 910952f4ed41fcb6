// Under the machine's Node only (scripts/node-lines): decoding by schema and describing its issues, pure data transforms.
// The server reads a request with the compiled decoder and describes a refused one by walking to
// its first issue: both held to Effect's parser and ArrayFormatter on drawn bodies of every
// operation (valid ones, encoded forms that break the refinements, and arbitrary JSON).
import { Operations, SchemaWalk } from "@data-access/schema"
import { describe, expect, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { faithfulRoutes } from "../src/internal/faithful.js"
import { describeIssue, truncate } from "../src/internal/messages.js"

type Request = Schema.Schema<Readonly<Record<string, unknown>>, unknown>

/** Bodies of one operation: valid, encoded without the refinements, and its fields given any JSON. */
const bodies = (op: Operations.Operation): fc.Arbitrary<unknown> => {
  const schema = op.request as unknown as Request
  const encode = Schema.encodeSync(schema)
  const fields = [...SchemaWalk.requestFields(op).keys()]
  return fc.oneof(
    Arbitrary.make(schema).map((a) => encode(a)),
    Arbitrary.make(Schema.encodedSchema(schema)),
    fields.length === 0
      ? fc.jsonValue()
      : fc.dictionary(fc.constantFrom(...fields), fc.jsonValue(), { maxKeys: 4 })
  )
}

/** The message the parser's first issue gives, as the server wrote it before. */
const formatted = (issue: ParseResult.ParseIssue): string => {
  const first = ParseResult.ArrayFormatter.formatIssueSync(issue)[0]
  if (first === undefined) return "invalid request"
  const path = first.path.map(String).join(".")
  return path === "" ? first.message : `${path}: ${first.message}`
}

describe("the server's request decoding", () => {
  for (const op of Operations.all) {
    it(`${op.method}: the parser's value or its first issue, described as ArrayFormatter does`, () => {
      const route = faithfulRoutes.get(op.path)!
      const parse = ParseResult.decodeUnknownEither(op.request as unknown as Request, {
        errors: "first"
      })
      let refused = 0
      fc.assert(
        fc.property(bodies(op), (body) => {
          const fast = route.decode(body)
          const slow = parse(body)
          expect(Either.isRight(fast)).toBe(Either.isRight(slow))
          if (Either.isRight(fast) && Either.isRight(slow)) expect(fast.right).toEqual(slow.right)
          if (Either.isLeft(fast) && Either.isLeft(slow)) {
            refused++
            const text = describeIssue(fast.left)
            // A secret field's value is never described; every other message is the formatter's.
            if (!text.includes("(a secret field; its value is not shown)"))
              expect(text).toBe(truncate(formatted(slow.left)))
          }
        }),
        { numRuns: 150, seed: 1 }
      )
      expect(refused).toBeGreaterThan(0)
    })
  }
})
