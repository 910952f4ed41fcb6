/**
 * A faithful server of the API on the official Connect stack: connect-node's `connectNodeAdapter`
 * on `node:http`, the messages and services generated from `@data-access/schema`'s `.proto` by
 * protoc-gen-es, and everything on the wire left to the libraries with their defaults (routing,
 * JSON and binary codecs, compression, Connect GET, headers, error mapping, unknown routes, 405
 * and 415). What the contract requires and the libraries cannot know is added: a registry for
 * the filter's `Any` values, the `X-API-KEY` check, `Connect-Protocol-Version` where the
 * operation table requires it, the deadline honoured by the handlers, and `Allow: POST` on the
 * library's 405 (decisions.md section 1).
 *
 * Behind the generated services, each request message is written as proto3 JSON and handed to
 * the reference server's domain logic (`ReferenceServer.domain`: its request schemas, checks and
 * store), with every latitude switch on that the stack leaves to the domain (decisions.md section
 * 10: the other choice from the reference server's default); its answer is read back into the
 * response message.
 */
import {
  type DescMethod,
  type DescService,
  fromJson,
  type JsonValue,
  type Registry,
  createRegistry,
  toJson
} from "@bufbuild/protobuf"
import {
  MethodOptions_IdempotencyLevel,
  file_google_protobuf_any,
  file_google_protobuf_struct,
  file_google_protobuf_timestamp,
  file_google_protobuf_wrappers
} from "@bufbuild/protobuf/wkt"
import { Code, ConnectError, type ConnectRouter, type Interceptor } from "@connectrpc/connect"
import { codeFromString } from "@connectrpc/connect/protocol-connect"
import { connectNodeAdapter, type ConnectNodeAdapterOptions } from "@connectrpc/connect-node"
import { type KnownIds, Operations, RetryAfter } from "@data-access/schema"
import { Latitude, ReferenceServer } from "@data-access/reference-server"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import * as Http from "node:http"
import * as Http2 from "node:http2"
import type * as Net from "node:net"
import { file_core_v1_api } from "./gen/core/v1/api_pb.js"

/** The latitude switches the Connect stack decides itself, left off in the domain. */
const STACK_DECIDES: ReadonlySet<Latitude.LatitudeName> = new Set<Latitude.LatitudeName>([
  // connect-node's own limit (4 GiB) holds; the domain gets what the stack accepted.
  "body-limit-1mib",
  // The stack's deadline handling, 405/415 answers, headers and Connect GET are its own.
  "lenient-deadline",
  "empty-protocol-bodies",
  "rate-limit-headers",
  "connect-get"
])

/**
 * The latitude switches this server turns on in the domain: every one the stack leaves to it.
 */
export const latitude: ReadonlyArray<Latitude.LatitudeName> = Latitude.names.filter(
  (n) => !STACK_DECIDES.has(n)
)

/** Options of `make` and `start`. */
export interface Options {
  /** Default 0: an ephemeral port. */
  readonly port?: number | undefined
  /** Default `127.0.0.1`. */
  readonly host?: string | undefined
  /** Default `[ReferenceServer.DEFAULT_API_KEY]`. */
  readonly apiKeys?: ReadonlyArray<string> | undefined
  /** What the store is seeded with (the reference server's option). Default `"demo"`. */
  readonly data?: ReferenceServer.Options["data"]
  /** Objects written into the store after `data`. */
  readonly fixtures?: ReferenceServer.Fixtures | undefined
  /** A fault plan of the reference server applied in the domain (a `Latency` makes an operation slow). Default: none. */
  readonly faults?: ReferenceServer.FaultPlan | undefined
  /** The domain's latitude switches. Default: `latitude`. */
  readonly latitude?: Latitude.Selection | undefined
  /**
   * The 405 of a known route carries `Allow: POST` (decisions.md section 1), which connect-node's
   * own 405 leaves out. Default true; false leaves connect-node's 405 as it is.
   */
  readonly allowHeader?: boolean | undefined
  /** Serve Connect GET for the reads (as a .proto marking them `NO_SIDE_EFFECTS` would). Default false. */
  readonly connectGet?: boolean | undefined
  /**
   * Options of connect-node's adapter to change from their defaults (a faithful variant of the
   * stack: another body limit, no compression, zero values written...). Default: none.
   */
  readonly stack?: Partial<Omit<ConnectNodeAdapterOptions, "routes" | "fallback">> | undefined
  /**
   * Serve HTTP/2 without TLS only (h2c, prior knowledge), as connect-node's documentation serves
   * its routes (`http2.createServer(connectNodeAdapter({ routes }))`). Default false: HTTP/1.1.
   */
  readonly h2c?: boolean | undefined
}

