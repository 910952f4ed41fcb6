/**
 * A tracer that records every span and a logger that records every line at the most verbose
 * level, to check that no secret reaches them: Effect 3's `Tracer` and `Logger` over
 * `@data-access/client-behaviour`'s recorder.
 */
import * as Behaviour from "@data-access/client-behaviour"
import * as Cause from "effect/Cause"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Tracer from "effect/Tracer"

export { printed } from "@data-access/client-behaviour"

export const makeCapture = () => {
  const recorder = Behaviour.makeRecorder()
  const tracer = Tracer.make({
    span(name, parent, context, links, startTime, kind) {
      const { captured, ...record } = recorder.span(name)
      return {
        ...record,
        _tag: "Span",
        name,
        traceId: "trace",
        parent,
        context,
        status: { _tag: "Started", startTime },
        attributes: captured.attributes,
        links,
        sampled: true,
        kind,
        end(_endTime, exit) {
          if (Exit.isFailure(exit))
            captured.failure = Cause.pretty(exit.cause, { renderErrorCause: true })
        }
      }
    },
    context: (f) => f()
  })
  const logger = Logger.make(({ annotations, cause, logLevel, message, spans }) =>
    recorder.log(
      logLevel.label,
      message,
      annotations,
      spans,
      Cause.isEmpty(cause) ? "" : Cause.pretty(cause, { renderErrorCause: true })
    )
  )
  const layer = Layer.mergeAll(
    Layer.setTracer(tracer),
    Logger.replace(Logger.defaultLogger, logger),
    Logger.minimumLogLevel(LogLevel.All)
  )
  return { spans: recorder.spans, lines: recorder.lines, dump: recorder.dump, layer }
}
