import { DataAccessClient, Services } from "@data-access/client"
import { ContractRules, type KnownIds } from "@data-access/schema"
import * as Compression from "@data-access/schema/Compression"
import { ReferenceServer } from "@data-access/reference-server"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as ContractTests from "../src/ContractTests.js"
import * as Proxy from "../src/Proxy.js"
import * as Report from "../src/Report.js"

// The proxy on real traffic: compressed bodies in both directions and the binary codec are
// faithful choices (decisions.md section 10); the proxy relays them untouched, judges what
// compressed bodies carry, and leaves unread what it cannot decode.

const KEY = ReferenceServer.DEFAULT_API_KEY

interface Front {
  /** What the server does with an answer before sending it. */
  readonly answer?: (
    answer: { status: number; headers: Record<string, string>; body: Uint8Array },
    acceptEncoding: string | undefined
  ) => { status?: number; headers: Record<string, string>; body: Uint8Array }
  /** Serve `application/proto` requests with 200 and these bytes (a binary-codec server). */
  readonly binary?: Uint8Array
}

/**
 * A server in front of the reference server, as another implementation would answer: it reads
 * compressed request bodies (gzip, deflate, br), and its `answer` hook may compress or rewrite the
 * reference server's answer.
 */
const frontServer = (front: Front) =>
  Effect.gen(function* () {
    const inner = yield* ReferenceServer.start({})
    const server = Http.createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        void (async () => {
          let body: Uint8Array = Buffer.concat(chunks)
          if (
            (req.headers["content-type"] ?? "").startsWith("application/proto") &&
            front.binary !== undefined
          ) {
            res.writeHead(200, {
              "content-type": "application/proto",
              "content-length": String(front.binary.length)
            })
            res.end(front.binary)
            return
          }
          const encoding = Compression.parseContentEncoding(req.headers["content-encoding"])
          if (encoding._tag === "Compressed") {
            const plain = Compression.decompress(body, encoding.encoding, 4 * 1024 * 1024)
            if (plain._tag === "Left") {
              res.writeHead(400, { "content-type": "application/json" })
              res.end(
                JSON.stringify({
                  code: "invalid_argument",
                  message: "the body could not be decompressed"
                })
              )
              return
            }
            body = plain.right
          }
          const headers: Record<string, string> = {}
          for (const [k, v] of Object.entries(req.headers))
            if (
              typeof v === "string" &&
              ![
                "host",
                "content-length",
                "content-encoding",
                "accept-encoding",
                "connection"
              ].includes(k)
            )
              headers[k] = v
          const reply = await fetch(inner.url + req.url, {
            method: req.method ?? "POST",
            headers,
            ...(req.method === "GET" || req.method === "HEAD" ? {} : { body })
          })
          const answer = {
            status: reply.status,
            headers: {} as Record<string, string>,
            body: new Uint8Array(await reply.arrayBuffer())
          }
          reply.headers.forEach((v, k) => {
            if (
              !["content-length", "connection", "keep-alive", "transfer-encoding", "date"].includes(
                k
              )
            )
              answer.headers[k] = v
          })
          const out = front.answer?.(answer, req.headers["accept-encoding"]) ?? answer
          res.writeHead(out.status ?? answer.status, {
            ...out.headers,
            "content-length": String(out.body.length)
          })
          res.end(out.body)
        })()
      })
    })
    yield* Effect.acquireRelease(
      Effect.async<void>((resume) => {
        server.listen(0, "127.0.0.1", () => resume(Effect.void))
      }),
      () =>
        Effect.async<void>((resume) => {
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    )
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      knownIds: inner.knownIds
    }
  })

/**
 * Compresses each answer in one of the encodings the client offers, as Connect servers do, taking
 * `Compression.encodings` in turn from one answer to the next; `sent` counts the answers per encoding.
 */
const rotating = (sent: Record<Compression.Encoding, number>): NonNullable<Front["answer"]> => {
  let turn = 0
  return (answer, acceptEncoding) => {
    const offered = Compression.parseAcceptEncoding(acceptEncoding)
    const { encodings } = Compression
    const encoding = encodings
      .map((_, i) => encodings[(turn + i) % encodings.length]!)
      .find((e) => offered.includes(e))
    if (encoding === undefined || answer.body.length === 0) return answer
    turn++
    sent[encoding]++
    return {
      headers: { ...answer.headers, "content-encoding": encoding },
      body: Compression.compress(answer.body, encoding)
    }
  }
}

