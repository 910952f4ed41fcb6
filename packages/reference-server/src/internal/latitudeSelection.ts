/**
 * The code of the `Latitude` module, which re-exports it.
 */
import { ContractRules } from "@data-access/schema"
import * as Data from "effect/Data"
import * as Either from "effect/Either"

/**
 * Every switch: its name, the topic of decisions.md section 10, what the server does by default
 * and what it does with the switch on.
 *
 * @since 0.2.0
 * @category latitude
 */
export const latitude: typeof ContractRules.latitude = ContractRules.latitude

/**
 * A switch name (`unique-names`).
 *
 * @since 0.2.0
 * @category models
 */
export type LatitudeName = ContractRules.LatitudeName

/**
 * The switches to turn on: some, or `"all"`.
 *
 * @since 0.2.0
 * @category models
 */
export type Selection = ReadonlyArray<LatitudeName> | "all"

/**
 * Every switch name, in the order of the table.
 *
 * @since 0.2.0
 * @category latitude
 */
export const names: ReadonlyArray<LatitudeName> = ContractRules.latitudeNames

const known: ReadonlySet<string> = new Set(names)

/**
 * Whether a string names a switch.
 *
 * @since 0.2.0
 * @category guards
 */
export const isLatitudeName = (s: string): s is LatitudeName => known.has(s)

/**
 * Names that name no switch.
 *
 * @since 0.2.0
 * @category errors
 */
export class UnknownLatitudeError extends Data.TaggedError("UnknownLatitudeError")<{
  readonly unknown: ReadonlyArray<string>
  /** Names the unknown ones and lists the known ones. */
  readonly message: string
}> {}

const unknownError = (unknown: ReadonlyArray<string>) =>
  new UnknownLatitudeError({
    unknown,
    message: `unknown latitude switch ${unknown.map((n) => JSON.stringify(n)).join(", ")}; known: ${names.join(", ")}, or all`
  })

/**
 * Reads switch names as a command line gives them: each entry one name, several separated by
 * commas, or `all`. No entry at all selects none.
 *
 * @example
 * ```ts
 * import { Latitude } from "@data-access/reference-server"
 *
 * Latitude.parse(["unique-names,strict-formats", "return-secrets"]) // Right(["unique-names", "strict-formats", "return-secrets"])
 * Latitude.parse(["all"]) // Right("all")
 * ```
 *
 * @since 0.2.0
 * @category parsing
 */
export const parse = (
  entries: ReadonlyArray<string>
): Either.Either<Selection, UnknownLatitudeError> => {
  const given = entries
    .flatMap((e) => e.split(","))
    .map((n) => n.trim())
    .filter((n) => n !== "")
  if (given.includes("all")) return Either.right("all")
  const unknown = given.filter((n) => !isLatitudeName(n))
  if (unknown.length > 0) return Either.left(unknownError(unknown))
  return Either.right([...new Set(given as ReadonlyArray<LatitudeName>)])
}

/**
 * The switch names a selection turns on (unknown names, from untyped callers, fail).
 *
 * @since 0.2.0
 * @category parsing
 */
export const resolve = (
  selection: Selection | undefined
): Either.Either<ReadonlySet<LatitudeName>, UnknownLatitudeError> => {
  if (selection === undefined) return Either.right(new Set())
  if (selection === "all") return Either.right(new Set(names))
  const unknown = selection.filter((n) => !isLatitudeName(n))
  return unknown.length > 0 ? Either.left(unknownError(unknown)) : Either.right(new Set(selection))
}
