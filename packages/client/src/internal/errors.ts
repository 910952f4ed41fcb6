import * as Issue from "@data-access/core/Issue"
import * as Secrets from "@data-access/schema/Secrets"
import * as ParseResult from "effect/ParseResult"

/**
 * The first issue of a parse error as a JSON path and a message that never shows a value
 * (`@data-access/core/Issue.describe`); the secret fields are those of the schemas
 * (`Secrets.fieldNames`).
 */
export const describeParseError = (
  error: ParseResult.ParseError
): { readonly path: string; readonly message: string } =>
  Issue.describe(ParseResult.ArrayFormatter.formatErrorSync(error), Secrets.fieldNames)
