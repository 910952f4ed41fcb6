/**
 * One response read and judged on its own, as the runner's families use it: the answer's helpers
 * and the judgement of each check that reads the answer alone (their oracles live in `oracles/`),
 * and `basic`, every such judgement of one exchange.
 */
import type { Operations } from "@data-access/schema"
import type { Exchange } from "./http.js"
import type { Outcome } from "./outcome.js"
import { errorShape, rateLimitHeaders } from "./oracles/error-shape.js"
import { noServerErrors } from "./oracles/no-server-errors.js"
import { deadlineElapsed } from "./oracles/protocol.js"
import { camelCaseOutput, responseSchema } from "./oracles/response-schema.js"
import { successShape } from "./oracles/success-shape.js"
import { timestamps } from "./oracles/timestamps.js"

export * from "./answerReading.js"
export { errorShape, rateLimitHeaders } from "./oracles/error-shape.js"
export { noServerErrors } from "./oracles/no-server-errors.js"
export { camelCaseOutput, responseSchema } from "./oracles/response-schema.js"
export { successShape } from "./oracles/success-shape.js"
export { timestamps } from "./oracles/timestamps.js"

/** The checks every response gets. */
export const basic = (
  op: Operations.Operation,
  e: Exchange,
  skewMillis: number
): ReadonlyArray<Outcome> =>
  [
    noServerErrors(e),
    deadlineElapsed(e),
    successShape(e),
    errorShape(e),
    rateLimitHeaders(e),
    responseSchema(op, e),
    camelCaseOutput(e),
    timestamps(e, skewMillis)
  ].filter((o): o is Outcome => o !== undefined)
