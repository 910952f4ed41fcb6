/**
 * The violations of the `success-shape` check: the records whose rule `ContractRules` gives to that
 * check, and the helpers only they use.
 *
 * @internal
 */
import { withByteOrderMark, withOutput } from "../violationHooks.js"
import { violation } from "../violationRecord.js"

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

export const successByteOrderMark = violation({
  name: "success-byte-order-mark",
  rule: "wire.success",
  description:
    "Successful responses begin with a UTF-8 byte order mark (EF BB BF), which RFC 8259 forbids in JSON text on the wire and a lenient decoder drops.",
  hooks: {
    writeSuccess: (next) => (headers, body) => withByteOrderMark(next(headers, body))
  }
})
