/**
 * A tracer that records every span (name, attributes, events, exit) and a logger that records
 * every line at the most verbose level, to check that no secret reaches them.
 */
import * as Cause from "effect/Cause"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as References from "effect/References"
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
    span(options) {
      const captured: CapturedSpan = { name: options.name, attributes: new Map(), events: [] }
      spans.push(captured)
      const id = String(++ids)
      const span: Tracer.Span = {
        _tag: "Span",
        name: options.name,
        spanId: id,
        traceId: "trace",
        parent: options.parent,
        annotations: options.annotations,
        status: { _tag: "Started", startTime: options.startTime },
        attributes: captured.attributes,
        links: options.links,
        sampled: true,
        kind: options.kind,
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
    }
  })
  const logger = Logger.make(({ cause, logLevel, message }) => {
    lines.push([logLevel, inspect(message, { depth: 10 }), Cause.hasFails(cause) || Cause.hasDies(cause) ? Cause.pretty(cause) : ""].join(" "))
  })
  const layer = Layer.mergeAll(
    Layer.succeed(Tracer.Tracer, tracer),
    Logger.layer([logger]),
    Layer.succeed(References.MinimumLogLevel, "All")
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
          s.exit && Exit.isFailure(s.exit) ? Cause.pretty(s.exit.cause) : ""
        ].join(" ")
      ),
      ...lines
    ].join("\n")
  return { spans, lines, layer, dump }
}

/** Every way a user may print a value. */
export const printed = (x: unknown): string =>
  [String(x), JSON.stringify(x, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v)), inspect(x, { depth: 20, showHidden: false })].join("\n")