/** A running server. */
export interface Running {
  /** `http://HOST:PORT`, no trailing slash. */
  readonly url: string
  readonly apiKeys: ReadonlyArray<string>
  /** Every object the store held once started. */
  readonly knownIds: KnownIds.KnownIds
  /** The latitude switches on in the domain. */
  readonly latitude: ReadonlyArray<Latitude.LatitudeName>
}

/** The types the filter's `Any` values and the messages' well-known types name. */
export const registry: Registry = createRegistry(
  file_core_v1_api,
  file_google_protobuf_any,
  file_google_protobuf_struct,
  file_google_protobuf_timestamp,
  file_google_protobuf_wrappers
)

const unauthenticated = () =>
  new ConnectError("a valid X-API-KEY header is required", Code.Unauthenticated)

/** Refuses a call whose `X-API-KEY` is missing, empty or unknown (decisions.md section 2). */
const apiKeyInterceptor =
  (keys: ReadonlySet<string>): Interceptor =>
  (next) =>
  (request) => {
    const key = request.header.get("x-api-key")
    if (key === null || key === "" || !keys.has(key)) throw unauthenticated()
    return next(request)
  }

/** Runs an effect, settling with the signal's reason once the signal aborts (a deadline passed, the client went away). */
const runUnder = <A>(effect: Effect.Effect<A>, signal: AbortSignal): Promise<A> =>
  new Promise<A>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const onAbort = () => reject(signal.reason)
    signal.addEventListener("abort", onAbort, { once: true })
    Effect.runPromise(effect, { signal }).then(
      (a) => {
        signal.removeEventListener("abort", onAbort)
        resolve(a)
      },
      (e) => {
        signal.removeEventListener("abort", onAbort)
        reject(signal.aborted ? signal.reason : e)
      }
    )
  })

/** The implementation of one method: the request as proto3 JSON through the domain, its answer read back. */
const implementation =
  (domain: ReferenceServer.Domain, method: DescMethod, name: Operations.MethodName) =>
  async (request: unknown, context: { readonly signal: AbortSignal }) => {
    const body = toJson(method.input, request as never, { registry })
    const answer = await runUnder(domain.call(name, body), context.signal)
    if (answer._tag === "Failure")
      // A rate limit's Retry-After goes with the error, as a header of the answer (decisions.md section 2).
      throw new ConnectError(
        answer.message,
        codeFromString(answer.code) ?? Code.Unknown,
        answer.retryAfter === undefined ? undefined : { [RetryAfter.HEADER]: answer.retryAfter }
      )
    return fromJson(method.output, answer.body as JsonValue, {
      ignoreUnknownFields: true,
      registry
    })
  }

/** The operation of a generated method: the table's entry of the same service and method. */
const operationOf = (
  service: DescService,
  method: DescMethod
): Operations.Operations[Operations.MethodName] => {
  const op = (
    Operations.operations as Record<
      string,
      Operations.Operations[Operations.MethodName] | undefined
    >
  )[method.name]
  if (op === undefined || op.service !== service.name)
    throw new Error(`the operation table has no ${service.name}/${method.name}`)
  return op
}

/** Whether an operation only reads (a Get or a List). */
const reads = (op: Operations.Operations[Operations.MethodName]) =>
  op.kind === "get" || op.kind === "list"

/**
 * A service whose reads are marked `idempotency_level = NO_SIDE_EFFECTS`, as a .proto that marks
 * them generates it: connect-es serves Connect GET for them, and its client sends them as GET
 * when told to (`useHttpGet`).
 */
export const withConnectGet = (service: DescService): DescService => {
  const methods = service.methods.map((method) =>
    reads(operationOf(service, method))
      ? { ...method, idempotency: MethodOptions_IdempotencyLevel.NO_SIDE_EFFECTS }
      : method
  )
  return { ...service, methods, method: Object.fromEntries(methods.map((m) => [m.localName, m])) }
}

/** Registers every method of every service of the generated file on a router. */
const routes = (domain: ReferenceServer.Domain, connectGet: boolean) => (router: ConnectRouter) => {
  for (const generated of file_core_v1_api.services) {
    const service = connectGet ? withConnectGet(generated) : generated
    for (const method of service.methods) {
      const op = operationOf(service, method)
      // The library's own check of Connect-Protocol-Version, on the operations that require it.
      const requireConnectProtocolHeader = Object.keys(op.requiredHeaders).some(
        (h) => h.toLowerCase() === "connect-protocol-version"
      )
      router.rpc(
        method,
        implementation(domain, method, op.method) as never,
        requireConnectProtocolHeader ? { requireConnectProtocolHeader } : {}
      )
    }
  }
}

