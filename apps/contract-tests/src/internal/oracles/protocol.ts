/**
 * protocol: a body of at most 1 MiB is not refused for its size.
 */
import * as Option from "effect/Option"
import { JsonBody } from "@data-access/schema"
import { requestBytesOf } from "../http.js"
import { fail } from "../outcome.js"
import { codeOf, excerpt } from "./answer.js"
import { type ExchangeOracle, oracle } from "./oracle.js"

/** A body of at most 1 MiB is not refused for its size: resource_exhausted without `Retry-After` (a rate limit says when to retry). */
const bodyLimit = oracle({
  name: "body-limit",
  rules: ["protocol.body-limit"],
  judge: ({ exchange: e }) => {
    const r = Option.getOrUndefined(e.response)
    // A body not seen to its end is of unknown size.
    const bodyBytes = requestBytesOf(e)
    if (
      r === undefined ||
      bodyBytes > JsonBody.GUARANTEED_MAX_BYTES ||
      codeOf(e) !== "resource_exhausted" ||
      r.headers["retry-after"] !== undefined
    )
      return []
    return [
      fail(
        "protocol.body-limit",
        "refused for its size",
        `a ${bodyBytes}-byte body was refused with resource_exhausted and no Retry-After: a server serves bodies up to 1 MiB`,
        e,
        excerpt(r, 300)
      )
    ]
  }
})

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [bodyLimit]
