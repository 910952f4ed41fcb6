// StrykerJS ignorers for the reference server's source (named in stryker.config.mjs `ignorers`):
// what no contract-test run can tell apart, found by its place in the code rather than marked line
// by line.
//
// `message-text`: the text of an error's message, which the documents leave free (decisions.md
// section 2: message optional), the path an issue names in it, and the text of a start or
// transport error. Mutants inside a text written out (a string or a template literal) are ignored
// where it is:
// - the message argument of `ConnectError.make(code, message)` (never the code);
// - an argument of the server's message builders (`notFound`, `invalid`), which fix the code;
// - the value of a `message` property (an issue's, an error's), or of a `description` given to
//   `new` (a transport error's);
// - the value of a `message` constant.
// and the whole `path` beside a `message` (an issue's path only names the field in the text).

const MESSAGE_BUILDERS = new Set(["notFound", "invalid"])
const REASON = "equivalent: message text (ignorer message-text, tools/mutation/ignorers.mjs)"

const keyName = (property) =>
  property.key.type === "Identifier"
    ? property.key.name
    : property.key.type === "StringLiteral"
      ? property.key.value
      : undefined

/** Whether `path` is the message argument of `ConnectError.make` or an argument of a builder. */
const isMessageArgument = (path) => {
  if (path.listKey !== "arguments" || !path.parentPath.isCallExpression()) return false
  const callee = path.parentPath.node.callee
  if (callee.type === "Identifier") return MESSAGE_BUILDERS.has(callee.name)
  return (
    callee.type === "MemberExpression" &&
    callee.object.type === "Identifier" &&
    callee.object.name === "ConnectError" &&
    callee.property.type === "Identifier" &&
    callee.property.name === "make" &&
    path.key >= 1
  )
}

/** Whether `path` is the value of a `message` property, or of a `description` given to `new`. */
const isTextValue = (path) => {
  if (path.key !== "value" || !path.parentPath.isObjectProperty()) return false
  const name = keyName(path.parentPath.node)
  if (name === "message") return true
  return name === "description" && path.parentPath.parentPath.parentPath.isNewExpression()
}

/** Whether `path` is text written out: a string or a template literal. */
const isText = (path) => path.isStringLiteral() || path.isTemplateLiteral()

/** Whether `path` is the text a `message` constant is written as. */
const isMessageConstant = (path) =>
  path.key === "init" &&
  path.parentPath.isVariableDeclarator() &&
  path.parentPath.node.id.type === "Identifier" &&
  path.parentPath.node.id.name === "message"

/** Whether `path` is the `path` of an issue: the value of a `path` property beside a `message`. */
const isIssuePath = (path) =>
  path.key === "value" &&
  path.parentPath.isObjectProperty() &&
  keyName(path.parentPath.node) === "path" &&
  path.parentPath.parentPath.node.properties.some(
    (p) => p.type === "ObjectProperty" && keyName(p) === "message"
  )

const messageText = {
  shouldIgnore: (path) =>
    isIssuePath(path) ||
    (isText(path) && (isMessageArgument(path) || isTextValue(path) || isMessageConstant(path)))
      ? REASON
      : undefined
}

export const strykerPlugins = [{ kind: "Ignore", name: "message-text", value: messageText }]
