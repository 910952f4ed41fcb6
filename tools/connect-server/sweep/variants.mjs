// The faithful variants of the Connect-stack server the sweep runs: each a choice decisions.md
// section 10 allows or a harmless difference on the wire. `env` replaces the domain's clock or
// ids (hooks.mjs), `server` are options of the server's `start`, `front` of front.mjs.
export const variants = {
  // The server as it is: every latitude switch the stack leaves to the domain on.
  default: {},
  // The reference server's default choices, zero values written, 1 MiB body limit, no compression.
  "stack-alt": {
    server: {
      latitude: [],
      stack: {
        jsonOptions: { alwaysEmitImplicit: true },
        readMaxBytes: 1 << 20,
        acceptCompression: "none"
      }
    }
  },
  // Random UUID ids (not ULID-shaped, not time-ordered), nanosecond timestamps.
  "uuid-nanos": { env: { SWEEP_IDS: "uuid", SWEEP_CLOCK: "nanos" } },
  // Random UUID ids, times in whole milliseconds: objects made in one millisecond tie on createdAt.
  "uuid-ms-ties": { env: { SWEEP_IDS: "uuid", SWEEP_CLOCK: "grain:1" } },
  // Random UUID ids, times in whole seconds (zero fractional digits): createdAt ties abound, and an
  // update within the second of the object's last write does not move updatedAt forward (decisions.md
  // section 4 asks it to: a finding of update-semantics there is the server's).
  "uuid-s-ties": { env: { SWEEP_IDS: "uuid", SWEEP_CLOCK: "grain:1000" } },
  // Ids with `+`, `/` and `=` (base64); ids that are a decimal counter.
  "ids-b64": { env: { SWEEP_IDS: "b64" } },
  "ids-seq": { env: { SWEEP_IDS: "seq" } },
  // A clock 3 s ahead of the runner's.
  "clock-ahead": { env: { SWEEP_CLOCK: "ahead:3000" } },
  // Each call 50 ms slow.
  slow: { server: { faults: { rules: [{ fault: { _tag: "Latency", millis: 50 } }] } } },
  // Rate-limit and request-id headers, long base64 JSON cursors, gzip whenever offered, empty 405/415 bodies.
  "front-wire": {
    front: { rateLimitHeaders: true, longCursors: true, gzip: true, emptyProtocolBodies: true }
  },
  // Fields of a newer server in every answer object, error details, `; charset=utf-8` on JSON answers.
  "front-extras": { front: { extraFields: true, errorDetails: true, charset: true } },
  // Error bodies without their message, answers pretty-printed with their keys in reverse order, sent chunked.
  "front-shape": { front: { noErrorMessage: true, reshape: true, chunked: true } },
  // Pages shorter than limit while more items follow (a size of the server's own choosing), over full server pages.
  "short-pages": { server: { latitude: [] }, front: { shortPages: true } },
  // A rate limit of 20 calls a second (bursts of 10): 429 resource_exhausted with Retry-After beyond it.
  "rate-limited": { front: { rateLimit: { perSecond: 20, burst: 10 } } },
  // TLS, HTTP/2 offered beside HTTP/1.1; the runner trusts the certificate (--ca-cert).
  tls: { front: { tls: true }, runner: ["--ca-cert", "{tls}/cert.pem"] },
  // HTTP/2 without TLS only (h2c, prior knowledge), as connect-node's documentation serves it
  // (`http2.createServer(connectNodeAdapter({ routes }))`); the runner speaks it when told to.
  h2c: { server: { h2c: true }, runner: ["--http2-prior-knowledge"] },
  // Idle connections closed after 1 s; after 50 ms.
  "keepalive-1s": { front: { keepAliveMs: 1000 } },
  "keepalive-50ms": { front: { keepAliveMs: 50 } }
}
