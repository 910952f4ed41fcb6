/**
 * The API key: a missing, empty or wrong `X-API-KEY` is unauthenticated on every operation, and
 * so is a key one step from the valid one (a character more or less, the case of its letters
 * swapped), which a server that compares a prefix or ignores case would take.
 */
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import type { CheckId } from "@data-access/schema/ContractChecks"
import {
  type Context,
  type Family,
  isWrite,
  type Op,
  send,
  skipped,
  type Suite
} from "../context.js"
import { post } from "../http.js"
import { type KeyMode, NEAR_KEY_MODES } from "../keys.js"
import * as Inspect from "../inspect.js"
import { wrongKey } from "../oracles/auth.js"
import type { Known } from "../refusalVerdict.js"
import { keyKept } from "../oracles/secrets.js"
import type { Outcome } from "../outcome.js"
import { sampleBody } from "./shared/sampleBodies.js"

/**
 * What the runner knows of a request with a wrong key: the key is not valid; when no valid body
 * could be made (no objects to reference), the body may break a must or name nothing too, and a
 * server may check the body before the key (decisions.md section 10).
 */
const knownOf = (valid: boolean): Known => ({
  keyValid: false,
  idsExist: valid,
  bodyKnown: valid
})

const CHECKS: ReadonlyArray<CheckId> = ["auth", "no-server-errors", "error-shape", "secrets"]

const authSuite = (op: Op, ctx: Context): Suite => {
  if (ctx.readOnly && isWrite(op)) return skipped("auth", op.method, CHECKS, true, "read-only mode")
  const modes: ReadonlyArray<KeyMode> = [
    "missing",
    "empty",
    "wrong",
    ...NEAR_KEY_MODES.filter((m) => ctx.target.sentKey(m) !== undefined)
  ]
  let sample: ReturnType<typeof sampleBody> | undefined
  return {
    family: "auth",
    method: op.method,
    checks: CHECKS,
    writes: isWrite(op),
    ordered: false,
    skip: undefined,
    cases: { _tag: "Enumerated", count: modes.length, at: (i) => modes[i] },
    run: (mode: KeyMode) =>
      Effect.suspend(() => {
        sample ??= sampleBody(op, ctx)
        const { body, valid } = sample
        return Effect.map(send(ctx, post(op.path, body, { key: mode })), (e) => {
          const out: Array<Outcome> = [Inspect.noServerErrors(e)]
          const shape = Inspect.errorShape(e)
          if (shape) out.push(shape)
          // The key sent, a wrong or near one included, is a secret no error message prints (decisions.md section 8).
          const sent = ctx.target.sentKey(mode)
          const leak = keyKept(sent === undefined ? undefined : Redacted.value(sent), e)
          if (leak) out.push(leak)
          const verdict = wrongKey(mode, e, knownOf(valid))
          if (verdict) out.push(verdict)
          return out
        })
      })
  }
}

export const auth: Family = {
  name: "auth",
  checks: CHECKS,
  suites: (op, ctx) => [authSuite(op, ctx)]
}
