/**
 * An answer's body bytes read as the strictest client reads them, for the runner, the proxy and the
 * HAR judge alike (the verdicts on what it finds are the success-shape and error-shape oracles').
 */
import * as Option from "effect/Option"

const lenientUtf8 = new TextDecoder()
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })

/**
 * Why an answer's bytes are not the UTF-8 JSON text RFC 8259 allows (section 8.1: UTF-8, no byte
 * order mark) though a lenient reader takes them as JSON, or `undefined` when they are: a strict
 * client (and the media type `application/json` itself) refuses what a lenient decoder smooths over.
 */
export const notJsonText = (bytes: Uint8Array, text: string): string | undefined => {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return "a byte order mark before the JSON text"
  // A lenient decoder writes U+FFFD for every byte that is not UTF-8: only then is it read strictly.
  if (text.includes("\uFFFD")) {
    try {
      strictUtf8.decode(bytes)
    } catch {
      return "bytes that are not UTF-8"
    }
  }
  return undefined
}

/**
 * An answer's body read as clients read it: its text (UTF-8, leniently), the JSON it parses to
 * (JSON.parse takes only the grammar of RFC 8259: no comments, trailing commas or NaN, nothing
 * but JSON whitespace around it), and why its bytes are not strict JSON text when it parsed.
 */
export const readBody = (
  bytes: Uint8Array
): {
  readonly text: string
  readonly json: Option.Option<unknown>
  readonly notJsonText: string | undefined
} => {
  const text = lenientUtf8.decode(bytes)
  const json =
    text.length === 0
      ? Option.none()
      : (Option.liftThrowable(JSON.parse)(text) as Option.Option<unknown>)
  return { text, json, notJsonText: Option.isSome(json) ? notJsonText(bytes, text) : undefined }
}
