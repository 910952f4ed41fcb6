/**
 * A tracer that records every span and a logger that records every line at the most verbose
 * level, to check that no secret reaches them: Effect 4's `Tracer` and `Logger` over
 * `@data-access/client-behaviour`'s recorder.
 */
import * as Behaviour from "@data-access/client-behaviour"
import * as Cause from "effect/Cause"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as References from "effect/References"
import * as Tracer from "effect/Tracer"

export { printed } from "@data-access/client-behaviour"

export const makeCapture = () => {
  const recorder = Behaviour.makeRecorder()
  const tracer = Tracer.make({
    span: (options): Tracer.Span => {
      const { captured, ...record } = recorder.span(options.name)
      const ended = (_endTime: bigint, exit: Exit.Exit<unknown, unknown>) => {
        if (Exit.isFailure(exit)) captured.failure = Cause.pretty(exit.cause)
      }
      const status = { _tag: "Started" as const, startTime: options.startTime }
      return {
        ...options,
        ...record,
        _tag: "Span",
        traceId: "trace",
        status,
        attributes: captured.attributes,
        sampled: true,
        end: ended
      }
    }
  })
  const logger = Logger.make(({ cause, logLevel, message }) =>
    recorder.log(
      logLevel,
      message,
      Cause.hasFails(cause) || Cause.hasDies(cause) ? Cause.pretty(cause) : ""
    )
  )
  const layer = Layer.mergeAll(
    Layer.succeed(Tracer.Tracer, tracer),
    Logger.layer([logger]),
    Layer.succeed(References.MinimumLogLevel, "All")
  )
  return { spans: recorder.spans, lines: recorder.lines, dump: recorder.dump, layer }
}
