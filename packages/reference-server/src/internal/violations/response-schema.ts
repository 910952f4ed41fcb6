/**
 * The violations of the `response-schema` check: the records whose rule `ContractRules` gives to
 * that check, and the helpers only they use.
 *
 * @internal
 */
import type { Op } from "../pipeline-types.js"
import { isObject } from "../jsonBodies.js"
import { responding, onTarget } from "../violationHooks.js"
import { violation } from "../violationRecord.js"

/** The same instant (truncated), with 2 fractional digits. */
const twoDigits = (timestamp: string): string => {
  const millis = Date.parse(timestamp)
  if (Number.isNaN(millis)) return timestamp
  const iso = new Date(Math.floor(millis / 10) * 10).toISOString()
  return `${iso.slice(0, 22)}Z`
}

/** Renames every lowerCamelCase key of a JSON value to snake_case, in place. */
const snakeKeys = (value: unknown): void => {
  if (Array.isArray(value)) return value.forEach(snakeKeys)
  if (value === null || typeof value !== "object") return
  const o = value as Record<string, unknown>
  for (const key of Object.keys(o)) {
    snakeKeys(o[key])
    const snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
    if (snake !== key) {
      o[snake] = o[key]
      delete o[key]
    }
  }
}

/** The object a create or update answers with: HumanUserPassword's fields sit at the top level. */
const isTopLevel = (op: Op) => op.wrapperKey === undefined && op.itemField === undefined

export const missingRequiredField = violation({
  name: "missing-required-field",
  rule: "response.schema",
  description: "The returned object has no `id` (HumanUserPassword: no `password`).",
  hooks: {
    respond: onTarget((target, _, op) => delete target[isTopLevel(op) ? "password" : "id"])
  }
})

export const wrongFieldType = violation({
  name: "wrong-field-type",
  rule: "response.field-types",
  description: "The returned object's `id` (HumanUserPassword: `username`) is a JSON number.",
  hooks: {
    respond: onTarget((target, _, op) => (target[isTopLevel(op) ? "username" : "id"] = 12345))
  }
})

export const nonUtcTimestamp = violation({
  name: "non-utc-timestamp",
  rule: "timestamps.utc-z",
  description: "`createdAt` is written with a `+02:00` offset instead of `Z`.",
  hooks: {
    respond: onTarget((target) => {
      if (typeof target.createdAt !== "string") return
      // The same instant, written with a +02:00 offset.
      const shifted = new Date(Date.parse(target.createdAt) + 2 * 3_600_000).toISOString()
      target.createdAt = `${shifted.slice(0, -1)}+02:00`
    })
  }
})

export const timestampFractionDigits = violation({
  name: "timestamp-fraction-digits",
  rule: "timestamps.fraction-digits",
  description:
    "`createdAt` of the object a Get, create or update returns is written with 2 fractional digits (`...:00.12Z`).",
  hooks: {
    // Not in lists: a truncated createdAt could reorder a descending page.
    respond: onTarget(
      (target) => {
        if (typeof target.createdAt === "string") target.createdAt = twoDigits(target.createdAt)
      },
      (op) => op.kind !== "list"
    )
  }
})

export const int64AsNumber = violation({
  name: "int64-as-number",
  rule: "int64.as-string",
  description: "`relativeTime` of saved log queries is written as a JSON number.",
  hooks: {
    respond: responding(
      (body, _, op) => {
        const items = body[op.itemField!]
        if (!Array.isArray(items)) return
        // The one int64 of the interface: a saved log query's `query.relativeTime`.
        for (const item of items as Array<unknown>) {
          const query = isObject(item) ? item.query : undefined
          if (isObject(query) && typeof query.relativeTime === "string")
            query.relativeTime = Number(query.relativeTime)
        }
      },
      (op) => op.itemField !== undefined
    )
  }
})

export const snakeCaseOutput = violation({
  name: "snake-case-output",
  rule: "wire.output-camel-case",
  description:
    "Success bodies name their fields in snake_case (`created_at`, `list_metadata`) at every depth.",
  hooks: { respond: responding((body) => snakeKeys(body)) }
})
