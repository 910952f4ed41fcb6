/**
 * A JSON report read back (`Report.fromJson`): the schema of the report `Report.toJson` writes, so
 * that `contract-tests merge` refuses a file that is not one with the path of what is wrong.
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { ContractRules } from "@data-access/schema"
import * as Checks from "@data-access/schema/ContractChecks"
import type * as Report from "./model.js"
import { type CustomCheckId, isCustomCheckId } from "../checkIds.js"

const Count = Schema.NonNegativeInt

const RuleId = Schema.String.pipe(
  Schema.filter((s) => ContractRules.isRuleId(s) || `${s} is not a rule id`)
) as unknown as Schema.Schema<ContractRules.RuleId, string>

const CustomCheckIdSchema = Schema.String.pipe(
  Schema.filter((s) => isCustomCheckId(s) || `${s} is not a custom check id`)
) as unknown as Schema.Schema<CustomCheckId, string>

/** A built-in check's id or a custom one's. */
const CheckId = Schema.Union(Checks.CheckIdSchema, CustomCheckIdSchema)

const NoteId = Schema.Literal(
  ...(ContractRules.notes.map((n) => n.id) as [
    ContractRules.NoteId,
    ...Array<ContractRules.NoteId>
  ])
)

/** A key that `JSON.stringify` leaves out when its value is `undefined`. */
const absentAsUndefined = <A, I>(schema: Schema.Schema<A, I>) =>
  Schema.optionalWith(Schema.UndefinedOr(schema), { default: () => undefined })

const Cell = Schema.Struct({
  operation: Schema.String,
  check: CheckId,
  passed: Count,
  failed: Count,
  skipped: Count,
  skipReasons: Schema.Array(Schema.String)
})

const RuleCoverage = Schema.Struct({
  rule: RuleId,
  check: Checks.CheckIdSchema,
  judged: Count,
  operations: Schema.Array(Schema.String),
  reason: Schema.optional(Schema.String)
})

const FieldCoverage = Schema.Struct({
  operation: Schema.String,
  field: Schema.String,
  valid: Schema.Array(Schema.String),
  refused: Schema.Array(Schema.String)
})

const Finding = Schema.Struct({
  side: Schema.optional(Schema.Literal("client", "server")),
  check: CheckId,
  rule: Schema.Union(RuleId, CustomCheckIdSchema),
  source: Schema.String,
  severity: Schema.Literal("critical", "major", "minor"),
  operation: Schema.String,
  cause: Schema.String,
  message: Schema.String,
  detail: absentAsUndefined(Schema.String),
  seed: Schema.Number,
  replayId: Schema.String,
  curl: Schema.String,
  request: Schema.Struct({
    method: Schema.String,
    path: Schema.String,
    body: absentAsUndefined(Schema.String)
  }),
  response: absentAsUndefined(
    Schema.Union(
      Schema.Struct({
        _tag: Schema.Literal("Response"),
        status: Schema.Int,
        contentType: absentAsUndefined(Schema.String),
        body: Schema.String
      }),
      Schema.Struct({ _tag: Schema.Literal("NoResponse"), error: Schema.String })
    )
  ),
  occurrences: Count,
  shrinkSteps: Count
})

const Observation = Schema.Struct({
  note: NoteId,
  operation: Schema.String,
  message: Schema.String,
  curl: Schema.String,
  body: Schema.optional(Schema.String)
})

const Fixed = Schema.Struct({ rule: Schema.String, operation: Schema.String, cause: Schema.String })

/** A report as `Report.toJson` writes it. */
export const ReportSchema = Schema.Struct({
  runId: Schema.String,
  seed: Schema.Number,
  target: Schema.String,
  startedAt: Schema.String,
  durationMs: Schema.Number,
  requests: Count,
  examples: Count,
  readOnly: Schema.Boolean,
  replay: absentAsUndefined(Schema.String),
  rerun: Schema.optional(Schema.String),
  cells: Schema.Array(Cell),
  findings: Schema.Array(Finding),
  known: Schema.Array(Finding),
  fixed: Schema.Array(Fixed),
  observations: Schema.Array(Observation),
  notes: Schema.Array(Schema.String),
  coverage: Schema.optional(Schema.Array(RuleCoverage)),
  fields: Schema.optional(Schema.Array(FieldCoverage)),
  repeats: Schema.optional(Count),
  checks: Schema.optional(Schema.Array(CheckId)),
  shard: Schema.optional(Schema.Struct({ index: Schema.Int, total: Schema.Int })),
  mergedFrom: Schema.optional(Schema.Array(Schema.String)),
  verdict: Schema.optional(Schema.Struct({ pass: Schema.Boolean, why: Schema.String }))
}).annotations({ identifier: "Report" })

// The schema's reports are reports: a field added to the model and not here fails to compile.
const _isReport = (r: typeof ReportSchema.Type): Report.Report => r
void _isReport

/**
 * A JSON report (`Report.toJson`) read back, or why the text is not one (the path of each wrong
 * field).
 *
 * @since 0.6.0
 * @category parsing
 */
export const fromJson = (text: string): Either.Either<Report.Report, string> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    return Either.left(`not JSON: ${(e as Error).message}`)
  }
  return Either.mapLeft(Schema.decodeUnknownEither(ReportSchema)(json), (e) =>
    ParseResult.TreeFormatter.formatErrorSync(e)
  )
}
