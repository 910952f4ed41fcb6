// An HTTP front before a faithful server that changes only what a faithful server may choose or
// what is harmless on the wire: idle connections closed after `keepAliveMs`, rate-limit and request-id headers, cursors rewritten as long base64 of JSON (read back on
// the way in), pages shorter than `limit` while more items follow (`shortPages`), answers gzipped whenever the client offers gzip, 405/415 answers with empty bodies.
import { Buffer } from "node:buffer"
import { URL } from "node:url"
import process from "node:process"
import { setImmediate } from "node:timers"
import * as Http from "node:http"
import * as Http2 from "node:http2"
import { readFileSync } from "node:fs"
import * as Zlib from "node:zlib"
import { randomUUID } from "node:crypto"

const CURSOR_PAD = "x".repeat(300)

const wrapCursor = (cursor, skip) =>
  Buffer.from(
    JSON.stringify({
      v: 1,
      inner: cursor,
      ...(skip === undefined ? {} : { skip }),
      pad: CURSOR_PAD
    })
  ).toString("base64")

const unwrapCursor = (cursor) => {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64").toString("utf8"))
    return typeof parsed?.inner === "string" && wrapCursor(parsed.inner) === cursor
      ? parsed.inner
      : cursor
  } catch {
    return cursor
  }
}

/** Items of each List answer (interface.md, Endpoints). */
const ITEMS = [
  "satellites",
  "integrations",
  "nativeUsers",
  "monitors",
  "policyStageConfigurations",
  "savedQueries"
]

