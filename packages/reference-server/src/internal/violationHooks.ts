/**
 * Builders of the violations' hooks on the faithful pipeline's stages: checks left out, bodies
 * refused or relaxed, requests and success bodies changed, answers rewritten.
 *
 * @internal
 */
import * as ConnectError from "./connectError.js"
import type { Json } from "../Collections.js"
import type {
  Body,
  Check,
  CheckName,
  Checks,
  Exchange,
  Op,
  Output,
  Relax,
  Req,
  Respond,
  RouteHook
} from "./pipeline-types.js"
import { isObject } from "./jsonBodies.js"

type Request = Req

/** A hook on the protocol checks: the named check is not made. */
export const without =
  (name: CheckName) =>
  (next: Checks): Checks => {
    const keep = (c: Check) => c.name !== name
    return { beforeBody: next.beforeBody.filter(keep), afterBody: next.afterBody.filter(keep) }
  }

/** A hook on `relax` for the operations `applies` accepts: an error for the body as sent, or `undefined` to go on. */
export const refusing =
  (
    refuse: (
      body: Body,
      op: Op,
      fields: ReadonlySet<string>
    ) => ConnectError.ConnectError | undefined,
    applies: (op: Op) => boolean = () => true
  ): RouteHook<Relax> =>
  (next, op, fields) =>
    applies(op) ? (body, ex) => refuse(body, op, fields) ?? next(body, ex) : next

/** A hook on `relax` for the operations `applies` accepts: a copy of the body, changed, goes on. */
export const relaxing =
  (
    change: (body: Body, op: Op, ex: Exchange) => void,
    applies: (op: Op) => boolean = () => true
  ): RouteHook<Relax> =>
  (next, op) =>
    applies(op)
      ? (body, ex) => {
          const copy = structuredClone(body)
          change(copy, op, ex)
          return next(copy, ex)
        }
      : next

/** A hook on `prepare` for the operations `applies` accepts: the decoded request goes on changed. */
export const preparing =
  (
    change: (request: Request, ex: Exchange, op: Op) => Request,
    applies: (op: Op) => boolean
  ): RouteHook<(request: Request, ex: Exchange) => Request> =>
  (next, op) =>
    applies(op) ? (request, ex) => next(change(request, ex, op), ex) : next

/** Whether an operation writes an object's fields as sent (a create or an update). */
export const writesFields = (op: Op): boolean => op.kind === "create" || op.kind === "update"

/** A hook on `prepare` of every list: the decoded request goes on without `field` (as if it had not been sent; a bad value is still rejected). */
export const listIgnores =
  (field: string): RouteHook<(request: Request, ex: Exchange) => Request> =>
  (next, op) =>
    op.kind === "list"
      ? (request, ex) => {
          if (request[field] === undefined) return next(request, ex)
          const { [field]: _, ...rest } = request
          return next(rest, ex)
        }
      : next

/** A hook on `respond` for the operations `applies` accepts: the success body, copied and changed. */
export const responding =
  (
    change: (body: Body, request: Request, op: Op) => void,
    applies: (op: Op) => boolean = () => true
  ): RouteHook<Respond> =>
  (next, op) =>
    applies(op)
      ? (request, body, ex) => {
          const copy = structuredClone(next(request, body, ex)) as Body
          change(copy, request, op)
          return copy as Json
        }
      : next

/** The object a response carries (the first item of a list or array), for response violations. */
const targetOf = (op: Op, body: Body): Body | undefined => {
  const holder =
    op.itemField !== undefined
      ? body[op.itemField]
      : op.wrapperKey !== undefined
        ? body[op.wrapperKey]
        : body
  const target = Array.isArray(holder) ? holder[0] : holder
  return isObject(target) ? target : undefined
}

/** A hook on `respond`: the object the success body carries (the first item of a list or array), changed. */
export const onTarget = (
  change: (target: Body, request: Request, op: Op) => void,
  applies?: (op: Op) => boolean
): RouteHook<Respond> =>
  responding((body, request, op) => {
    const target = targetOf(op, body)
    if (target !== undefined) change(target, request, op)
  }, applies)

/** An answer written, changed when it is a response. */
export const withOutput = (
  out: Output,
  f: (response: Extract<Output, { readonly _tag: "Response" }>) => Output
): Output => (out._tag === "Response" ? f(out) : out)

/** An answer written with another `Content-Type` header. */
export const withContentType = (out: Output, contentType: string): Output =>
  withOutput(out, (response) => ({
    ...response,
    headers: { ...response.headers, "content-type": contentType }
  }))

/** The `Content-Type` of a JSON answer whose charset parameter names another encoding than its UTF-8 bytes. */
export const LATIN1_JSON = "application/json; charset=iso-8859-1"

/** An answer written with a UTF-8 byte order mark before its body, when it has one. */
export const withByteOrderMark = (out: Output): Output =>
  withOutput(out, (response) => {
    const body =
      typeof response.body === "string" ? new TextEncoder().encode(response.body) : response.body
    if (body.length === 0) return response
    const marked = new Uint8Array(body.length + 3)
    marked.set([0xef, 0xbb, 0xbf])
    marked.set(body, 3)
    return { ...response, body: marked }
  })
