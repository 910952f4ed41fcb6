/**
 * Composing: the hooks of the latitude switches and violations that are on, put on the stages of
 * the faithful pipeline. Without them the server keeps its default reading, which is as faithful
 * (decisions.md section 10), and a faithful server runs no violation: the marks
 * "hooks (compose.ts)" here and in `app.ts`.
 *
 * @internal
 */
import type { Json } from "./collections.js"
import type { Hooks, Op, Route, RouteStages, ServerStages } from "./pipeline-types.js"

const ROUTE_STAGES = [
  "parse",
  "relax",
  "decode",
  "validate",
  "pickIssue",
  "prepare",
  "handler",
  "respond",
  "error"
] as const satisfies ReadonlyArray<keyof RouteStages>
const SERVER_STAGES = [
  "resolve",
  "unknownRoute",
  "checks",
  "bodyLimit",
  "admit",
  "deadline",
  "writeError",
  "writeSuccess",
  "returnSecrets"
] as const satisfies ReadonlyArray<keyof ServerStages>

type AnyHook = (next: unknown, op?: Op, fields?: ReadonlySet<string>) => unknown

/** A pipeline: its routes and the stages around them, composed. */
export interface Pipeline {
  readonly routes: ReadonlyMap<string, Route>
  readonly stages: ServerStages
  readonly maxBodyBytes: number
  readonly write: (op: Op, body: Json) => Uint8Array
}

/** Puts the hooks on a route's stages; the first hooks given are the innermost. */
export const composeRoute = (route: Route, hooks: ReadonlyArray<Hooks>): Route => {
  const out: Record<string, unknown> = { ...route }
  for (const h of hooks) {
    for (const stage of ROUTE_STAGES) {
      const hook = h[stage] as AnyHook | undefined
      if (hook !== undefined) out[stage] = hook(out[stage], route.op, route.fields)
    }
  }
  return out as unknown as Route
}

export const composeStages = (stages: ServerStages, hooks: ReadonlyArray<Hooks>): ServerStages => {
  const out: Record<string, unknown> = { ...stages }
  for (const h of hooks) {
    for (const stage of SERVER_STAGES) {
      const hook = h[stage] as AnyHook | undefined
      if (hook !== undefined) out[stage] = hook(out[stage])
    }
  }
  return out as unknown as ServerStages
}
