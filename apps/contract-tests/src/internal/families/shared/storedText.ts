/** Valid writes whose free text a server must store as sent: spaces at its ends, at the longest length every server accepts. */
import * as fc from "effect/FastCheck"
import { SchemaWalk } from "@data-access/schema"
import { type Body, isWrite, type Op, uniqueNames } from "../../context.js"
import * as Gen from "../../generate.js"
import * as TextLength from "../../textLength.js"
import * as UnicodeText from "../../unicodeText.js"

/** The spaces at the ends of a stored text: a server keeps them, as every character of a value it accepts. */
const SPACES = "  "

const nonce = { n: 0 }

/**
 * A write's requests, one per free-text string field it sends (not a reference, an enum, a
 * pattern, a format or a secret), each made afresh by its function: that field at the longest
 * length every server accepts (255 ASCII characters, decisions.md section 10) with spaces at its
 * end, and at its start too but in `name` (which keeps the run's prefix first), around a part
 * unique to the run and the send. A server that trims, pads or cuts what it stores answers with
 * another value.
 */
export const storedTextEdges = (
  op: Op,
  arbitrary: fc.Arbitrary<Body>,
  runId: string
): ReadonlyArray<() => Body> => {
  if (!isWrite(op)) return []
  const [drawn] = fc.sample(arbitrary, { seed: 3, numRuns: 1 })
  if (drawn === undefined) return []
  const plain = Gen.plainForm(op, drawn)
  const out: Array<() => Body> = []
  for (const [name, field] of SchemaWalk.requestFields(op)) {
    const shape = SchemaWalk.nonNullish(field.shape)
    if (shape._tag !== "String" || shape.literals !== undefined) continue
    if (!UnicodeText.isFreeText(name) || /Id$/.test(name)) continue
    const text = (unique: string) =>
      name === "name"
        ? `${Gen.namePrefix(runId)}${unique}`.padEnd(
            TextLength.SAFE_STRING_LENGTH - SPACES.length,
            "n"
          ) + SPACES
        : SPACES + unique.padEnd(TextLength.SAFE_STRING_LENGTH - 2 * SPACES.length, "n") + SPACES
    const make = (): Body => ({
      ...(uniqueNames(op, plain) as Body),
      [name]: text(`ct${runId}s${(++nonce.n).toString(36)}`)
    })
    if (Gen.isValid(op, make())) out.push(make)
  }
  return out
}
