/**
 * The texts of the server's error messages, which the documents leave free (decisions.md section
 * 2: message optional): a decode issue described without echoing a secret's value.
 *
 * @internal
 */
import { Secrets } from "@data-access/schema"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as AST from "effect/SchemaAST"

/** Cuts a text quoted in a message to `n` characters. */
export const truncate = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}...` : s)

/**
 * The first issue of `ArrayFormatter.formatIssueSync(issue)`, found by walking to it: the formatter
 * would format every issue of a union or a struct, each in a fiber of its own. A node whose schema
 * has a message annotation (which may replace what is under it) is formatted whole.
 */
const firstIssue = (
  issue: ParseResult.ParseIssue,
  path: ReadonlyArray<PropertyKey>
): ParseResult.ArrayFormatterIssue | undefined => {
  switch (issue._tag) {
    case "Pointer":
      return firstIssue(issue.issue, path.concat(issue.path))
    case "Composite":
    case "Refinement":
    case "Transformation":
      if (Option.isNone(AST.getMessageAnnotation(issue.ast))) {
        if (issue._tag !== "Composite") return firstIssue(issue.issue, path)
        const issues = issue.issues
        return firstIssue(
          Array.isArray(issues) ? issues[0]! : (issues as ParseResult.ParseIssue),
          path
        )
      }
  }
  const [first, ...rest] = path
  const at =
    first === undefined ? issue : new ParseResult.Pointer([first, ...rest], undefined, issue)
  return ParseResult.ArrayFormatter.formatIssueSync(at)[0]
}

/** Turns a decode issue into a message naming the field, without echoing a secret's value. */
export const describeIssue = (parseIssue: ParseResult.ParseIssue): string => {
  const issue = firstIssue(parseIssue, [])
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
