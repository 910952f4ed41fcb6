/**
 * The secrets of the interface (decisions.md section 8) and how to keep them out of text: the
 * secret fields (every `Redacted` field of the model and request schemas), the headers that carry
 * credentials, the secret values a JSON body holds, and a scrubber that replaces them in any text.
 * The server, the contract runner's reports and the conformance proxy all use these.
 *
 * @since 0.3.0
 */
import * as internal from "./internal/secrets.js"

/**
 * What a secret is replaced with.
 *
 * @since 0.3.0
 * @category constants
 */
export const REDACTED: "[redacted]" = internal.REDACTED

/**
 * The shortest value treated as a secret when collecting or scrubbing values: 4 characters.
 *
 * Below it, replacing a value in free text would shred the text (every `a` of a report for a
 * one-letter value) and finding it in an answer would prove nothing. From 4 characters on, a
 * coincidental match costs one `[redacted]` too many in a report, whereas a higher floor would print
 * a short real password or key, which decisions.md section 8 forbids. The contract runner's own
 * secrets are long and distinctive (`ctsecret...`), so its leak check is not made noisier by it.
 *
 * @since 0.3.0
 * @category constants
 */
export const MIN_LENGTH: 4 = internal.MIN_LENGTH

/**
 * Request headers that carry credentials: never logged, recorded or shown.
 *
 * @since 0.3.0
 * @category headers
 */
export const headerNames: ReadonlySet<string> = internal.headerNames

/**
 * The names of the secret fields: every property whose schema is `Redacted`, at any depth, in the
 * model and request schemas (`apiKey`, `apiSecret`, `password`, `secret`, `webhookSecret`,
 * `certificate`, `privateKey`). Names are lowerCamelCase, as the schemas spell them.
 *
 * @since 0.3.0
 * @category fields
 */
export const fieldNames: ReadonlySet<string> = internal.fieldNames

/**
 * Whether a JSON key names a secret field, in lowerCamelCase or in its proto snake_case form
 * (`api_key`).
 *
 * @since 0.3.0
 * @category fields
 */
export const isFieldName: (key: string) => boolean = internal.isFieldName

/**
 * The values of the secret fields of a JSON value, at any depth: strings of at least `MIN_LENGTH`
 * characters, in the order met.
 *
 * @since 0.3.0
 * @category values
 */
export const values: (json: unknown) => ReadonlyArray<string> = internal.values

/**
 * A copy of a JSON value with the value of every secret field (a non-empty string), at any depth,
 * replaced with `[redacted]`.
 *
 * @since 0.3.0
 * @category values
 */
export const redact: (json: unknown) => unknown = internal.redact

/**
 * A function that replaces every occurrence of the given secret values in a text with
 * `[redacted]`. Values shorter than `MIN_LENGTH` are left alone; longer values are replaced
 * first, so a secret that contains another is hidden whole.
 *
 * @example
 * ```ts
 * import { Secrets } from "@data-access/schema"
 *
 * const scrub = Secrets.scrubber(Secrets.values({ basic: { password: "hunter22" } }))
 * scrub("login failed for password hunter22") // "login failed for password [redacted]"
 * ```
 *
 * @since 0.3.0
 * @category scrubbing
 */
export const scrubber: (secrets: Iterable<string>) => (text: string) => string = internal.scrubber
