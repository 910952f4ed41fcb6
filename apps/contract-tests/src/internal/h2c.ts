/**
 * An undici dispatcher that speaks HTTP/2 without TLS from the first byte (h2c, "prior
 * knowledge"), over Node's own `http2` client: the protocol of a server that serves HTTP/2 only
 * on http://, as connect-node's documentation serves its routes
 * (`http2.createServer(connectNodeAdapter({ routes }))`). One session per origin, opened on the
 * first request and again after the server ends it; many streams on it at once; the sessions end
 * with `close` or `destroy`. It calls a handler as undici's own clients do (either handler style),
 * so the runner's send path, undici's `request` and the proxy's relay are the same as over
 * HTTP/1.1.
 */
import * as Undici from "@effect/platform-node/Undici"
import * as Http2 from "node:http2"
import { HOP_BY_HOP } from "./hopByHop.js"

/** A request's headers as undici takes them (an object, or name and value in turn) as HTTP/2 headers. */
const requestHeaders = (headers: Undici.Dispatcher.DispatchOptions["headers"]) => {
  const out: Record<string, string | Array<string>> = {}
  const add = (name: string, value: unknown) => {
    const key = name.toLowerCase()
    // The connection's own headers, and `host`, which HTTP/2 carries as `:authority`.
    if (HOP_BY_HOP.has(key) || key === "host" || value === undefined || value === null) return
    const values = Array.isArray(value) ? value.map(String) : [String(value)]
    const had = out[key]
    out[key] =
      had === undefined ? (values.length === 1 ? values[0]! : values) : [had, values].flat()
  }
  if (headers === undefined || headers === null) return out
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) add(String(headers[i]), headers[i + 1])
  } else if (typeof (headers as Iterable<unknown>)[Symbol.iterator] === "function") {
    for (const [name, value] of headers as Iterable<[string, unknown]>) add(name, value)
  } else {
    for (const [name, value] of Object.entries(headers)) add(name, value)
  }
  return out
}

/** An answer's headers as undici's handlers take them: name and value in turn, as bytes. */
const rawHeaders = (headers: Http2.IncomingHttpHeaders): Array<Buffer> => {
  const out: Array<Buffer> = []
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith(":") || value === undefined) continue
    for (const v of Array.isArray(value) ? value : [value])
      out.push(Buffer.from(name), Buffer.from(String(v)))
  }
  return out
}

/** A request body as undici takes it: bytes or text sent at once, or a stream piped. */
type Body = Uint8Array | NodeJS.ReadableStream | undefined

const bodyOf = (body: Undici.Dispatcher.DispatchOptions["body"]): Body | "unsupported" =>
  body === undefined || body === null
    ? undefined
    : typeof body === "string"
      ? Buffer.from(body)
      : body instanceof Uint8Array
        ? body
        : typeof (body as NodeJS.ReadableStream).pipe === "function"
          ? (body as NodeJS.ReadableStream)
          : "unsupported"

/**
 * A handler's side of one exchange, whichever of undici's two handler styles it is written in:
 * the calls of `onConnect`/`onHeaders`/`onData`/`onComplete`/`onError` (undici's `request`, the
 * runner's send path) or of `onRequestStart`/`onResponseStart`/`onResponseData`/`onResponseEnd`/
 * `onResponseError` with a controller (the proxy's relay). Each data call says whether to go on.
 */
interface Sink {
  readonly start: (abort: (reason?: Error) => void, pause: () => void, resume: () => void) => void
  readonly headers: (status: number, headers: Http2.IncomingHttpHeaders) => boolean
  readonly data: (chunk: Buffer) => boolean
  readonly end: () => void
  readonly error: (error: Error) => void
}

const sinkOf = (handler: Undici.Dispatcher.DispatchHandler): Sink => {
  if (handler.onRequestStart === undefined && handler.onResponseStart === undefined) {
    let resume = () => {}
    return {
      start: (abort, _pause, go) => {
        resume = go
        handler.onConnect?.(abort)
      },
      headers: (status, headers) =>
        handler.onHeaders?.(status, rawHeaders(headers), resume, "") !== false,
      data: (chunk) => handler.onData?.(chunk) !== false,
      end: () => handler.onComplete?.([]),
      error: (error) => handler.onError?.(error)
    }
  }
  let paused = false
  let reason: Error | null = null
  let controller: Undici.Dispatcher.DispatchController | undefined
  return {
    start: (abort, pause, resume) => {
      controller = {
        abort: (why: Error) => {
          reason = why
          abort(why)
        },
        pause: () => {
          paused = true
          pause()
        },
        resume: () => {
          paused = false
          resume()
        },
        get aborted() {
          return reason !== null
        },
        get paused() {
          return paused
        },
        get reason() {
          return reason
        }
      }
      handler.onRequestStart?.(controller, {})
    },
    headers: (status, headers) => {
      const named: Record<string, string | Array<string>> = {}
      for (const [k, v] of Object.entries(headers))
        if (!k.startsWith(":") && v !== undefined) named[k] = v
      handler.onResponseStart?.(controller!, status, named, "")
      return !paused
    },
    data: (chunk) => {
      handler.onResponseData?.(controller!, chunk)
      return !paused
    },
    end: () => handler.onResponseEnd?.(controller!, {}),
    error: (error) => handler.onResponseError?.(controller!, error)
  }
}

