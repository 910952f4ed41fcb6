import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

/** The value a schema decodes from wire JSON, or a thrown error with the formatted message. */
export const decode = <A, I>(schema: Schema.Schema<A, I>, input: unknown): A =>
  Schema.decodeUnknownSync(schema)(input)

/** A JSON round trip, as a body crosses the wire. */
export const wire = (u: unknown): unknown => JSON.parse(JSON.stringify(u))

/** The rejection of an input: the ArrayFormatter issues and the TreeFormatter text. */
export const reject = <A, I>(
  schema: Schema.Schema<A, I>,
  input: unknown
): { readonly issues: ReadonlyArray<ParseResult.ArrayFormatterIssue>; readonly tree: string } => {
  const result = Schema.decodeUnknownEither(schema)(input)
  if (Either.isRight(result)) {
    throw new Error(`expected a rejection of ${JSON.stringify(input)}, got a decoded value`)
  }
  return {
    issues: ParseResult.ArrayFormatter.formatErrorSync(result.left),
    tree: ParseResult.TreeFormatter.formatErrorSync(result.left)
  }
}

/** The messages of the issues found at exactly this path. */
export const messagesAt = (
  issues: ReadonlyArray<ParseResult.ArrayFormatterIssue>,
  path: ReadonlyArray<PropertyKey>
): ReadonlyArray<string> =>
  issues
    .filter((i) => i.path.length === path.length && i.path.every((p, n) => p === path[n]))
    .map((i) => i.message)
