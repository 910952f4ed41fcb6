/**
 * An undici dispatcher that speaks HTTP/2 without TLS from the first byte (h2c, "prior
 * knowledge"), over Node's own `http2` client: the protocol of a server that serves HTTP/2 only
 * on http://, as connect-node's documentation serves its routes
 * (`http2.createServer(connectNodeAdapter({ routes }))`). One session per origin, opened on the
 * first request and again after the server ends it; many streams on it at once; the sessions end
 * with `close` or `destroy`. It answers
 * undici's handler calls (`onConnect`, `onHeaders`, `onData`, `onComplete`, `onError`), the ones
 * the runner's send path and undici's `request` make, so the rest of the client is the same as
 * over HTTP/1.1.
 */
import * as Undici from "@effect/platform-node/Undici"
import * as Http2 from "node:http2"

/** Headers that belong to an HTTP/1.1 connection and have no meaning (or are refused) on HTTP/2. */
const CONNECTION_HEADERS = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "host"
])

/** A request's headers as undici takes them (an object, or name and value in turn) as HTTP/2 headers. */
const requestHeaders = (headers: Undici.Dispatcher.DispatchOptions["headers"]) => {
  const out: Record<string, string | Array<string>> = {}
  const add = (name: string, value: unknown) => {
    const key = name.toLowerCase()
    if (CONNECTION_HEADERS.has(key) || value === undefined || value === null) return
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

/** The request's body as bytes (the runner and undici's `request` send bytes or text). */
const bodyBytes = (body: Undici.Dispatcher.DispatchOptions["body"]): Uint8Array | undefined =>
  body === undefined || body === null
    ? undefined
    : typeof body === "string"
      ? Buffer.from(body)
      : body instanceof Uint8Array
        ? body
        : undefined

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
    let done = false
    const fail = (error: Error) => {
      if (done) return
      done = true
      handler.onError?.(error)
    }
    if (this.closed) {
      fail(new Undici.errors.ClientClosedError())
      return false
    }
    const body = bodyBytes(options.body)
    if (options.body !== undefined && options.body !== null && body === undefined) {
      fail(new Undici.errors.InvalidArgumentError("h2c: the body must be bytes or text"))
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
    handler.onConnect?.((reason?: Error) => {
      fail(reason ?? new Undici.errors.RequestAbortedError())
      stream.close(Http2.constants.NGHTTP2_CANCEL)
    })
    if (done) return true
    stream.on("response", (headers) => {
      if (done) return
      const status = Number(headers[":status"])
      const go = handler.onHeaders?.(status, rawHeaders(headers), () => stream.resume(), "")
      if (go === false) stream.pause()
    })
    stream.on("data", (chunk: Buffer) => {
      if (done) return
      if (handler.onData?.(chunk) === false) stream.pause()
    })
    stream.on("end", () => {
      if (done) return
      done = true
      handler.onComplete?.([])
    })
    stream.on("error", fail)
    stream.on("close", () =>
      fail(new Undici.errors.SocketError("h2c: the stream closed before its answer ended"))
    )
    if (body !== undefined) stream.end(body)
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
