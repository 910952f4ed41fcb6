/** How a finding's operation is shown: its name, or what an exchange of no one operation is. */
import type { Finding } from "./model.js"

/**
 * The operation of a finding as the reports show it: `_` (a case of the whole API: an unknown
 * route, a body past the size limit) said in words, with the request it sent.
 *
 * @since 0.7.0
 * @category rendering
 */
export const operationLabel = (f: Pick<Finding, "operation" | "request">): string =>
  f.operation === "_"
    ? `(the API, no one operation: ${f.request.method} ${f.request.path})`
    : f.operation
