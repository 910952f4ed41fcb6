// What the official codec reads, a faithful server may accept: the runner's invalid inputs held
// against protobuf-es's proto3 JSON reader of the generated request messages. An input that reader
// takes is sent as invalid only when a must of the documents names its rule in so many words (a min
// length, an enum's values, a range, a required field...), never for its JSON type alone.
import { createRegistry, fromJson, type JsonValue } from "@bufbuild/protobuf"
import { file_google_protobuf_wrappers } from "@bufbuild/protobuf/wkt"
import * as Mutations from "@data-access/contract-tests/Mutations"
import { ContractRules, Operations } from "@data-access/schema"
import { describe, expect, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { file_core_v1_api } from "../src/gen/core/v1/api_pb.js"

const registry = createRegistry(file_core_v1_api, file_google_protobuf_wrappers)

/** Whether protobuf-es reads `json` as the operation's request message, as connect-node does (unknown fields ignored). */
const protoReads = (op: Operations.Operation, json: unknown): boolean => {
  const desc = registry.getMessage(`core.v1.${op.method}Request`)
  if (desc === undefined) throw new Error(`no message ${op.method}Request`)
  try {
    fromJson(desc, json as JsonValue, { ignoreUnknownFields: true, registry })
    return true
  } catch {
    return false
  }
}

/** The rules whose must a sentence of the documents states beyond the field's proto3 JSON type. */
const statedBeyondJson: ReadonlySet<ContractRules.RuleId> = new Set([
  "fields.min-length",
  "fields.enum",
  "fields.required",
  "fields.one-of",
  "fields.connector-name",
  "lists.limit-range",
  "filter.unknown-key",
  "filter.group-not-empty"
])

describe("the runner's invalid inputs against proto3 JSON's reader (protobuf-es)", () => {
  it("an input the reader takes is sent as invalid only under a must beyond its JSON type; a wrong JSON type the reader refuses", () => {
    const read: Array<string> = []
    const oneOfs: Array<string> = []
    for (const op of Operations.all as ReadonlyArray<Operations.Operation>) {
      for (const value of FastCheck.sample(Arbitrary.make(op.request), { seed: 40, numRuns: 8 })) {
        const valid = Schema.encodeSync(op.request)(value)
        expect(protoReads(op, valid), `${op.method} valid ${JSON.stringify(valid)}`).toBe(true)
        for (const m of Mutations.derive(op.request, valid)) {
          if (m.ruleId === undefined) continue
          const reads = protoReads(op, m.body)
          // A filter's condition and group at once: two members of one `oneof`, which the reader refuses.
          if (m.ruleId === "fields.json-type" || m.ruleId === "filter.one-of") {
            expect(reads, `${op.method} ${m.rule} ${JSON.stringify(m.body)}`).toBe(false)
            if (m.ruleId === "filter.one-of") oneOfs.push(m.rule)
          } else if (reads) {
            expect(statedBeyondJson.has(m.ruleId), `${op.method} ${m.rule} (${m.ruleId})`).toBe(
              true
            )
            read.push(m.ruleId)
          }
        }
      }
    }
    expect(oneOfs.some((r) => r.includes("filter.group.filters[0]"))).toBe(true)
    // The reader takes the inputs only a must refuses: an empty required string, a value outside an enum.
    expect(new Set(read)).toContain("fields.min-length")
    expect(new Set(read)).toContain("fields.enum")
  })

  it("certificate and privateKey: the schema takes exactly the base64 spellings protobuf-es reads", () => {
    const op = Operations.operations.UpdateConnectorHostname
    const schemaTakes = (v: string) =>
      Option.isSome(Schema.decodeUnknownOption(op.request)({ id: "x", certificate: v }))
    const unit = FastCheck.constantFrom(..."aZ09+/_-= \t\n\r!.\u00e9\f")
    FastCheck.assert(
      FastCheck.property(FastCheck.string({ unit, maxLength: 14 }), (v) => {
        expect(schemaTakes(v), JSON.stringify(v)).toBe(protoReads(op, { id: "x", certificate: v }))
      }),
      { seed: 40, numRuns: 5000 }
    )
  })
})
