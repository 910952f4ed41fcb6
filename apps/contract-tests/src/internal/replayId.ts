/** The implementation of `ReplayId` (see that module's documentation). */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { isCheckId } from "@data-access/schema/ContractChecks"
import { type AnyCheckId, isCustomCheckId } from "./checkIds.js"

/**
 * The parts of a replay id.
 *
 * @since 0.1.0
 * @category models
 */
export interface ReplayId {
  /** The suite family (`valid`, `invalid`, `auth`...). */
  readonly family: string
  /** The operation's method name, or `_` for cases not tied to one operation. */
  readonly method: string
  /** A built-in check, or a custom one (`Hooks`; its id has dots). */
  readonly check: AnyCheckId
  readonly seed: number
  /** fast-check's counterexample path: `index` or `index:shrink:shrink...`. */
  readonly path: string
}

/**
 * A replay id that could not be read.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidReplayId extends Schema.TaggedError<InvalidReplayId>(
  "@data-access/contract-tests/InvalidReplayId"
)("InvalidReplayId", { id: Schema.String, reason: Schema.String }) {
  override get message(): string {
    return `invalid replay id ${JSON.stringify(this.id)}: ${this.reason}`
  }
}

const VERSION = "ct1"
const word = /^[A-Za-z_][A-Za-z0-9_-]*$/

/**
 * Writes a replay id.
 *
 * @since 0.1.0
 * @category encoding
 */
export const encode = (r: ReplayId): string =>
  [VERSION, r.family, r.method, r.check, String(r.seed), r.path].join(".")

/**
 * Reads a replay id.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode = (id: string): Either.Either<ReplayId, InvalidReplayId> => {
  const fail = (reason: string) => Either.left(new InvalidReplayId({ id, reason }))
  const parts = id.trim().split(".")
  if (parts.length < 6) return fail("expected ct1.<family>.<method>.<check>.<seed>.<path>")
  const [version, family, method] = parts as [string, string, string]
  // A custom check's id has dots of its own: the check is every part between method and seed.
  const check = parts.slice(3, -2).join(".")
  const [seed, path] = parts.slice(-2) as [string, string]
  if (version !== VERSION) return fail(`unknown version ${JSON.stringify(version)}`)
  if (!word.test(family)) return fail("bad family")
  if (!word.test(method)) return fail("bad method")
  if (!isCheckId(check) && !isCustomCheckId(check))
    return fail(`unknown check ${JSON.stringify(check)}`)
  if (!/^-?[0-9]{1,10}$/.test(seed) || !Number.isSafeInteger(Number(seed))) return fail("bad seed")
  if (!/^[0-9]+(:[0-9]+)*$/.test(path)) return fail("bad path")
  return Either.right({ family, method, check, seed: Number(seed), path })
}
