import * as Issue from "@data-access/core/Issue"
import { secretFields } from "@data-access/schema-effect4/Primitives"
import * as SchemaIssue from "effect/SchemaIssue"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * The first issue of a schema failure as a JSON path and a message that never shows a value
 * (`@data-access/core/Issue.describe`; the secret fields are the generated list).
 */
export const describeIssue = (
  issue: SchemaIssue.Issue
): { readonly path: string; readonly message: string } =>
  Issue.describe(
    formatter(issue).issues.map((i) => ({
      path: (i.path ?? []).map((s) =>
        typeof s === "object" && s !== null && "key" in s ? s.key : s
      ) as ReadonlyArray<PropertyKey>,
      message: i.message
    })),
    secretFields
  )
