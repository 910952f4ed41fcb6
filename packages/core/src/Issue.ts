/**
 * Schema failures as a caller sees them: the JSON path of the first issue and a message that never
 * shows a value. Each Effect line formats its own parse issues into `{ path, message }` entries;
 * this module writes them the same way.
 *
 * @since 0.1.0
 */

/**
 * One issue as a formatter gives it: the path of keys and indices, and its message.
 *
 * @since 0.1.0
 * @category models
 */
export interface Entry {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

/**
 * A path as JSON path text: `$.resource.tags[0]`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const formatPath = (path: ReadonlyArray<PropertyKey>): string => {
  let out = "$"
  for (const segment of path) {
    out += typeof segment === "number" ? `[${segment}]` : `.${String(segment)}`
  }
  return out
}

/**
 * The first issue as a JSON path and a message without values: the `actual ...` / `got ...` part
 * of a schema message is cut, and a field named in `secretFields` gets a fixed message. The count
 * of further issues is added.
 *
 * @since 0.1.0
 * @category formatting
 */
export const describe = (
  issues: ReadonlyArray<Entry>,
  secretFields: ReadonlySet<string>
): { readonly path: string; readonly message: string } => {
  const first = issues[0]
  if (first === undefined) return { path: "$", message: "does not match the schema" }
  const path = formatPath(first.path)
  if (first.path.some((segment) => typeof segment === "string" && secretFields.has(segment))) {
    return { path, message: `${path}: invalid value for a secret field (value not shown)` }
  }
  const text = first.message.replace(/,?\s*(got|actual)\b[\s\S]*$/, "").trim()
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more issue(s))` : ""
  return { path, message: `${path}: ${text === "" ? "does not match the schema" : text}${more}` }
}
