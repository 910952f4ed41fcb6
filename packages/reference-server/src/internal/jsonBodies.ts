/**
 * JSON bodies as the violations read them: objects, the stand-in for a body that is not one, and
 * lenient text.
 *
 * @internal
 */
import type { Body } from "./pipeline-types.js"

/** A JSON object (not `null`, not an array). */
export const isObject = (u: unknown): u is Body =>
  u !== null && typeof u === "object" && !Array.isArray(u)

/** Reads bytes as UTF-8, malformed sequences replaced rather than refused. */
export const lenientText = new TextDecoder("utf-8")

/** A body that is not a JSON object, standing for `{}` (empty-body-accepted, non-object-body-accepted). */
export const STAND_IN: Body = Object.freeze({}) as Body
