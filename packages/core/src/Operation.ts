/**
 * A client assembled from the operation table: every operation a lowerCamelCase method, every List
 * operation also a paging stream, grouped per API service and reachable by method name; the span
 * name and attributes of each operation. Each Effect line passes its own call and stream makers.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/operation.js"

/**
 * What the assembly needs to know of an operation.
 *
 * @since 0.1.0
 * @category models
 */
export interface Entry {
  readonly service: string
  readonly method: string
  readonly kind: string
}

/**
 * `GetResource` to `getResource`.
 *
 * @since 0.1.0
 * @category naming
 */
export const lowerFirst: (s: string) => string = internal.lowerFirst

/**
 * The span name of an operation: `ResourceService/GetResource`.
 *
 * @since 0.1.0
 * @category spans
 */
export const spanName: (op: Entry) => string = internal.spanName

/**
 * A client error's message: the operation first (`ResourceService/GetResource: ...`), so a log line
 * or a printed cause says which call failed.
 *
 * @since 0.4.0
 * @category naming
 */
export const messageOf: (operation: string, text: string) => string = internal.messageOf

/**
 * The span attributes of an operation (OpenTelemetry's RPC conventions).
 *
 * @since 0.1.0
 * @category spans
 */
export const spanAttributes: (op: Entry, protoPackage: string) => Record<string, string> =
  internal.spanAttributes

/**
 * A span's `rpc.response.code` for a failure: the Connect code, `deadline_exceeded` for a timeout,
 * else the error's tag.
 *
 * @since 0.1.0
 * @category spans
 */
export const responseCode: (error: { readonly _tag: string; readonly code?: string }) => string =
  internal.responseCode

/**
 * The assembled client: every method flat, the methods of each service under `services`, and
 * `call` / `stream` by method name.
 *
 * @since 0.1.0
 * @category models
 */
export interface Assembled<Call, Stream> {
  readonly flat: Record<string, Call | Stream>
  readonly services: Record<string, Record<string, Call | Stream>>
  readonly call: (method: string) => Call
  readonly stream: (method: string) => Stream
}

/**
 * Assembles a client from the operation table and a call and stream maker.
 *
 * @since 0.1.0
 * @category assembling
 */
export const assemble: <Op extends Entry, Call, Stream>(
  operations: Iterable<Op>,
  makeCall: (op: Op) => Call,
  makeStream: (call: Call, op: Op) => Stream
) => Assembled<Call, Stream> = internal.assemble

/**
 * The methods of a set of operations `M`: each named in lowerCamelCase (`getResource`) with its
 * signature in `Calls`, and each List operation (in `L`) also as `<method>Stream` with its
 * signature in `Streams`. Each Effect line gives the signatures of its own `Effect` and `Stream`.
 *
 * @since 0.1.0
 * @category types
 */
export type Methods<
  M extends string,
  L extends string,
  Calls extends { readonly [K in M]: unknown },
  Streams extends { readonly [K in L]: unknown }
> = { readonly [K in M as Uncapitalize<K>]: Calls[K] } & {
  readonly [K in M & L as `${Uncapitalize<K>}Stream`]: Streams[K]
}
