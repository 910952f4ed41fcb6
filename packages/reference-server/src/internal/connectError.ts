/**
 * The schema package's `ConnectError` module, with `make` building the error without a stack
 * trace: the server makes one per refused request and sends only its code and message, and
 * capturing the stack (tens of frames of the Effect runtime) took most of the time of making it.
 *
 * @internal
 */
import { ConnectError as Errors } from "@data-access/schema"

export * from "@data-access/schema/ConnectError"

/** `ConnectError.make`, without capturing a stack trace. */
export const make: typeof Errors.make = (code, message, extra) => {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return Errors.make(code, message, extra)
  } finally {
    Error.stackTraceLimit = limit
  }
}
