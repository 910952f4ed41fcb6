// StrykerJS ignorers for the reference server's source (named in stryker.config.mjs `ignorers`):
// what no contract-test run can tell apart, found by its place in the code rather than marked line
// by line.
//
// `marked`: the places marks.mjs names, each with its reason.
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

import { marks } from "./marks.mjs"

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

/** The name a declaration gives its node: a function, a constant, a property or a method. */
const declared = (node) => {
  switch (node.type) {
    case "FunctionDeclaration":
    case "VariableDeclarator":
      return node.id?.type === "Identifier" ? node.id.name : undefined
    case "ObjectProperty":
    case "ObjectMethod":
    case "ClassMethod":
    case "ClassProperty":
      return keyName(node)
    default:
      return undefined
  }
}

/** The names of the declarations around `path`, outermost first, its own last. */
const scopeOf = (path) => {
  const names = []
  for (let p = path; p !== null; p = p.parentPath) {
    const name = declared(p.node)
    if (name !== undefined) names.unshift(name)
  }
  return names
}

/** Whether `scope` holds `names` as a run of names ending at `end` or anywhere (`end` false). */
const holds = (scope, names, end) => {
  for (let i = scope.length - names.length; i >= 0; i--) {
    if (names.every((n, j) => scope[i + j] === n)) return true
    if (end) return false
  }
  return false
}

/** A line of code without its spaces: what a place's line is compared by. */
const squash = (code) => code.replace(/\s+/g, "")

/** The places of marks.mjs, parsed once: mutators, file, scope's names, line and reason. */
export const places = marks.flatMap(({ reason, places }) =>
  places.map((text) => {
    const [, mutators, file, scope, line] =
      /^(?:([A-Za-z,]+) )?(\S+?\.ts)(?: ([\w.$-]+))?(?:: (.+))?$/.exec(text) ?? []
    if (
      file === undefined ||
      (mutators === undefined) !== (line === undefined) ||
      (scope ?? line) === undefined
    )
      throw new Error(
        `marks.mjs: a place is "<file> <scope>" or "<mutators> <file>[ <scope>]: <line>": ${text}`
      )
    const names = scope === undefined ? [] : scope.split(".")
    return { text, mutators, file, names, line: line && squash(line), reason, used: 0 }
  })
)

const fileOf = (path) => (path.hub?.file?.opts?.filename ?? "").split("\\").join("/")

/**
 * Marks the lines of the line places in `program`: the first node of each line leads with the
 * directive `Stryker disable next-line <mutators>: <reason>`, which StrykerJS reads as it reaches
 * that node (it reads a node's directives before it asks the ignorers, and the program comes first).
 */
const markLines = (program, here) => {
  const lines = program.hub.file.code.split("\n")
  const first = new Map()
  const scopes = []
  program.traverse({
    enter(p) {
      const loc = p.node.loc
      if (loc == null) return
      if (!first.has(loc.start.line)) first.set(loc.start.line, p.node)
      if (declared(p.node) !== undefined)
        scopes.push({ names: scopeOf(p), from: loc.start.line, to: loc.end.line })
    }
  })
  for (const place of here) {
    const ranges =
      place.names.length === 0
        ? [{ from: 1, to: lines.length }]
        : scopes.filter((s) => holds(s.names, place.names, true))
    for (const { from, to } of ranges)
      for (let n = from; n <= to; n++) {
        const node = first.get(n)
        if (node === undefined || squash(lines[n - 1]) !== place.line) continue
        const value = ` Stryker disable next-line ${place.mutators}: ${place.reason}`
        node.leadingComments = [
          ...(node.leadingComments ?? []),
          { type: "CommentLine", value, loc: node.loc }
        ]
        place.used++
      }
  }
}

const marked = {
  shouldIgnore: (path) => {
    const file = fileOf(path)
    const here = places.filter((p) => file.endsWith(`/src/${p.file}`))
    if (here.length === 0) return undefined
    if (path.isProgram()) {
      markLines(
        path,
        here.filter((p) => p.line !== undefined)
      )
      return undefined
    }
    const own = declared(path.node)
    if (own === undefined) return undefined
    for (const place of here) {
      if (place.line !== undefined || own !== place.names.at(-1)) continue
      if (!holds(scopeOf(path), place.names, true)) continue
      place.used++
      return place.reason
    }
    return undefined
  }
}

export const strykerPlugins = [
  { kind: "Ignore", name: "message-text", value: messageText },
  { kind: "Ignore", name: "marked", value: marked }
]
