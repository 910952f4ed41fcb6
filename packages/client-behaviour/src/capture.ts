/**
 * What a test tracer and logger record, for both lines: every span (name, attributes, events,
 * how it ended) and every log line, and everything as one text to search for secrets. Each line's
 * `test/capture.ts` only builds its own `Tracer` and `Logger` over a recorder.
 */
import { inspect } from "node:util"

/** A span as the test tracer saw it. */
export interface CapturedSpan {
  readonly name: string
  readonly attributes: Map<string, unknown>
  readonly events: Array<{
    readonly name: string
    readonly attributes: Record<string, unknown> | undefined
  }>
  /** The printed cause when the span ended in a failure. */
  failure?: string
}

/** The methods of a recording span: what the tracer's `Span` forwards to its `CapturedSpan`. */
export interface SpanRecorder {
  readonly captured: CapturedSpan
  /** A span id, unique in the process. */
  readonly spanId: string
  readonly attribute: (key: string, value: unknown) => void
  readonly event: (name: string, time: bigint, attributes?: Record<string, unknown>) => void
  readonly addLinks: () => void
}

/** Spans and log lines recorded by a test tracer and logger. */
export interface Recorder {
  readonly spans: ReadonlyArray<CapturedSpan>
  readonly lines: ReadonlyArray<string>
  /** Records a new span. */
  readonly span: (name: string) => SpanRecorder
  /** Records a log line from its parts (each printed in full unless a string). */
  readonly log: (...parts: ReadonlyArray<unknown>) => void
  /** Everything recorded, as text: span names, attributes, events, failures; log lines. */
  readonly dump: () => string
}

let ids = 0

/** A new recorder. */
export const makeRecorder = (): Recorder => {
  const spans: Array<CapturedSpan> = []
  const lines: Array<string> = []
  const span = (name: string): SpanRecorder => {
    const captured: CapturedSpan = { name, attributes: new Map(), events: [] }
    spans.push(captured)
    return {
      captured,
      spanId: String(++ids),
      attribute: (key, value) => void captured.attributes.set(key, value),
      event: (eventName, _time, attributes) =>
        void captured.events.push({ name: eventName, attributes }),
      addLinks: () => {}
    }
  }
  const log = (...parts: ReadonlyArray<unknown>) =>
    void lines.push(
      parts
        .map((part) => (typeof part === "string" ? part : inspect(part, { depth: 10 })))
        .join(" ")
    )
  const dump = (): string =>
    [
      ...spans.map((s) =>
        [
          s.name,
          inspect([...s.attributes], { depth: 10 }),
          JSON.stringify([...s.attributes].map(([k, v]) => [k, String(v)])),
          inspect(s.events, { depth: 10 }),
          s.failure ?? ""
        ].join(" ")
      ),
      ...lines
    ].join("\n")
  return { spans, lines, span, log, dump }
}

/** Every way a user may print a value. */
export const printed = (x: unknown): string =>
  [
    String(x),
    JSON.stringify(x, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v)),
    inspect(x, { depth: 20, showHidden: false })
  ].join("\n")
