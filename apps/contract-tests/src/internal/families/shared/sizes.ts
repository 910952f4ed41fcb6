/** Large bodies: the read they are sent to, and a valid read padded to a size. */
import { Operations } from "@data-access/schema"
import type { Op } from "../../context.js"
import * as Gen from "../../generate.js"

/** The first List operation that needs nothing but `limit`: a read to send large bodies to. */
export const plainList = (Operations.all as ReadonlyArray<Op>).find(
  (o) => o.kind === "list" && Gen.isValid(o, { limit: 1 })
)!

export const MiB = 1024 * 1024

/** A valid read padded with an unknown field to `bytes` bytes. */
export const padded = (bytes: number): string => {
  const head = `{"limit":1,"ctPadding":"`
  return head + "a".repeat(Math.max(0, bytes - head.length - 2)) + `"}`
}
