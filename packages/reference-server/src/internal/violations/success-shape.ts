/**
 * The violations of the `success-shape` check: the records whose rule `ContractRules` gives to that
 * check, and the helpers only they use.
 *
 * @internal
 */
import { LATIN1_JSON, withByteOrderMark, withContentType, withOutput } from "../violationHooks.js"
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

/** long-answers-cut: the size of the buffer a success body is written from. */
const ANSWER_BUFFER_BYTES = 64 * 1024

export const longAnswersCut = violation({
  name: "long-answers-cut",
  rule: "wire.success",
  description: `Successful responses longer than ${ANSWER_BUFFER_BYTES / 1024} KiB are cut at that size (a fixed write buffer): a List of many items at a high \`limit\` answers 200 with JSON that ends midway.`,
  hooks: {
    writeSuccess: (next) => (headers, body) =>
      withOutput(next(headers, body), (response) => {
        const bytes =
          typeof response.body === "string"
            ? new TextEncoder().encode(response.body)
            : response.body
        return bytes.length > ANSWER_BUFFER_BYTES
          ? { ...response, body: bytes.subarray(0, ANSWER_BUFFER_BYTES) }
          : response
      })
  }
})
