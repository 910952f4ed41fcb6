/**
 * The violations of the `success-shape` check: the records whose rule `ContractRules` gives to that
 * check, and the helpers only they use.
 *
 * @internal
 */
import { withOutput } from "./hooks.js"
import { violation } from "./record.js"

export const successContentType = violation({
  name: "success-content-type",
  rule: "wire.success",
  description: "Successful responses say `Content-Type: text/plain`.",
  hooks: {
    writeSuccess: (next) => (headers, body) =>
      withOutput(next(headers, body), (out) => ({
        ...out,
        headers: { ...out.headers, "content-type": "text/plain" }
      }))
  }
})
