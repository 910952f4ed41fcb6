/**
 * Latitude explored: requests from the territory where decisions.md section 10 lets a server
 * choose, each judged by an oracle that accepts every faithful answer and flags only what no
 * choice gives: a 5xx, another code, a success that stores something else than was sent, or 200
 * to a GET that no reading of the protocol serves. The rows explored: string limits, request
 * enums left out, formats, filters (empty, time keys with text, string operators on booleans),
 * Connect GET, `identityId` of kind `resource_hostname`, cursors used with another request, and
 * the body size limit.
 */
import type { CheckId } from "@data-access/schema/ContractChecks"
import { type Context, type Family, isWrite, type Op, skipped, type Suite } from "../../context.js"
import type { Probe } from "./probe.js"
import { probesOf } from "./probes.js"

const CHECKS: ReadonlyArray<CheckId> = [
  "no-server-errors",
  "error-shape",
  "valid-accepted",
  "invalid-rejected",
  "create-echo",
  "update-semantics",
  "protocol",
  "stable-reads"
]

/** The checks that judge an operation of each kind: a create's echo, an update's semantics. */
const checksOf = (op: Op): ReadonlyArray<CheckId> =>
  CHECKS.filter(
    (c) =>
      (c !== "create-echo" || op.kind === "create") &&
      (c !== "update-semantics" || op.kind === "update")
  )

const latitudeSuite = (op: Op, ctx: Context): Suite => {
  const checks = checksOf(op)
  if (ctx.readOnly && isWrite(op))
    return skipped("latitude", op.method, checks, true, "read-only mode")
  const { probes } = probesOf(op, ctx)
  return {
    family: "latitude",
    method: op.method,
    checks,
    writes: isWrite(op),
    skip: undefined,
    cases: { _tag: "Enumerated", count: probes.length, at: (i) => probes[i] },
    run: (probe: Probe) => probe.run
  }
}

export const latitude: Family = {
  name: "latitude",
  checks: CHECKS,
  suites: (op, ctx) => [latitudeSuite(op, ctx)]
}