const post = (
  base: string,
  method: string,
  body: Uint8Array | string,
  headers: Record<string, string> = {}
) =>
  Effect.promise(async () => {
    const service = method === "ListSatellites" ? "SatelliteService" : "ResourceService"
    const res = await fetch(`${base}/core.v1.${service}/${method}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-api-key": KEY,
        "connect-protocol-version": "1",
        ...headers
      },
      body
    })
    return {
      status: res.status,
      encoding: res.headers.get("content-encoding"),
      text: await res.text()
    }
  })

const serverFindings = (proxy: Proxy.Proxy) =>
  Effect.map(proxy.findings, (fs) => fs.filter((f) => f.side === "server").map(Report.findingText))

describe("the proxy on real traffic", () => {
  it.scoped(
    `a server that answers in ${Compression.encodings.join(" / ")} to a client that asks for it: relayed compressed, judged decoded, zero server findings`,
    () =>
      Effect.gen(function* () {
        const sent = Object.fromEntries(Compression.encodings.map((e) => [e, 0])) as Record<
          Compression.Encoding,
          number
        >
        const front = yield* frontServer({ answer: rotating(sent) })
        const proxy = yield* Proxy.start({ target: front.url })
        // The typed client over undici (it sends Accept-Encoding), then the runner's traffic.
        const client = DataAccessClient.layer({
          baseUrl: proxy.url,
          apiKey: Redacted.make(KEY)
        }).pipe(Layer.provide(NodeHttpClient.layerUndici))
        for (const _ of Compression.encodings)
          yield* Effect.gen(function* () {
            const satellites = yield* Services.SatelliteService
            const resources = yield* Services.ResourceService
            yield* satellites.listSatellites({ limit: 50 })
            yield* resources.getResource({ id: front.knownIds.resources[0]! })
            yield* Effect.flip(resources.getResource({ id: "resource_does_not_exist" }))
          }).pipe(Effect.provide(client))
        for (const encoding of Compression.encodings) {
          // fetch decompresses what the proxy relays: the bytes arrived as the server compressed them.
          const page = yield* post(proxy.url, "ListSatellites", JSON.stringify({ limit: 20 }), {
            "accept-encoding": encoding
          })
          expect(page.encoding, encoding).toBe(encoding)
          expect(JSON.parse(page.text).satellites.length, encoding).toBeGreaterThan(0)
          // The proxy read every answer so far decoded: none left unread.
          expect((yield* proxy.report).notes.join("\n"), `${encoding}: read decoded`).not.toMatch(
            /left unread/
          )
          expect(yield* serverFindings(proxy), encoding).toEqual([])
        }
        const before = { ...sent }
        // The runner asks for compressed answers in its probes of the latitude family, whose
        // answers decode alike for every operation: a list, a get, a create and an update show them.
        yield* ContractTests.run({
          baseUrl: proxy.url,
          apiKey: Redacted.make(KEY),
          fixtures: front.knownIds,
          seed: 3,
          examples: 2,
          concurrency: 4,
          shrinkBudget: 0,
          operations: ["ListSatellites", "GetResource", "CreatePermission", "UpdateSatellite"],
          checks: ["response-schema", "success-shape", "error-shape", "paging"]
        })
        // The runner's traffic got answers in each encoding.
        for (const encoding of Compression.encodings)
          expect(
            sent[encoding] - before[encoding],
            `${encoding} answers to the runner`
          ).toBeGreaterThan(0)
        expect(yield* serverFindings(proxy)).toEqual([])
        const report = yield* proxy.report
        // Every answer read decoded; the one body left unread is the runner's own request that
        // says gzip and is plain JSON (the latitude family's probe), which nothing can decompress.
        expect(report.notes.join("\n")).not.toMatch(
          /\b(?!1 of)\d+ of them relayed with a body left unread/
        )
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "what a compressed answer carries is judged: a gzip body that breaks the schema is a server finding",
    () =>
      Effect.gen(function* () {
        const broken: NonNullable<Front["answer"]> = (answer) => {
          const json = JSON.parse(new TextDecoder().decode(answer.body)) as Record<string, unknown>
          const bad =
            answer.status === 200 && "resource" in json
              ? { resource: { ...(json.resource as object), id: 7 } }
              : json
          return {
            headers: { ...answer.headers, "content-encoding": "gzip" },
            body: Compression.compress(JSON.stringify(bad), "gzip")
          }
        }
        const front = yield* frontServer({ answer: broken })
        const proxy = yield* Proxy.start({ target: front.url })
        yield* post(proxy.url, "GetResource", JSON.stringify({ id: front.knownIds.resources[0] }), {
          "accept-encoding": "gzip"
        })
        const findings = yield* proxy.findings
        expect(findings.filter((f) => f.side === "server").map((f) => f.rule)).toContain(
          "response.field-types"
        )
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "compressed request bodies are read: a valid one passes, an invalid one is a client finding; a corrupt one is relayed unread",
    () =>
      Effect.gen(function* () {
        const front = yield* frontServer({})
        const proxy = yield* Proxy.start({ target: front.url })
        for (const encoding of Compression.encodings) {
          const ok = yield* post(
            proxy.url,
            "ListSatellites",
            Compression.compress(JSON.stringify({ limit: 3 }), encoding),
            { "content-encoding": encoding }
          )
          expect(ok.status, encoding).toBe(200)
        }
        const invalid = yield* post(
          proxy.url,
          "ListSatellites",
          Compression.compress(JSON.stringify({ limit: 9999 }), "br"),
          { "content-encoding": "br" }
        )
        expect(invalid.status).toBe(400)
        const corrupt = yield* post(
          proxy.url,
          "ListSatellites",
          new TextEncoder().encode("not gzip at all"),
          { "content-encoding": "gzip" }
        )
        expect(corrupt.status).toBe(400)
        const findings = yield* proxy.findings
        expect(findings.filter((f) => f.side === "client").map((f) => f.rule)).toEqual([
          "lists.limit-range"
        ])
        expect(findings.filter((f) => f.side === "server").map(Report.findingText)).toEqual([])
        // The reproduction shows the decoded body, without the Content-Encoding it no longer has.
        const limit = findings.find((f) => f.rule === "lists.limit-range")!
        expect(limit.curl).toContain("9999")
        expect(limit.curl.toLowerCase()).not.toContain("content-encoding")
        expect((yield* proxy.report).notes.join("\n")).toContain(
          "1 of them relayed with a body left unread"
        )
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "a server that serves the binary codec: relayed untouched, no finding; under --strict-client the client is lenient",
    () =>
      Effect.gen(function* () {
        const bytes = new Uint8Array([0x0a, 0x03, 0x61, 0x62, 0x63, 0xff, 0x00])
        const front = yield* frontServer({ binary: bytes })
        for (const strictClient of [false, true]) {
          const proxy = yield* Proxy.start({ target: front.url, strictClient })
          const answer = yield* Effect.promise(async () => {
            const res = await fetch(`${proxy.url}/core.v1.ResourceService/GetResource`, {
              method: "POST",
              headers: {
                "content-type": "application/proto",
                "x-api-key": KEY,
                "connect-protocol-version": "1"
              },
              body: new Uint8Array([0x0a, 0x01, 0x72])
            })
            return {
              status: res.status,
              type: res.headers.get("content-type"),
              body: new Uint8Array(await res.arrayBuffer())
            }
          })
          expect(answer).toEqual({ status: 200, type: "application/proto", body: bytes })
          const findings = yield* proxy.findings
          expect(findings.filter((f) => f.side === "server").map(Report.findingText)).toEqual([])
          expect(findings.filter((f) => f.side === "client").map((f) => f.cause)).toEqual(
            strictClient ? ["lenient (connect-get): binary codec"] : []
          )
          expect((yield* proxy.report).notes.join("\n")).toContain(
            "1 of them relayed with a body left unread"
          )
        }
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "a server that refuses the binary codec with 415 is faithful too; a JSON request answered in binary is a server finding",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({})
        const proxy = yield* Proxy.start({ target: server.url })
        const refused = yield* post(proxy.url, "GetResource", new Uint8Array([0x0a, 0x01, 0x72]), {
          "content-type": "application/proto"
        })
        expect(refused.status).toBe(415)
        expect(yield* serverFindings(proxy)).toEqual([])
        const front = yield* frontServer({
          answer: (a) => ({
            headers: { ...a.headers, "content-type": "application/proto" },
            body: a.body
          })
        })
        const wrong = yield* Proxy.start({ target: front.url })
        yield* post(wrong.url, "GetResource", JSON.stringify({ id: front.knownIds.resources[0] }))
        expect(
          (yield* wrong.findings).filter((f) => f.side === "server").map((f) => f.rule)
        ).toContain("wire.success")
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "Connect GET: served by a server that supports it, refused with 405 by one that does not; both faithful, the client lenient only under --strict-client",
    () =>
      Effect.gen(function* () {
        const serving = yield* ReferenceServer.start({ latitude: ["connect-get"] })
        const refusing = yield* ReferenceServer.start({})
        const message = encodeURIComponent(JSON.stringify({ id: serving.knownIds.resources[0] }))
        const path = `/core.v1.ResourceService/GetResource?encoding=json&message=${message}`
        for (const [server, status] of [
          [serving, 200],
          [refusing, 405]
        ] as const) {
          for (const strictClient of [false, true]) {
            const proxy = yield* Proxy.start({ target: server.url, strictClient })
            const answer = yield* Effect.promise(async () => {
              const res = await fetch(proxy.url + path, {
                headers: { "x-api-key": KEY, "accept-encoding": "gzip, deflate, br" }
              })
              return { status: res.status, body: await res.text() }
            })
            expect(answer.status).toBe(status)
            if (status === 200)
              expect(JSON.parse(answer.body).resource.id).toBe(serving.knownIds.resources[0])
            const findings = yield* proxy.findings
            expect(
              findings.filter((f) => f.side === "server").map(Report.findingText),
              `${status}`
            ).toEqual([])
            expect(findings.filter((f) => f.side === "client").map((f) => f.cause)).toEqual(
              strictClient ? ["lenient (connect-get): Connect GET"] : []
            )
          }
        }
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "deadline_exceeded (504) to a call with Connect-Timeout-Ms is faithful; to a call without a deadline it is a server error",
    () =>
      Effect.gen(function* () {
        const deadline = JSON.stringify({
          code: "deadline_exceeded",
          message: "the deadline passed"
        })
        const front = yield* frontServer({
          answer: (a) => ({
            status: 504,
            headers: { ...a.headers, "content-type": "application/json" },
            body: new TextEncoder().encode(deadline)
          })
        })
        const proxy = yield* Proxy.start({ target: front.url })
        const timed = yield* post(proxy.url, "ListSatellites", JSON.stringify({ limit: 1 }), {
          "connect-timeout-ms": "1"
        })
        expect([timed.status, timed.text]).toEqual([504, deadline])
        expect(yield* serverFindings(proxy)).toEqual([])
        yield* post(proxy.url, "ListSatellites", JSON.stringify({ limit: 1 }))
        expect((yield* proxy.findings).map((f) => `${f.side} ${f.rule}`)).toEqual([
          "server errors.no-internal-for-client-faults"
        ])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "filters a server may refuse (decisions.md section 10) refused with invalid_argument: no server finding",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({
          latitude: ["strict-filter-types", "strict-time-filter", "reject-empty-filter"]
        })
        const proxy = yield* Proxy.start({ target: server.url })
        const sv = (value: string) => ({
          "@type": "type.googleapis.com/google.protobuf.StringValue",
          value
        })
        for (const filter of [
          { field: { key: "termination_protection", operator: "contains", value: sv("tru") } },
          { field: { key: "termination_protection", operator: "lower_than", value: sv("true") } },
          { field: { key: "created_at", operator: "lower_than", value: sv("not-a-time") } },
          {}
        ]) {
          const answer = yield* post(
            proxy.url,
            "ListSatellites",
            JSON.stringify({ limit: 10, filter })
          )
          expect(answer.status, JSON.stringify(filter)).toBe(400)
        }
        expect(yield* serverFindings(proxy)).toEqual([])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  describe("each latitude switch of the reference server, with a client's traffic through the proxy: zero server findings", () => {
    /** A session of the typed client: lists, a stream, creates, an update, reads and a not_found. */
    const session = (url: string, knownIds: KnownIds.KnownIds) =>
      Effect.gen(function* () {
        const satellites = yield* Services.SatelliteService
        const connectors = yield* Services.ConnectorService
        const resources = yield* Services.ResourceService
        const permissions = yield* Services.PermissionsService
        const page = yield* satellites.listSatellites({ limit: 5, order: "desc", search: "a" })
        const first = page.satellites[0]!
        yield* satellites.updateSatellite({ id: first.id, name: `${first.name}-renamed` })
        const { connector } = yield* connectors.createConnector({
          name: "proxy-latitude-connector"
        })
        yield* connectors.createConnector({
          name: "proxy-latitude-two",
          spaceId: connector.spaceId
        })
        yield* permissions.createPermission({
          name: "read",
          description: "reads",
          code: "perm.read",
          status: "draft"
        })
        yield* resources.listNativeUsers({ limit: 3, resourceId: knownIds.resources[0]! })
        yield* resources.getResource({ id: knownIds.resources[0]! })
        yield* Effect.flip(resources.getResource({ id: "resource_does_not_exist" }))
      }).pipe(
        Effect.provide(
          DataAccessClient.layer({ baseUrl: url, apiKey: Redacted.make(KEY) }).pipe(
            Layer.provide(NodeHttpClient.layerUndici)
          )
        )
      )
    for (const name of ContractRules.latitudeNames) {
      it.scoped(name, () =>
        Effect.gen(function* () {
          const server = yield* ReferenceServer.start({ latitude: [name] })
          const proxy = yield* Proxy.start({ target: server.url })
          yield* session(proxy.url, server.knownIds)
          const report = yield* proxy.report
          expect(report.requests).toBeGreaterThanOrEqual(8)
          expect(
            report.findings.filter((f) => f.side === "server").map(Report.findingText)
          ).toEqual([])
        }).pipe(Effect.provide(NodeHttpClient.layerUndici))
      )
    }
    // All switches at once, with the runner's traffic through the proxy: faithful.ts.
  })
})