/** The methods each generated path serves (`/core.v1.ResourceService/GetResource`), as `Allow` names them. */
const allowed = (connectGet: boolean): ReadonlyMap<string, string> =>
  new Map(
    file_core_v1_api.services.flatMap((s) =>
      s.methods.map(
        (m) =>
          [
            `/${s.typeName}/${m.name}`,
            connectGet && reads(operationOf(s, m)) ? "GET, POST" : "POST"
          ] as const
      )
    )
  )

const pathOf = (url: string | undefined) => (url ?? "").split("?", 1)[0]!

/**
 * connect-node's 405 names no allowed method; decisions.md section 1 (and RFC 9110) asks for
 * `Allow: POST`, set here on the requests to a known route that it will refuse with 405.
 */
const withAllow =
  (
    allow: ReadonlyMap<string, string>,
    handler: (
      request: Http.IncomingMessage | Http2.Http2ServerRequest,
      response: Http.ServerResponse | Http2.Http2ServerResponse
    ) => void
  ) =>
  (
    request: Http.IncomingMessage | Http2.Http2ServerRequest,
    response: Http.ServerResponse | Http2.Http2ServerResponse
  ) => {
    const methods = allow.get(pathOf(request.url))
    if (methods !== undefined && request.method !== "POST") response.setHeader("allow", methods)
    handler(request, response)
  }

const listen = (server: Net.Server, port: number, host: string) =>
  Effect.async<void, Error>((resume) => {
    const onError = (e: Error) => resume(Effect.fail(e))
    server.once("error", onError)
    server.listen({ port, host }, () => {
      server.off("error", onError)
      resume(Effect.void)
    })
  })

/**
 * Starts the server inside the caller's scope; closing the scope stops it.
 */
export const make = (
  options: Options = {}
): Effect.Effect<Running, ReferenceServer.StartError | Error, Scope.Scope> =>
  Effect.gen(function* () {
    const on = options.latitude ?? latitude
    const domain = yield* ReferenceServer.domain({
      latitude: on,
      ...(options.data === undefined ? {} : { data: options.data }),
      ...(options.fixtures === undefined ? {} : { fixtures: options.fixtures }),
      ...(options.faults === undefined ? {} : { faults: options.faults })
    })
    const apiKeys = options.apiKeys ?? [ReferenceServer.DEFAULT_API_KEY]
    const stack = options.stack ?? {}
    const handler = connectNodeAdapter({
      ...stack,
      routes: routes(domain, options.connectGet === true),
      jsonOptions: { ...stack.jsonOptions, registry },
      interceptors: [apiKeyInterceptor(new Set(apiKeys)), ...(stack.interceptors ?? [])]
    })
    const served =
      options.allowHeader === false
        ? handler
        : withAllow(allowed(options.connectGet === true), handler)
    // Each open connection, so that stopping the server ends them (HTTP/2 sessions too).
    const sockets = new Set<Net.Socket>()
    const server = options.h2c === true ? Http2.createServer(served) : Http.createServer(served)
    server.on("connection", (socket: Net.Socket) => {
      sockets.add(socket)
      socket.once("close", () => sockets.delete(socket))
    })
    const host = options.host ?? "127.0.0.1"
    yield* Effect.acquireRelease(listen(server, options.port ?? 0, host), () =>
      Effect.async<void>((resume) => {
        server.close(() => resume(Effect.void))
        for (const socket of sockets) socket.destroy()
      })
    )
    const address = server.address()
    const port = address !== null && typeof address === "object" ? address.port : 0
    return {
      url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
      apiKeys,
      knownIds: domain.knownIds,
      latitude: domain.latitude
    }
  })

/**
 * Starts the server outside Effect: its URL and what it holds, and `close`.
 */
export const start = async (
  options: Options = {}
): Promise<Running & { readonly close: () => Promise<void> }> => {
  const scope = Effect.runSync(Scope.make())
  const exit = await Effect.runPromiseExit(Scope.extend(make(options), scope))
  if (Exit.isFailure(exit)) {
    await Effect.runPromise(Scope.close(scope, exit))
    throw new Error(`the connect server could not start`, { cause: exit.cause })
  }
  return { ...exit.value, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}
