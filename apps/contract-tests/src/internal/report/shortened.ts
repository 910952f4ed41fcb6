/** A finding's bodies as every report and the terminal show them. */
import { shorten } from "../curl.js"
import type { Finding } from "./model.js"

/**
 * A finding as reports show it: its request's and answer's bodies shortened past
 * `Curl.BODY_LIMIT` bytes (with their size and digest).
 *
 * @since 0.7.0
 * @category rendering
 */
export const shortened = (f: Finding): Finding => ({
  ...f,
  request: {
    ...f.request,
    body: f.request.body === undefined ? undefined : shorten(f.request.body)
  },
  response:
    f.response?._tag === "Response" ? { ...f.response, body: shorten(f.response.body) } : f.response
})
