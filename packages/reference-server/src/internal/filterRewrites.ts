/**
 * Filters rewritten as sent (nested groups included) or decoded, and the filter keys an operation
 * knows.
 *
 * @internal
 */
import { Filter, SchemaWalk } from "@data-access/schema"
import type { Body, Op } from "./pipeline-types.js"
import { isObject } from "./jsonBodies.js"

const filterKeysCache = new Map<Op, ReadonlySet<string>>()

/** The filter keys an operation knows: the literals of `filter.field.key` in its request schema. */
export const filterKeysOf = (op: Op): ReadonlySet<string> => {
  let keys = filterKeysCache.get(op)
  if (keys === undefined) {
    const found = new Set<string>()
    const visit = (shape: SchemaWalk.Shape, path: ReadonlyArray<string>): void => {
      if (shape._tag === "Union") shape.members.forEach((m) => visit(m, path))
      else if (shape._tag === "String" && path.join(".") === "filter.field.key")
        shape.literals?.forEach((l) => found.add(l))
      else if (shape._tag === "Object") {
        for (const [name, field] of shape.fields) {
          const next = [...path, name]
          if ("filter.field.key".startsWith(next.join("."))) visit(field.shape, next)
        }
      }
    }
    visit(SchemaWalk.requestShape(op), [])
    keys = found
    filterKeysCache.set(op, keys)
  }
  return keys
}

const operators: ReadonlySet<string> = new Set(Filter.Operator.literals)

/** A condition every item matches: every object has an id. */
const MATCH_ALL = { field: { key: "id", operator: "not_empty" } }

/** A condition no item matches: every object has an id. */
const MATCH_NONE = { field: { key: "id", operator: "empty" } }

/** Rewrites every part of a filter (as sent), nested groups included. */
const mapFilter = (filter: unknown, f: (part: Body) => unknown): unknown => {
  if (!isObject(filter)) return filter
  const out = f(filter)
  if (out !== filter || !isObject(filter.group)) return out
  const group = filter.group
  return Array.isArray(group.filters)
    ? { ...filter, group: { ...group, filters: group.filters.map((x) => mapFilter(x, f)) } }
    : filter
}

/** unknown-filter-key-accepted: a condition with an unknown key or operator matches every item. */
export const acceptUnknownKeys = (filter: unknown, keys: ReadonlySet<string>): unknown =>
  mapFilter(filter, (part) => {
    const field = part.field
    return isObject(field) &&
      (!keys.has(field.key as string) || !operators.has(field.operator as string))
      ? MATCH_ALL
      : part
  })

/** ignored-filter-one-of: a filter with both a condition and a group is read as its condition. */
export const conditionOverGroup = (filter: unknown): unknown =>
  mapFilter(filter, (part) => {
    if (!isObject(part.field) || !isObject(part.group)) return part
    const { group: _, ...condition } = part
    return condition
  })

/** empty-group-accepted: a group with no filters matches every item. */
export const acceptEmptyGroups = (filter: unknown): unknown =>
  mapFilter(filter, (part) =>
    isObject(part.group) && Array.isArray(part.group.filters) && part.group.filters.length === 0
      ? MATCH_ALL
      : part
  )

/** shared-filter-keys: a condition on a key of another list reads the key as `""` on every item (it matches all or none). */
export const foreignKeysAsEmpty = (filter: unknown, foreign: ReadonlySet<string>): unknown =>
  mapFilter(filter, (part) => {
    const field = part.field
    if (
      !isObject(field) ||
      !foreign.has(field.key as string) ||
      !operators.has(field.operator as string)
    )
      return part
    const value =
      isObject(field.value) && typeof field.value.value === "string" ? field.value.value : ""
    const condition = {
      field: {
        key: "k",
        operator: field.operator as Filter.Operator,
        value: { "@type": Filter.STRING_VALUE_TYPE, value }
      }
    } as Filter.Filter<string>
    return Filter.evaluate(condition, () => "") ? MATCH_ALL : MATCH_NONE
  })

/** filter-or-as-and: every `or` group of a decoded filter becomes `and`. */
export const orAsAnd = (filter: Filter.Filter<string>): Filter.Filter<string> =>
  "group" in filter && filter.group !== undefined
    ? {
        group: {
          operator: "and",
          filters: filter.group.filters.map(orAsAnd) as unknown as readonly [
            Filter.Filter<string>,
            ...Array<Filter.Filter<string>>
          ]
        }
      }
    : filter