/** A page size of at most `limit` that depends only on the request: a server's own choice. */
const pageSize = (limit, inner, skip) => {
  let h = 2166136261
  for (const c of `${inner}|${skip}|${limit}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0
  return h % 3 === 0 ? limit : 1 + (h % limit)
}

/**
 * Short pages: a cursor of the front is `{inner, after, skip}` (the server's cursor, the last item
 * shown from it, and how many were shown from it); the server is asked from `inner` for `skip +
 * limit` items, of which the page shows a run of `pageSize` after `after`.
 */
const shortPageRequest = (body) => {
  const limit =
    typeof body.limit === "string" && /^\d+$/.test(body.limit) ? Number(body.limit) : body.limit
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) return undefined
  let inner = ""
  let after
  let skip = 0
  // A cursor of another JSON type goes to the server as it came (which refuses it).
  if (body.cursor !== undefined && body.cursor !== null && typeof body.cursor !== "string")
    return undefined
  if (typeof body.cursor === "string" && body.cursor !== "") {
    const parsed = readCursor(body.cursor)
    if (parsed === undefined) return undefined
    ;({ inner, after, skip } = parsed)
  }
  return { limit, inner, after, skip }
}

const readCursor = (cursor) => {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64").toString("utf8"))
    return typeof parsed?.inner === "string" &&
      typeof parsed.skip === "number" &&
      pageCursor(parsed.inner, parsed.after, parsed.skip) === cursor
      ? parsed
      : undefined
  } catch {
    return undefined
  }
}

const pageCursor = (inner, after, skip) =>
  Buffer.from(JSON.stringify({ v: 1, inner, after, skip, pad: CURSOR_PAD })).toString("base64")

const shortPageAnswer = (page, answer) => {
  const key = ITEMS.find((k) => k in answer)
  const items = key === undefined ? [] : answer[key]
  const meta = answer.listMetadata ?? {}
  const at = page.after === undefined ? -1 : items.findIndex((item) => item.id === page.after)
  const from = page.after === undefined ? 0 : at >= 0 ? at + 1 : page.skip
  const rest = items.slice(from)
  const size = Math.min(rest.length, pageSize(page.limit, page.inner, page.skip))
  const shown = rest.slice(0, size)
  let next
  if (from + size < items.length) next = pageCursor(page.inner, shown.at(-1).id, from + size)
  else if (typeof meta.nextCursor === "string" && meta.nextCursor !== "")
    next = pageCursor(meta.nextCursor, undefined, 0)
  const out = { ...answer, listMetadata: { count: shown.length } }
  if (key !== undefined) out[key] = shown
  if (shown.length > 0) {
    out.listMetadata.after = shown.at(-1).id
    out.listMetadata.before = shown[0].id
  }
  if (next !== undefined) out.listMetadata.nextCursor = next
  return out
}

const mapRequest = (options, bytes, headers, state, path) => {
  if (options.shortPages && path.includes("/List")) {
    if (
      !(headers["content-type"] ?? "").startsWith("application/json") ||
      headers["content-encoding"]
    )
      return bytes
    try {
      const body = JSON.parse(bytes.toString("utf8"))
      const page = body && typeof body === "object" ? shortPageRequest(body) : undefined
      if (page === undefined) {
        // Not a valid page request, or a cursor the front did not write: its inner cursor (or itself) goes on.
        const parsed = typeof body?.cursor === "string" ? readCursor(body.cursor) : undefined
        if (parsed !== undefined && parsed.inner !== "") body.cursor = parsed.inner
        else if (parsed !== undefined) delete body.cursor
        return parsed === undefined ? bytes : Buffer.from(JSON.stringify(body))
      }
      state.page = page
      const sent = { ...body, limit: Math.min(500, page.limit + page.skip) }
      if (page.inner === "") delete sent.cursor
      else sent.cursor = page.inner
      return Buffer.from(JSON.stringify(sent))
    } catch {
      return bytes
    }
  }
  if (!options.longCursors) return bytes
  if (
    !(headers["content-type"] ?? "").startsWith("application/json") ||
    headers["content-encoding"]
  )
    return bytes
  try {
    const body = JSON.parse(bytes.toString("utf8"))
    if (body && typeof body === "object" && typeof body.cursor === "string" && body.cursor !== "") {
      body.cursor = unwrapCursor(body.cursor)
      return Buffer.from(JSON.stringify(body))
    }
  } catch {
    // not JSON: forwarded as it came
  }
  return bytes
}

const mapAnswer = (options, bytes, headers, state) => {
  if (options.shortPages && state.page !== undefined) {
    try {
      return Buffer.from(
        JSON.stringify(shortPageAnswer(state.page, JSON.parse(bytes.toString("utf8"))))
      )
    } catch {
      return bytes
    }
  }
  if (!options.longCursors || headers["content-encoding"]) return bytes
  try {
    const body = JSON.parse(bytes.toString("utf8"))
    const meta = body?.listMetadata
    if (meta && typeof meta.nextCursor === "string" && meta.nextCursor !== "") {
      meta.nextCursor = wrapCursor(meta.nextCursor)
      return Buffer.from(JSON.stringify(body))
    }
  } catch {
    // not JSON
  }
  return bytes
}

/** Every object of a JSON value with an extra field, and the value itself with one: fields of a newer server. */
const withExtraFields = (value) => {
  if (Array.isArray(value)) return value.map(withExtraFields)
  if (value === null || typeof value !== "object") return value
  const out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withExtraFields(v)]))
  out.revision = "7"
  return out
}

/** An error body with a detail (google.rpc.ErrorInfo) and its debug form, as decisions.md section 2 allows. */
const withDetails = (bytes) => {
  try {
    const error = JSON.parse(bytes.toString("utf8"))
    if (typeof error?.code !== "string") return bytes
    const value = Buffer.from([0x0a, 0x04, 0x74, 0x65, 0x73, 0x74])
      .toString("base64")
      .replace(/=+$/, "")
    error.details = [{ type: "google.rpc.ErrorInfo", value, debug: { reason: "test" } }]
    return Buffer.from(JSON.stringify(error))
  } catch {
    return bytes
  }
}

/** An error body without its (optional) message. */
const withoutMessage = (bytes) => {
  try {
    const { message: _message, ...error } = JSON.parse(bytes.toString("utf8"))
    return typeof error.code === "string" ? Buffer.from(JSON.stringify(error)) : bytes
  } catch {
    return bytes
  }
}

/** Every object's keys in reverse order, pretty-printed: the same JSON value. */
const reversedKeys = (value) =>
  Array.isArray(value)
    ? value.map(reversedKeys)
    : value !== null && typeof value === "object"
      ? Object.fromEntries(
          Object.entries(value)
            .reverse()
            .map(([k, v]) => [k, reversedKeys(v)])
        )
      : value

const reshaped = (bytes) => {
  try {
    return Buffer.from(
      JSON.stringify(reversedKeys(JSON.parse(bytes.toString("utf8"))), null, 2) + "\n"
    )
  } catch {
    return bytes
  }
}

const gunzipped = (bytes, encoding) =>
  encoding === "gzip"
    ? Zlib.gunzipSync(bytes)
    : encoding === "br"
      ? Zlib.brotliDecompressSync(bytes)
      : encoding === "deflate"
        ? Zlib.inflateSync(bytes)
        : bytes

export const startFront = (target, options, port = 0) =>
  new Promise((resolve) => {
    const targetUrl = new URL(target)
    const agent = new Http.Agent({ keepAlive: true })
    let remaining = 1_000_000
    let tokens = options.rateLimit?.burst ?? 0
    let filled = Date.now()
    /** Whether a token bucket of `rateLimit` (per second, burst) lets a request through. */
    const admitted = () => {
      if (options.rateLimit === undefined) return true
      const now = Date.now()
      tokens = Math.min(
        options.rateLimit.burst,
        tokens + ((now - filled) / 1000) * options.rateLimit.perSecond
      )
      filled = now
      if (tokens < 1) return false
      tokens -= 1
      return true
    }
    const handler = (req, res) => {
      if (!admitted()) {
        // Rate limit reached: resource_exhausted with Retry-After (decisions.md section 2), the body unread.
        const body = JSON.stringify({ code: "resource_exhausted", message: "rate limit reached" })
        res.writeHead(429, {
          "content-type": "application/json",
          "retry-after": "1",
          "x-ratelimit-limit": String(options.rateLimit.perSecond),
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset": String(Math.ceil(Date.now() / 1000) + 1),
          "content-length": String(Buffer.byteLength(body))
        })
        res.end(body)
        req.resume()
        return
      }
      const chunks = []
      req.on("data", (c) => chunks.push(c))
      req.on("end", () => {
        const state = {}
        const sent = mapRequest(options, Buffer.concat(chunks), req.headers, state, req.url ?? "")
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(([k]) => !k.startsWith(":"))
        )
        Object.assign(headers, { host: targetUrl.host, "content-length": String(sent.length) })
        // The front reads the answer itself: the server's own compression is undone first.
        delete headers["accept-encoding"]
        const forward = Http.request(
          {
            host: targetUrl.hostname,
            port: targetUrl.port,
            method: req.method,
            path: req.url,
            headers,
            agent
          },
          (answer) => {
            const parts = []
            answer.on("data", (c) => parts.push(c))
            answer.on("end", () => {
              let out =
                answer.statusCode === 200
                  ? mapAnswer(
                      options,
                      gunzipped(Buffer.concat(parts), answer.headers["content-encoding"]),
                      {},
                      state
                    )
                  : gunzipped(Buffer.concat(parts), answer.headers["content-encoding"])
              const outHeaders = { ...answer.headers }
              delete outHeaders["content-encoding"]
              delete outHeaders["transfer-encoding"]
              delete outHeaders["connection"]
              delete outHeaders["keep-alive"]
              if (options.extraFields && answer.statusCode === 200) {
                try {
                  out = Buffer.from(
                    JSON.stringify(withExtraFields(JSON.parse(out.toString("utf8"))))
                  )
                } catch {
                  // not JSON
                }
              }
              if (options.errorDetails && answer.statusCode !== 200 && out.length > 0)
                out = withDetails(out)
              if (
                options.charset &&
                /^application\/json$/.test(String(outHeaders["content-type"] ?? ""))
              )
                outHeaders["content-type"] = "application/json; charset=utf-8"
              if (options.noErrorMessage && answer.statusCode !== 200 && out.length > 0)
                out = withoutMessage(out)
              if (options.reshape && answer.statusCode === 200) out = reshaped(out)
              if (
                options.emptyProtocolBodies &&
                (answer.statusCode === 405 || answer.statusCode === 415)
              ) {
                out = Buffer.alloc(0)
                delete outHeaders["content-type"]
              }
              if (options.rateLimitHeaders) {
                remaining = Math.max(0, remaining - 1)
                outHeaders["x-ratelimit-limit"] = "1000000"
                outHeaders["x-ratelimit-remaining"] = String(remaining)
                outHeaders["x-ratelimit-reset"] = String(Math.ceil(Date.now() / 1000) + 60)
                outHeaders["x-request-id"] = randomUUID()
              }
              const offered = String(req.headers["accept-encoding"] ?? "")
              if (options.gzip && out.length > 0 && /\bgzip\b/.test(offered)) {
                out = Zlib.gzipSync(out)
                outHeaders["content-encoding"] = "gzip"
                outHeaders["vary"] = "Accept-Encoding"
              }
              if (options.chunked) {
                // No Content-Length: the answer in two chunks.
                delete outHeaders["content-length"]
                res.writeHead(answer.statusCode ?? 502, outHeaders)
                res.write(out.subarray(0, out.length >> 1))
                setImmediate(() => res.end(out.subarray(out.length >> 1)))
              } else {
                outHeaders["content-length"] = String(out.length)
                res.writeHead(answer.statusCode ?? 502, outHeaders)
                res.end(out)
              }
            })
          }
        )
        forward.on("error", () => {
          res.writeHead(502)
          res.end()
        })
        forward.end(sent)
      })
    }
    // TLS with HTTP/2 offered beside HTTP/1.1 (ALPN), the key and certificate from SWEEP_TLS_DIR.
    const server = options.tls
      ? Http2.createSecureServer(
          {
            allowHTTP1: true,
            key: readFileSync(`${process.env.SWEEP_TLS_DIR}/key.pem`),
            cert: readFileSync(`${process.env.SWEEP_TLS_DIR}/cert.pem`)
          },
          handler
        )
      : Http.createServer(handler)
    if (options.keepAliveMs !== undefined) server.keepAliveTimeout = options.keepAliveMs
    const scheme = options.tls ? "https" : "http"
    server.listen(port, "127.0.0.1", () =>
      resolve({ url: `${scheme}://127.0.0.1:${server.address().port}`, server })
    )
  })
