/**
 * `ReferenceServer.domain`'s call: one operation on a JSON body through the pipeline, answered as
 * the success body or the error's code, message and `Retry-After`. For a server on another stack
 * (tools/connect-server), whose tests judge it: the mutation run leaves this module out, as no
 * judge of that run calls it.
 *
 * @internal
 */
import { ContentType, Operations, RetryAfter } from "@data-access/schema"
import * as ConnectErrorModule from "@data-access/schema/ConnectError"
import * as Effect from "effect/Effect"
import type { Core } from "./core.js"
import type { Input } from "./pipeline-types.js"

/** What one operation's domain logic answered (`ReferenceServer.DomainAnswer`). */
export type DomainAnswer =
  | { readonly _tag: "Success"; readonly body: unknown }
  | {
      readonly _tag: "Failure"
      readonly code: ConnectErrorModule.Code
      readonly message: string
      /** The answer's `Retry-After` (a rate limit's), for the caller's stack to send with the error. */
      readonly retryAfter?: string | undefined
    }

/** The API key of the core `domain` runs: the caller's stack does the protocol's part. */
export const DOMAIN_KEY = "domain-key"

const domainHeaders = {
  "content-type": ContentType.JSON_MEDIA_TYPE,
  "x-api-key": DOMAIN_KEY,
  "connect-protocol-version": "1"
}

/** Runs one operation of the core on a request body in wire form. */
export const makeCall = (core: Core) => {
  const decoder = new TextDecoder()
  return (method: Operations.MethodName, body: unknown): Effect.Effect<DomainAnswer> =>
    Effect.suspend(() => {
      const bytes = new TextEncoder().encode(JSON.stringify(body))
      const input: Input = {
        method: "POST",
        url: Operations.operations[method].path,
        headers: { ...domainHeaders, "content-length": String(bytes.length) },
        body: () => Effect.succeed(bytes)
      }
      return Effect.map(core.handle(input), (out): DomainAnswer => {
        if (out._tag === "Drop")
          return { _tag: "Failure", code: "unavailable", message: "the connection was dropped" }
        const text = typeof out.body === "string" ? out.body : decoder.decode(out.body)
        if (out.status === 200) return { _tag: "Success", body: JSON.parse(text) as unknown }
        const error = ConnectErrorModule.parseBody(text)
        const retryAfter = out.headers[RetryAfter.HEADER]
        return {
          _tag: "Failure",
          code: error?.code ?? "unknown",
          message: error?.message ?? "",
          ...(retryAfter === undefined ? {} : { retryAfter })
        }
      })
    })
}
