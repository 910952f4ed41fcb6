/** What a walk that stopped on an error shows, the verdicts of the checks that read it. */
import * as Inspect from "../../inspect.js"
import { refusedPage } from "../../oracles/paging.js"
import type { Outcome } from "../../outcome.js"
import type { Walk } from "../../listWalk.js"

/**
 * What a walk that stopped on an error shows, whatever read it: nothing when the answer is one
 * that may answer any request first (a rate limit, an overload) or the target is only slow; a 5xx
 * or no answer at all breaks no-server-errors; a refused page after the first, paging's
 * `refusedPage`.
 */
export const walkFailure = (w: Walk): ReadonlyArray<Outcome> => {
  const e = w.error
  if (e === undefined || Inspect.answeredFirst(e) || Inspect.slowNotHung(e)) return []
  const server = Inspect.noServerErrors(e)
  if (!server.ok) return [server]
  const refused = refusedPage(w)
  return refused === undefined ? [] : [refused]
}
