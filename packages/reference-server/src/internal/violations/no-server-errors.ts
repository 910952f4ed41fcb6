/**
 * The violations of the `no-server-errors` check: the records whose rule `ContractRules` gives to
 * that check, and the helpers only they use.
 *
 * @internal
 */
import * as ConnectError from "../connectError.js"
import { refusing } from "../violationHooks.js"
import { violation } from "../violationRecord.js"

export const serverErrorOnUnknownField = violation({
  name: "server-error-on-unknown-field",
  rule: "errors.no-internal-for-client-faults",
  description: "A request with a field the operation does not know gets 500 internal.",
  hooks: {
    relax: refusing((body, _, fields) =>
      Object.keys(body).some((k) => !fields.has(k))
        ? ConnectError.make("internal", "internal error")
        : undefined
    )
  }
})
