import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { execFile } from "node:child_process"
import * as Fs from "node:fs"
import * as Http from "node:http"
import * as Https from "node:https"
import * as Net from "node:net"
import type { AddressInfo } from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { ReferenceServer } from "@data-access/reference-server"
import { cli } from "./cliRun.js"

// A staging server as platform teams meet it: behind a TLS gateway with its own CA that wants a
// client certificate and a token header, reached through an HTTP proxy.

const KEY = "gateway-api-key-5c4b3a2918"
const TOKEN = "gw-token-7f6e5d4c3b2a1908"
const PROXY_PASSWORD = "proxy-pass-0a9b8c7d6e"

const openssl = (dir: string, args: ReadonlyArray<string>) =>
  Effect.async<void, Error>((resume) => {
    execFile("openssl", args, { cwd: dir }, (error, _out, err) =>
      resume(error === null ? Effect.void : Effect.fail(new Error(`openssl ${args[0]}: ${err}`)))
    )
  })

/** A CA, a server certificate for 127.0.0.1 and a client certificate, both signed by the CA. */
const certificates = (dir: string) =>
  Effect.gen(function* () {
    yield* openssl(dir, [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      "ca.key",
      "-out",
      "ca.pem",
      "-days",
      "2",
      "-subj",
      "/CN=contract-tests test CA"
    ])
    Fs.writeFileSync(Path.join(dir, "server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    for (const [name, ext] of [
      ["server", ["-extfile", "server.ext"]],
      ["client", []]
    ] as const) {
      yield* openssl(dir, [
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        `${name}.key`,
        "-out",
        `${name}.csr`,
        "-subj",
        `/CN=${name === "server" ? "127.0.0.1" : "contract-tests client"}`
      ])
      yield* openssl(dir, [
        "x509",
        "-req",
        "-in",
        `${name}.csr`,
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        `${name}.pem`,
        "-days",
        "2",
        ...ext
      ])
    }
  })

const listen = (server: Http.Server | Https.Server) =>
  Effect.acquireRelease(
    Effect.async<number>((resume) => {
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed((server.address() as AddressInfo).port))
      )
    }),
    () =>
      Effect.async<void>((resume) => {
        server.closeAllConnections?.()
        server.close(() => resume(Effect.void))
      })
  )

/** The TLS gateway: a client certificate of the CA and the token header, or 403; then the server. */
const gateway = (dir: string, upstream: string, seen: { requests: number; withoutToken: number }) =>
  listen(
    Https.createServer(
      {
        key: Fs.readFileSync(Path.join(dir, "server.key")),
        cert: Fs.readFileSync(Path.join(dir, "server.pem")),
        ca: Fs.readFileSync(Path.join(dir, "ca.pem")),
        requestCert: true,
        rejectUnauthorized: true
      },
      (req, res) => {
        seen.requests++
        if (req.headers["x-gateway-token"] !== TOKEN) {
          seen.withoutToken++
          res.writeHead(403).end("no token")
          return
        }
        const to = new URL(req.url ?? "/", upstream)
        const forward = Http.request(
          to,
          { method: req.method, headers: { ...req.headers, host: to.host } },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            answer.pipe(res)
          }
        )
        forward.on("error", () => res.destroy())
        req.pipe(forward)
      }
    )
  )

/** An HTTP proxy that tunnels CONNECT to 127.0.0.1 for the user with the password, counting tunnels. */
const connectProxy = (seen: { tunnels: number; refused: number }) => {
  const proxy = Http.createServer((_req, res) => res.writeHead(405).end())
  proxy.on("connect", (req: Http.IncomingMessage, socket: Net.Socket, head: Buffer) => {
    const expected = `Basic ${Buffer.from(`user:${PROXY_PASSWORD}`).toString("base64")}`
    if (req.headers["proxy-authorization"] !== expected) {
      seen.refused++
      socket.end("HTTP/1.1 407 Proxy Authentication Required\r\n\r\n")
      return
    }
    const [, port] = (req.url ?? "").split(":")
    const upstream = Net.connect(Number(port), "127.0.0.1", () => {
      seen.tunnels++
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n")
      upstream.write(head)
      upstream.pipe(socket)
      socket.pipe(upstream)
    })
    upstream.on("error", () => socket.destroy())
    socket.on("error", () => upstream.destroy())
  })
  return listen(proxy)
}

