import type { Entry, Assembled } from "../Operation.js"

export const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1)

export const spanName = (op: Entry): string => `${op.service}/${op.method}`

export const messageOf = (operation: string, text: string): string => `${operation}: ${text}`

export const spanAttributes = (op: Entry, protoPackage: string): Record<string, string> => ({
  "rpc.system": "connect_rpc",
  "rpc.service": `${protoPackage}.${op.service}`,
  "rpc.method": op.method
})

export const responseCode = (error: { readonly _tag: string; readonly code?: string }): string =>
  error._tag === "ConnectError" && error.code !== undefined
    ? error.code
    : error._tag === "TimeoutError"
      ? "deadline_exceeded"
      : error._tag

export const assemble = <Op extends Entry, Call, Stream>(
  operations: Iterable<Op>,
  makeCall: (op: Op) => Call,
  makeStream: (call: Call, op: Op) => Stream
): Assembled<Call, Stream> => {
  const calls = new Map<string, Call>()
  const streams = new Map<string, Stream>()
  const services: Record<string, Record<string, Call | Stream>> = {}
  const flat: Record<string, Call | Stream> = {}
  for (const op of operations) {
    const call = makeCall(op)
    calls.set(op.method, call)
    const service = (services[op.service] ??= {})
    const name = lowerFirst(op.method)
    service[name] = call
    flat[name] = call
    if (op.kind === "list") {
      const stream = makeStream(call, op)
      streams.set(op.method, stream)
      service[`${name}Stream`] = stream
      flat[`${name}Stream`] = stream
    }
  }
  return {
    flat,
    services,
    call: (method) => calls.get(method)!,
    stream: (method) => streams.get(method)!
  }
}