/** HTTP/2 without TLS with prior knowledge, one session per origin. */
export class H2cDispatcher extends Undici.Dispatcher {
  private readonly sessions = new Map<string, Http2.ClientHttp2Session>()
  private closed = false

  private sessionOf(origin: string): Http2.ClientHttp2Session {
    const open = this.sessions.get(origin)
    if (open !== undefined && !open.closed && !open.destroyed) return open
    const session = Http2.connect(origin)
    const forget = () => {
      if (this.sessions.get(origin) === session) this.sessions.delete(origin)
    }
    // A session's own error reaches each of its streams; here it only ends the session's use.
    session.on("error", forget)
    session.on("goaway", forget)
    session.on("close", forget)
    this.sessions.set(origin, session)
    return session
  }

  override dispatch(
    options: Undici.Dispatcher.DispatchOptions,
    handler: Undici.Dispatcher.DispatchHandler
  ): boolean {
    const sink = sinkOf(handler)
    let done = false
    const fail = (error: Error) => {
      if (done) return
      done = true
      sink.error(error)
    }
    if (this.closed) {
      fail(new Undici.errors.ClientClosedError())
      return false
    }
    const body = bodyOf(options.body)
    if (body === "unsupported") {
      fail(new Undici.errors.InvalidArgumentError("h2c: the body must be bytes, text or a stream"))
      return false
    }
    let stream: Http2.ClientHttp2Stream
    try {
      stream = this.sessionOf(String(options.origin)).request(
        {
          ...requestHeaders(options.headers),
          ":method": options.method,
          ":path": options.path
        },
        { endStream: body === undefined }
      )
    } catch (error) {
      fail(error instanceof Error ? error : new Error(String(error)))
      return false
    }
    sink.start(
      (reason?: Error) => {
        fail(reason ?? new Undici.errors.RequestAbortedError())
        stream.close(Http2.constants.NGHTTP2_CANCEL)
      },
      () => stream.pause(),
      () => stream.resume()
    )
    if (done) return true
    stream.on("response", (headers) => {
      if (done) return
      if (!sink.headers(Number(headers[":status"]), headers)) stream.pause()
    })
    stream.on("data", (chunk: Buffer) => {
      if (done) return
      if (!sink.data(chunk)) stream.pause()
    })
    stream.on("end", () => {
      if (done) return
      done = true
      sink.end()
    })
    stream.on("error", fail)
    stream.on("close", () =>
      fail(new Undici.errors.SocketError("h2c: the stream closed before its answer ended"))
    )
    if (body instanceof Uint8Array) stream.end(body)
    else if (body !== undefined) {
      body.on("error", (error: Error) => {
        fail(error)
        stream.close(Http2.constants.NGHTTP2_CANCEL)
      })
      body.pipe(stream)
    }
    return true
  }

  override close(): Promise<void>
  override close(callback: () => void): void
  override close(callback?: () => void): Promise<void> | void {
    this.closed = true
    const all = [...this.sessions.values()]
    this.sessions.clear()
    const closing = Promise.all(
      all.map((s) => new Promise<void>((resolve) => (s.closed ? resolve() : s.close(resolve))))
    ).then(() => undefined)
    if (callback === undefined) return closing
    void closing.then(callback)
  }

  override destroy(): Promise<void>
  override destroy(err: Error | null): Promise<void>
  override destroy(callback: () => void): void
  override destroy(err: Error | null, callback: () => void): void
  override destroy(
    errOrCallback?: Error | null | (() => void),
    callback?: () => void
  ): Promise<void> | void {
    this.closed = true
    const done = typeof errOrCallback === "function" ? errOrCallback : callback
    for (const session of this.sessions.values()) session.destroy()
    this.sessions.clear()
    if (done === undefined) return Promise.resolve()
    queueMicrotask(done)
  }
}
