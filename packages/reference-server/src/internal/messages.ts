/**
 * The texts of the server's error messages, which the documents leave free (decisions.md section
 * 2: message optional): a decode issue described without echoing a secret's value.
 *
 * @internal
 */
import { Secrets } from "@data-access/schema"
import * as ParseResult from "effect/ParseResult"

/** Cuts a text quoted in a message to `n` characters. */
export const truncate = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}...` : s)

/** Turns a decode issue into a message naming the field, without echoing a secret's value. */
export const describeIssue = (parseIssue: ParseResult.ParseIssue): string => {
  const issue = ParseResult.ArrayFormatter.formatIssueSync(parseIssue)[0]
  if (issue === undefined) return "invalid request"
  const path = issue.path.map(String).join(".")
  const last = issue.path[issue.path.length - 1]
  // A second guard: the schemas' own messages for a secret field never print its value.
  if (typeof last === "string" && Secrets.fieldNames.has(last))
    return `${path}: invalid value (a secret field; its value is not shown)`
  return truncate(path === "" ? issue.message : `${path}: ${issue.message}`)
}

/** Turns a ParseError into a message naming the field, without echoing a secret's value. */
export const describeParseError = (error: ParseResult.ParseError): string =>
  describeIssue(error.issue)
