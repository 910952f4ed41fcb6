/**
 * The violations of the `success-shape` check: the records whose rule `ContractRules` gives to that
 * check, and the helpers only they use.
 *
 * @internal
 */
import { LATIN1_JSON, withByteOrderMark, withContentType } from "../violationHooks.js"
import { violation } from "../violationRecord.js"

export const successContentType = violation({
  name: "success-content-type",
  rule: "wire.success",
  description: "Successful responses say `Content-Type: text/plain`.",
  hooks: {
    writeSuccess: (next) => (headers, body) => withContentType(next(headers, body), "text/plain")
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

export const successCharsetLatin1 = violation({
  name: "success-charset-latin1",
  rule: "wire.success",
  description:
    "Successful responses say `Content-Type: application/json; charset=iso-8859-1` (the body still UTF-8): connect-es refuses a JSON answer with any parameter but `charset=utf-8`.",
  hooks: {
    writeSuccess: (next) => (headers, body) => withContentType(next(headers, body), LATIN1_JSON)
  }
})
