/**
 * The HAR 1.2 model the runner and the proxy write and `contract-tests judge` reads, in a module of
 * its own so that the HAR reader and writer, the proxy and the runner's options import it without
 * importing `Har` (which imports them).
 */
import * as Schema from "effect/Schema"

const NameValue = Schema.Struct({ name: Schema.String, value: Schema.String })

/**
 * A HAR 1.2 entry, as far as judging needs it (other fields are kept by writers and ignored here).
 *
 * @since 0.5.0
 * @category models
 */
export const Entry = Schema.Struct({
  startedDateTime: Schema.String,
  time: Schema.Number,
  request: Schema.Struct({
    method: Schema.String,
    url: Schema.String,
    httpVersion: Schema.String,
    headers: Schema.Array(NameValue),
    queryString: Schema.optional(Schema.Array(NameValue)),
    cookies: Schema.optional(Schema.Array(Schema.Unknown)),
    headersSize: Schema.optional(Schema.Number),
    bodySize: Schema.Number,
    postData: Schema.optional(
      Schema.Struct({
        mimeType: Schema.String,
        text: Schema.optional(Schema.String),
        /** Not in HAR 1.2; some writers (and this one) mark a binary body `base64`. */
        encoding: Schema.optional(Schema.String),
        params: Schema.optional(Schema.Array(Schema.Unknown)),
        comment: Schema.optional(Schema.String)
      })
    )
  }),
  response: Schema.Struct({
    status: Schema.Number,
    statusText: Schema.String,
    httpVersion: Schema.String,
    headers: Schema.Array(NameValue),
    cookies: Schema.optional(Schema.Array(Schema.Unknown)),
    content: Schema.Struct({
      size: Schema.Number,
      mimeType: Schema.optional(Schema.String),
      text: Schema.optional(Schema.String),
      encoding: Schema.optional(Schema.String),
      compression: Schema.optional(Schema.Number),
      comment: Schema.optional(Schema.String)
    }),
    redirectURL: Schema.optional(Schema.String),
    headersSize: Schema.optional(Schema.Number),
    bodySize: Schema.Number,
    /** Chromium's devtools and Playwright: why a request got no answer. */
    _error: Schema.optional(Schema.NullOr(Schema.String)),
    _failureText: Schema.optional(Schema.String)
  }),
  cache: Schema.optional(Schema.Unknown),
  timings: Schema.optional(Schema.Unknown),
  comment: Schema.optional(Schema.String)
})

/**
 * A HAR 1.2 entry.
 *
 * @since 0.5.0
 * @category models
 */
export type Entry = typeof Entry.Type

/**
 * A HAR 1.2 document.
 *
 * @since 0.5.0
 * @category models
 */
export const Har = Schema.Struct({
  log: Schema.Struct({
    version: Schema.String,
    creator: Schema.Struct({ name: Schema.String, version: Schema.String }),
    pages: Schema.optional(Schema.Array(Schema.Unknown)),
    entries: Schema.Array(Entry),
    comment: Schema.optional(Schema.String)
  })
})

/**
 * A HAR 1.2 document.
 *
 * @since 0.5.0
 * @category models
 */
export type Har = typeof Har.Type
