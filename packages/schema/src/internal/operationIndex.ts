/** The operation table indexed: as an array, by service and by URL path. */
import type { MethodName, Operations, ServiceName } from "../Operations.js"
import { operations } from "./operationTable.js"

export const all: ReadonlyArray<Operations[MethodName]> = Object.values(operations)

export const services: ReadonlyMap<ServiceName, ReadonlyArray<Operations[MethodName]>> = (() => {
  const map = new Map<ServiceName, Array<Operations[MethodName]>>()
  for (const o of all) map.set(o.service, [...(map.get(o.service) ?? []), o])
  return map
})()

export const byPath: ReadonlyMap<string, Operations[MethodName]> = new Map(
  all.map((o) => [o.path, o])
)
