// Under the machine's Node only (scripts/node-lines): the compiled decoder against Effect's parser, pure data transforms.
// The compiled decoder (`@data-access/core/Decoder` over this line's description of its schemas)
// against Effect 4's parser: the suite both lines run (@data-access/client-behaviour/decoding).
// Valid wire JSON comes from the Effect 3 schemas' arbitraries (the same wire format:
// schema-effect4's Agreement test holds the two lines to it), loaded from @data-access/client's
// own dependencies.
import * as Decoder from "@data-access/core/Decoder"
import * as Decoding from "@data-access/client-behaviour/decoding"
import * as Operations from "@data-access/schema-effect4/Operations"
import { describe, expect, it } from "@effect/vitest"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"
import { describeSchema, makeDecoder } from "../src/internal/decode.js"

const require = createRequire(import.meta.url)
const client3 = createRequire(require.resolve("@data-access/client/package.json"))
const effect3 = (file: string) =>
  import(
    pathToFileURL(join(dirname(client3.resolve("effect/package.json")), "dist", "esm", file)).href
  )
const [Arbitrary3, FastCheck3, Schema3, Operations3] = await Promise.all([
  effect3("Arbitrary.js"),
  effect3("FastCheck.js"),
  effect3("Schema.js"),
  import(
    pathToFileURL(
      join(dirname(client3.resolve("@data-access/schema/package.json")), "dist", "Operations.js")
    ).href
  )
])

type Operations = typeof Operations.operations
const schemaOf = (method: string) =>
  Operations.operations[method as keyof Operations].response as unknown as Schema.Codec<
    unknown,
    unknown
  >
const schema3Of = (method: string) => Operations3.operations[method].response

const outcome = (r: Result.Result<unknown, Schema.SchemaError>): Decoding.Outcome =>
  Result.isSuccess(r)
    ? { ok: true, value: r.success }
    : { ok: false, error: String(r.failure.issue) }

Decoding.run(
  {
    methods: Object.keys(Operations.operations),
    Decoder,
    decoders: (method) => {
      const schema = schemaOf(method)
      const decodeResult = Schema.decodeUnknownResult(schema)
      const clientDecoder = makeDecoder(schema)
      return {
        description: describeSchema(schema),
        client: (u) => outcome(clientDecoder(u)),
        slow: (u) => outcome(decodeResult(u))
      }
    },
    Redacted,
    values: (method) => Arbitrary3.make(schema3Of(method)),
    wire: (method, value) => Schema3.encodeSync(schema3Of(method))(value),
    encoded: (method) => Arbitrary3.make(Schema3.encodedSchema(schema3Of(method))),
    fc: FastCheck3,
    runs: Number(process.env.DECODE_RUNS ?? 40)
  },
  { describe, it, fail: (message) => expect.fail(message) }
)