describe("a target behind a gateway", () => {
  it.scoped(
    "--header, --ca-cert, --client-cert/--client-key and --proxy reach it; no header value or proxy password in any report",
    () =>
      Effect.gen(function* () {
        const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "contract-tests-gateway-"))
        yield* certificates(dir)
        const server = yield* ReferenceServer.start({ apiKeys: [KEY] })
        Fs.writeFileSync(Path.join(dir, "ids.json"), JSON.stringify(server.knownIds))
        const seen = { requests: 0, withoutToken: 0 }
        const tunnels = { tunnels: 0, refused: 0 }
        const port = yield* gateway(dir, server.url, seen)
        const proxyPort = yield* connectProxy(tunnels)
        const file = (name: string) => Path.join(dir, name)
        const common = [
          "--base-url",
          `https://127.0.0.1:${port}`,
          "--api-key",
          KEY,
          "--fixtures",
          file("ids.json"),
          "--examples",
          "2",
          "--operations",
          "GetResource",
          "--rate-limit",
          "0",
          "--quiet"
        ]
        const r = yield* cli(
          ...common,
          "--header",
          `X-Gateway-Token: ${TOKEN}`,
          "--ca-cert",
          file("ca.pem"),
          "--client-cert",
          file("client.pem"),
          "--client-key",
          file("client.key"),
          "--proxy",
          `http://user:${PROXY_PASSWORD}@127.0.0.1:${proxyPort}`,
          "--json",
          file("r.json"),
          "--html",
          file("r.html"),
          "--junit",
          file("r.xml"),
          "--har",
          file("r.har")
        )
        expect(r.err).toBe("")
        expect(r.code).toBe(0)
        expect(seen.requests).toBeGreaterThan(5)
        expect(seen.withoutToken).toBe(0)
        expect(tunnels.tunnels).toBeGreaterThan(0)
        expect(tunnels.refused).toBe(0)
        for (const text of [
          r.out,
          ...["r.json", "r.html", "r.xml", "r.har"].map((f) => Fs.readFileSync(file(f), "utf8"))
        ]) {
          expect(text).not.toContain(TOKEN)
          expect(text).not.toContain(PROXY_PASSWORD)
          expect(text).not.toContain(KEY)
        }

        // Without the client certificate the gateway refuses the handshake: the target is unreachable.
        const noCert = yield* cli(
          ...common,
          "--header",
          `X-Gateway-Token: ${TOKEN}`,
          "--ca-cert",
          file("ca.pem")
        )
        expect(noCert.code).toBe(2)
        expect(noCert.err).toContain("cannot be reached")
        // Without the CA the gateway's certificate is not trusted.
        const noCa = yield* cli(
          ...common,
          "--header",
          `X-Gateway-Token: ${TOKEN}`,
          "--client-cert",
          file("client.pem"),
          "--client-key",
          file("client.key")
        )
        expect(noCa.code).toBe(2)
        // A header the checks set themselves, a line without a name, a key without its certificate.
        const reserved = yield* cli(...common, "--header", "Content-Type: text/plain")
        expect(reserved.code).toBe(2)
        expect(reserved.err).toContain("the checks set these headers themselves: Content-Type")
        const nameless = yield* cli(...common, "--header", "no colon here")
        expect(nameless.code).toBe(2)
        expect(nameless.err).toContain("--header takes 'Name: value'")
        const keyAlone = yield* cli(...common, "--client-key", file("client.key"))
        expect(keyAlone.code).toBe(2)
        expect(keyAlone.err).toContain("--client-key needs --client-cert")
        for (const x of [noCert, noCa, reserved, nameless, keyAlone]) {
          expect(x.err).not.toContain(TOKEN)
          expect(x.err).not.toMatch(/\n\s+at /)
        }
      }),
    180_000
  )
})
