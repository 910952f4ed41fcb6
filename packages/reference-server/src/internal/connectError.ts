/**
 * The schema package's `ConnectError` module, with `make` building the error without a stack
 * trace or a check of its fields: the server makes one per refused request and sends only its
 * code and message; capturing the stack (tens of frames of the Effect runtime) took most of the
 * time of making it, and the check most of the rest.
 *
 * @internal
 */
import { ConnectError as Errors } from "@data-access/schema"

export * from "@data-access/schema/ConnectError"

/**
 * `ConnectError.make`, without capturing a stack trace and without checking its fields against
 * the schema at run time: the server's code and messages are typed where they are written.
 */
export const make: typeof Errors.make = (code, message, extra) => {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return new Errors.ConnectError({ code, message, ...extra }, true)
  } finally {
    Error.stackTraceLimit = limit
  }
}
