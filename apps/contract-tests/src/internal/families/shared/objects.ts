/** The object an answer holds. */
import type { Exchange } from "../../http.js"
import { fullObject, objectOf, type Op } from "../../context.js"
import * as Option from "effect/Option"

/** The object of a 200 answer, every default filled in. */
export const objectIn = (op: Op, e: Exchange): Record<string, unknown> | undefined =>
  Option.getOrUndefined(
    Option.flatMap(e.response, (r) =>
      r.status === 200
        ? Option.map(r.json, (j) => fullObject(op.object, objectOf(op, j)))
        : Option.none()
    )
  ) ?? undefined
