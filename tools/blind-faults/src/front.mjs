// An HTTP front in front of a faithful server: it forwards every request and answer byte for byte,
// and lets a fault transform the request before it is forwarded and the answer before it returns.
import * as http from "node:http"
import { Buffer } from "node:buffer"
import { URL } from "node:url"
import * as Code from "@data-access/core/Code"

/** Headers that belong to one connection, not to the exchange, so the front never copies them. */
const hopByHop = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "host",
  "upgrade"
])

/**
 * An exchange's request: `method` (HTTP), `path`, `operation` (the method name of a
 * `/core.v1.<Service>/<Method>` path, else undefined), `headers` (lower-case names) and `body`
 * (a Buffer); `json` reads the body as JSON (undefined when it is not).
 */
const requestOf = (incoming, body) => {
  const path = incoming.url ?? "/"
  const route = /^\/core\.v1\.[A-Za-z]+Service\/([A-Za-z]+)$/.exec(path)
  const headers = {}
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (!hopByHop.has(name) && value !== undefined) headers[name] = value
  }
  return { method: incoming.method ?? "GET", path, operation: route?.[1], headers, body }
}

/** Reads a body as JSON, or undefined when it is no JSON text. */
export const readJson = (body) => {
  try {
    return JSON.parse(body.toString("utf8"))
  } catch {
    return undefined
  }
}

/** Writes a JSON value as a body. */
export const jsonBody = (value) => Buffer.from(JSON.stringify(value), "utf8")

/** A JSON answer, as a fault builds one. */
export const jsonAnswer = (status, value, headers = {}) => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body: jsonBody(value)
})

/** A Connect error answer with the status of its code (decisions.md section 2). */
export const connectError = (code, message) => jsonAnswer(Code.statusOf(code), { code, message })

const readAll = (stream) =>
  new Promise((resolve, reject) => {
    const chunks = []
    stream.on("data", (chunk) => chunks.push(chunk))
    stream.on("end", () => resolve(Buffer.concat(chunks)))
    stream.on("error", reject)
  })

/** Sends a request to the target and reads its whole answer: `{ status, headers, body }`. */
const forwardTo = (target, agent) => (request) =>
  new Promise((resolve, reject) => {
    const url = new URL(request.path, target)
    const outgoing = http.request(
      url,
      {
        method: request.method,
        agent,
        headers: {
          ...request.headers,
          host: url.host,
          "content-length": String(request.body.length)
        }
      },
      (answer) => {
        readAll(answer).then((body) => {
          const headers = {}
          for (const [name, value] of Object.entries(answer.headers)) {
            if (!hopByHop.has(name) && value !== undefined) headers[name] = value
          }
          resolve({ status: answer.statusCode ?? 502, headers, body })
        }, reject)
      }
    )
    outgoing.on("error", reject)
    outgoing.end(request.body)
  })

/**
 * Whether a request gets past what a server checks before its handlers run (a POST to a route,
 * with a known key, a JSON content type and the headers the operation requires): a fault that
 * lives in a handler (`inHandler`) sees only such requests.
 */
const passesGate = (request, apiKeys) =>
  request.method === "POST" &&
  request.operation !== undefined &&
  apiKeys.includes(request.headers["x-api-key"]) &&
  /^application\/json\b/i.test(String(request.headers["content-type"] ?? "")) &&
  (request.operation !== "CreatePermission" || request.headers["connect-protocol-version"] === "1")

const sameHeaders = (a, b) => JSON.stringify(a) === JSON.stringify(b)

const sameRequest = (a, b) =>
  a.method === b.method &&
  a.path === b.path &&
  sameHeaders(a.headers, b.headers) &&
  a.body.equals(b.body)

const sameAnswer = (a, b) =>
  a.status === b.status && sameHeaders(a.headers, b.headers) && a.body.equals(b.body)

/**
 * Starts a front on a free loopback port in front of `target`. A `fault` may hold
 * `request(request, context)`, returning the request to forward or `{ answer }` to answer
 * without forwarding, and `response(answer, request, context)`, returning the answer to send;
 * either may be async; an answer with `chunkSize` is written in chunks of that many bytes.
 * `context` has `forward(request)` (an extra call to the target), `state`
 * (a Map the fault keeps across exchanges) and `knownIds` and `apiKeys` of the server. A fault
 * with `inHandler` sees only the requests a server's handlers see (`passesGate`).
 * Resolves to `{ url, counts, close() }`; `counts` has the `exchanges` it served and how many
 * of them the fault `changed` (a request forwarded otherwise, an answer of its own or changed).
 */
export const startFront = async ({ target, fault = {}, knownIds, apiKeys }) => {
  const agent = new http.Agent({ keepAlive: true })
  const forward = forwardTo(target, agent)
  const context = { forward, state: new Map(), knownIds, apiKeys }
  const counts = { exchanges: 0, changed: 0 }
  const server = http.createServer(async (incoming, outgoing) => {
    try {
      const original = requestOf(incoming, await readAll(incoming))
      const changed =
        fault.request === undefined || (fault.inHandler && !passesGate(original, apiKeys))
          ? original
          : await fault.request(original, context)
      const forwarded = changed.answer ?? (await forward(changed))
      const answer =
        fault.response !== undefined && changed.answer === undefined
          ? await fault.response(forwarded, changed, context)
          : forwarded
      counts.exchanges += 1
      if (
        changed.answer !== undefined ||
        !sameRequest(original, changed) ||
        !sameAnswer(forwarded, answer)
      ) {
        counts.changed += 1
      }
      if (answer.chunkSize === undefined) {
        outgoing.writeHead(answer.status, {
          ...answer.headers,
          "content-length": String(answer.body.length)
        })
        outgoing.end(answer.body)
      } else {
        // Without a length the answer goes out in chunked transfer coding, one chunk per write.
        outgoing.writeHead(answer.status, answer.headers)
        for (let at = 0; at < answer.body.length; at += answer.chunkSize) {
          outgoing.write(answer.body.subarray(at, at + answer.chunkSize))
        }
        outgoing.end()
      }
    } catch (error) {
      outgoing.writeHead(502, { "content-type": "text/plain" })
      outgoing.end(`front: ${error instanceof Error ? error.message : String(error)}`)
    }
  })
  server.keepAliveTimeout = 5_000
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address()
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
        agent.destroy()
      })
  }
}
