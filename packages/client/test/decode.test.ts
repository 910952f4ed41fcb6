// Under the machine's Node only (scripts/node-lines): the compiled decoder against Effect's parser, pure data transforms.
// The compiled decoder (`@data-access/core/Decoder` over this line's description of its schemas)
// against Effect 3's parser: the suite both lines run (@data-access/client-behaviour/decoding).
import * as Decoder from "@data-access/core/Decoder"
import * as Decoding from "@data-access/client-behaviour/decoding"
import * as Operations from "@data-access/schema/Operations"
import { describe, expect, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { describeSchema, makeDecoder } from "@data-access/schema/Decode"

const schemaOf = (method: string) =>
  Operations.operations[method as keyof typeof Operations.operations]
    .response as unknown as Schema.Schema<unknown, unknown>

const outcome = (r: Either.Either<unknown, ParseResult.ParseError>): Decoding.Outcome =>
  Either.isRight(r)
    ? { ok: true, value: r.right }
    : { ok: false, error: ParseResult.TreeFormatter.formatErrorSync(r.left) }

Decoding.run(
  {
    methods: Operations.all.map((op) => op.method),
    Decoder,
    decoders: (method) => {
      const [parse, client] = [
        Schema.decodeUnknownEither(schemaOf(method)),
        makeDecoder(schemaOf(method))
      ]
      return {
        description: describeSchema(schemaOf(method)),
        slow: (u) => outcome(parse(u)),
        client: (u) => outcome(client(u))
      }
    },
    Redacted,
    values: (method) => Arbitrary.make(schemaOf(method)),
    wire: (method, value) => Schema.encodeSync(schemaOf(method))(value),
    encoded: (method) => Arbitrary.make(Schema.encodedSchema(schemaOf(method))),
    fc: FastCheck,
    runs: Number(process.env.DECODE_RUNS ?? 40)
  },
  { describe, it, fail: (message) => expect.fail(message) }
)
