/**
 * The faithful stages of the pipeline: what a server that takes every default choice of
 * decisions.md does at each stage (`app.ts` composes the switches and violations over them).
 *
 * @internal
 */
import {
  ContentType,
  Deadline,
  Decode,
  JsonBody,
  Operations,
  SchemaWalk
} from "@data-access/schema"
import * as Compression from "@data-access/schema/Compression"
import * as Crypto from "node:crypto"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as ParseResult from "effect/ParseResult"
import type * as Schema from "effect/Schema"
import * as ConnectError from "./connectError.js"
import { handlers } from "./handlers.js"
import { truncate } from "./messages.js"
import {
  type Check,
  type Checks,
  deadlinePassed,
  type Op,
  type Output,
  type PickIssue,
  type Prepare,
  type Relax,
  type Req,
  type Respond,
  type Route,
  type ServerStages,
  type Validate
} from "./pipeline-types.js"

// One-shot hashing (`crypto.hash`, Node 20.12+) is about twice as fast as createHash().update().digest().
const sha256Streamed = (s: string): Buffer => Crypto.createHash("sha256").update(s).digest()
const sha256: (s: string) => Buffer =
  typeof Crypto.hash === "function" ? (s) => Crypto.hash("sha256", s, "buffer") : sha256Streamed

/** Hashes API keys for comparison without keeping or leaking them. */
export const hashKeys = (keys: ReadonlyArray<string>): ReadonlyArray<Buffer> => keys.map(sha256)

const authorized = (hashes: ReadonlyArray<Buffer>, key: string | undefined): boolean => {
  if (key === undefined) return false
  if (key === "") return false
  const h = sha256(key)
  let ok = false
  for (const k of hashes) ok = Crypto.timingSafeEqual(h, k) || ok
  return ok
}

export const response = (
  status: number,
  headers: Record<string, string>,
  body: string | Uint8Array
): Output => ({ _tag: "Response", status, headers, body })

/** Parses a body to a JSON object with lowerCamelCase keys, or says why not. */
const parseBody = (bytes: Uint8Array): Record<string, unknown> | string => {
  const parsed = JsonBody.parse(bytes)
  return parsed._tag === "Object" ? parsed.value : JsonBody.describe(parsed)
}

/** What a body-less request other than POST is read as. */
export const EMPTY_OBJECT = new TextEncoder().encode("{}")

const SAME_BODY: Relax = (body) => body
export const NO_RULES: Validate = (request) => request
const FIRST_ISSUE: PickIssue = (issues) => issues[0]
const SAME_REQUEST: Prepare = (request) => request
/** The faithful success body: written as it is (the fast writer takes this path). */
export const AS_IS: Respond = (_, body) => body

/**
 * A request's decoder: the compiled decoder of `@data-access/schema`'s `Decode` reads a valid body,
 * and Effect's parser (first error) says what is wrong with any other.
 */
const requestDecoder = (op: Op): Route["decode"] => {
  // Compiled at the operation's first request, not when a process imports the server.
  let decode: ((u: unknown) => Either.Either<Req, ParseResult.ParseError>) | undefined
  return (u) => {
    decode ??= Decode.makeDecoder(op.request as Schema.Schema<Req, unknown>, { errors: "first" })
    return Either.mapLeft(decode(u), (error) => error.issue)
  }
}

/** The faithful stages of one operation. */
const faithfulRoute = (op: Op): Route => ({
  op,
  fields: new Set(SchemaWalk.requestFields(op).keys()),
  parse: parseBody,
  relax: SAME_BODY,
  decode: requestDecoder(op),
  validate: NO_RULES,
  pickIssue: FIRST_ISSUE,
  prepare: SAME_REQUEST,
  handler: handlers.get(op.method)!,
  respond: AS_IS,
  error: (error) => error
})

export const faithfulRoutes: ReadonlyMap<string, Route> = new Map(
  Operations.all.map((op) => [op.path, faithfulRoute(op)])
)

/** The protocol checks, in the order they run. */
const faithfulChecks = (apiKeyHashes: ReadonlyArray<Buffer>): Checks => {
  const method: Check = {
    name: "method",
    run: (input) =>
      input.method !== "POST"
        ? {
            error: ConnectError.make("unimplemented", `${input.method} is not allowed; use POST`),
            status: 405,
            headers: { allow: "POST" }
          }
        : undefined
  }
  const contentTypeCheck: Check = {
    name: "content-type",
    run: (input) => {
      const contentType = ContentType.parse(input.headers["content-type"])
      if (contentType.codec !== "json") {
        const message = `content type ${JSON.stringify(truncate(contentType.mediaType, 100))} is not supported; use ${ContentType.JSON_MEDIA_TYPE}`
        return { error: ConnectError.make("unknown", message), status: 415 }
      }
      return undefined
    }
  }
  const encodingCheck: Check = {
    name: "encoding",
    run: (input) => {
      // Compression is a server's choice (decisions.md section 10); unsupported, it is unimplemented.
      const encoding = input.headers["content-encoding"]
      if (
        encoding !== undefined &&
        Compression.parseContentEncoding(encoding)._tag !== "Identity"
      ) {
        const message = `content encoding ${JSON.stringify(truncate(encoding, 100))} is not supported; send the body uncompressed`
        return {
          error: ConnectError.make("unimplemented", message),
          headers: { "accept-encoding": "identity" }
        }
      }
      return undefined
    }
  }
  const auth: Check = {
    name: "auth",
    run: (input) =>
      authorized(apiKeyHashes, input.headers["x-api-key"])
        ? undefined
        : { error: ConnectError.make("unauthenticated", "a valid X-API-KEY header is required") }
  }
  const headers: Check = {
    name: "headers",
    run: (input, op) => {
      for (const [name, value] of Object.entries(op.requiredHeaders)) {
        if (input.headers[name] !== value)
          return {
            error: ConnectError.make("invalid_argument", `the header ${name}: ${value} is required`)
          }
      }
      return undefined
    }
  }
  const timeoutCheck: Check = {
    name: "timeout",
    run: (input) => {
      if (Deadline.parseTimeout(input.headers[Deadline.TIMEOUT_HEADER])._tag === "Invalid") {
        return {
          error: ConnectError.make(
            "invalid_argument",
            "Connect-Timeout-Ms must be 1 to 10 digits of milliseconds"
          )
        }
      }
      return undefined
    }
  }
  return {
    beforeBody: [method, contentTypeCheck, encodingCheck, auth, headers, timeoutCheck],
    afterBody: []
  }
}

export const faithfulStages = (apiKeyHashes: ReadonlyArray<Buffer>): ServerStages => ({
  resolve: (path) => path,
  unknownRoute: (path) =>
    ConnectError.make("unimplemented", `no operation at ${truncate(path, 200)}`),
  checks: faithfulChecks(apiKeyHashes),
  bodyLimit: (configured) => configured,
  admit: () => undefined,
  deadline: (work, millis) =>
    Effect.map(Deadline.timeoutOption(Effect.interruptible(work), millis), (o) =>
      Option.getOrElse(o, () => deadlinePassed(millis))
    ),
  writeError: (error, headers, protocolStatus) =>
    response(
      protocolStatus ?? ConnectError.statusOf(error.code),
      { ...headers, "content-type": ContentType.JSON_MEDIA_TYPE },
      ConnectError.writeBody(error)
    ),
  writeSuccess: (headers, body) =>
    response(200, { ...headers, "content-type": ContentType.JSON_MEDIA_TYPE }, body),
  returnSecrets: false
})
