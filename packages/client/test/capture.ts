/**
 * A tracer that records every span (name, attributes, events, exit) and a logger that records
 * every line at the most verbose level, to check that no secret reaches them.
 */
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as Tracer from "effect/Tracer"
import { inspect } from "node:util"

export interface CapturedSpan {
  readonly name: string
  readonly attributes: Map<string, unknown>
  readonly events: Array<{ readonly name: string; readonly attributes: Record<string, unknown> | undefined }>
  exit?: Exit.Exit<unknown, unknown>
}

let ids = 0

export const makeCapture = () => {
  const spans: Array<CapturedSpan> = []
  const lines: Array<string> = []
  const tracer = Tracer.make({
    span(name, parent, context, links, startTime, kind) {
      const captured: CapturedSpan = { name, attributes: new Map(), events: [] }
      spans.push(captured)
      const id = String(++ids)
      const span: Tracer.Span = {
        _tag: "Span",
        name,
        spanId: id,
        traceId: "trace",
        parent,
        context,
        status: { _tag: "Started", startTime },
        attributes: captured.attributes,
        links,
        sampled: true,
        kind,
        end(_endTime, exit) {
          captured.exit = exit
        },
        attribute(key, value) {
          captured.attributes.set(key, value)
        },
        event(eventName, _time, attributes) {
          captured.events.push({ name: eventName, attributes })
        },
        addLinks() {}
      }
      return span
    },
    context: (f) => f()
  })
  const logger = Logger.make(({ annotations, cause, logLevel, message, spans: logSpans }) => {
    lines.push(
      [
        logLevel.label,
        inspect(message, { depth: 10 }),
        inspect(annotations, { depth: 10 }),
        inspect(logSpans, { depth: 10 }),
        Cause.isEmpty(cause) ? "" : Cause.pretty(cause, { renderErrorCause: true })
      ].join(" ")
    )
  })
  const layer = Layer.mergeAll(
    Layer.setTracer(tracer),
    Logger.replace(Logger.defaultLogger, logger),
    Logger.minimumLogLevel(LogLevel.All)
  )
  /** Everything captured, as text: span names, attributes, events, exits; log lines. */
  const dump = (): string =>
    [
      ...spans.map((s) =>
        [
          s.name,
          inspect([...s.attributes], { depth: 10 }),
          JSON.stringify([...s.attributes].map(([k, v]) => [k, String(v)])),
          inspect(s.events, { depth: 10 }),
          s.exit && Exit.isFailure(s.exit) ? Cause.pretty(s.exit.cause, { renderErrorCause: true }) : ""
        ].join(" ")
      ),
      ...lines
    ].join("\n")
  return { spans, lines, layer, dump }
}

/** Every way a user may print a value. */
export const printed = (x: unknown): string =>
  [String(x), JSON.stringify(x, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v)), inspect(x, { depth: 20, showHidden: false })].join("\n")

export const unused = { Context, Option }
