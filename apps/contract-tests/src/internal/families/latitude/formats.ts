/** The probes of formats a server may validate: each format field of a write outside its format. */
import { ContractRules } from "@data-access/schema"
import { type Body, type Context, isWrite, type Op, show, uniqueNames } from "../../context.js"
import { post } from "../../http.js"
import { asRecord } from "../../json.js"
import { referenceOf } from "../../pools.js"
import { sampleBodies } from "../shared/sampleBodies.js"
import { acceptedExactlyOrInvalid, decodesFor, type Probe, single } from "./probe.js"

/**
 * Values outside every format decisions.md section 7 shows, per kind of format field. A URL field
 * gets a URL of another scheme and a text no URL parser reads: a server that validates URLs sees
 * both branches of its check (the scheme, and the parse that fails).
 */
const unformatted = (field: string): ReadonlyArray<string> =>
  field === "email"
    ? ["ct-not-an-email"]
    : field === "apiUrl" || field === "decryptorUri"
      ? ["ct: not a url", "ct-not-a-url"]
      : ["ct: not a format"]

/** Where format fields stand in a body, at any depth (nested objects, arrays), with a string value. */
const formatPaths = (
  v: unknown,
  path: ReadonlyArray<string | number> = []
): ReadonlyArray<ReadonlyArray<string | number>> => {
  if (Array.isArray(v)) return v.flatMap((x, i) => formatPaths(x, [...path, i]))
  const r = asRecord(v)
  if (r === undefined) return []
  return Object.entries(r).flatMap(([k, x]) =>
    ContractRules.formatFields.has(k) && typeof x === "string"
      ? [[...path, k]]
      : formatPaths(x, [...path, k])
  )
}

/** A copy of a JSON value with `value` at `path`. */
const setAt = (v: unknown, path: ReadonlyArray<string | number>, value: unknown): unknown => {
  if (path.length === 0) return value
  const [head, ...rest] = path
  if (Array.isArray(v)) return v.map((x, i) => (i === head ? setAt(x, rest, value) : x))
  const r = asRecord(v) ?? {}
  return { ...r, [head!]: setAt(r[head!], rest, value) }
}

/** Bodies sampled to find every format field: a one-of variant holds some of them (an MDM vendor's `apiUrl`). */
const FORMAT_SAMPLES = 12

/**
 * The probes of formats a server may validate: each format field of a create or update, at any
 * depth, outside its format (in the first sampled body that holds it).
 */
export const formatProbes = (ctx: Context, op: Op, body: Body): ReadonlyArray<Probe> => {
  if (!isWrite(op)) return []
  const decodes = decodesFor(op)
  const seen = new Set<string>()
  return [body, ...sampleBodies(op, ctx, FORMAT_SAMPLES)].flatMap((b) =>
    formatPaths(b)
      .filter((path) => !(path.length === 1 && referenceOf(op, String(path[0])) !== undefined))
      .flatMap((path): ReadonlyArray<Probe> => {
        const at = path.filter((p) => typeof p === "string").join(".")
        if (seen.has(at)) return []
        seen.add(at)
        const field = String(path[path.length - 1])
        return unformatted(field).flatMap((value): ReadonlyArray<Probe> => {
          const sent = setAt(uniqueNames(op, b), path, value) as Body
          return decodes(sent)
            ? [
                single(
                  ctx,
                  `${at} outside its format (${show(value)})`,
                  "strict-formats",
                  post(op.path, sent),
                  acceptedExactlyOrInvalid(op, path, value, `a value outside the format of ${at}`)
                )
              ]
            : []
        })
      })
  )
}
