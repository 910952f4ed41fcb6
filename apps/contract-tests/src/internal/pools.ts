/**
 * Existing object ids (fixtures and discovery) and the rules that tie request fields to them,
 * so that a generated valid request references objects that exist.
 */
import * as Schema from "effect/Schema"
import { KnownIds, type Operations, SchemaWalk } from "@data-access/schema"
import { identifierOf } from "./ast.js"

type Op = Operations.Operation

/** Ids by pool name (the `KnownIds` list names), plus users and native users per resource. */
export interface Pools {
  readonly ids: Readonly<Record<string, ReadonlyArray<string>>>
  readonly users: ReadonlyArray<Schema.Schema.Type<typeof KnownIds.KnownUser>>
  /** Native user ids by resource id, from ListNativeUsers. */
  readonly nativeUsersByResource: ReadonlyMap<string, ReadonlyArray<string>>
}

type KnownUser = Schema.Schema.Type<typeof KnownIds.KnownUser>

/** The list names of `KnownIds` that hold plain ids. */
export const idPoolNames: ReadonlyArray<string> = Object.keys(KnownIds.KnownIds.fields).filter(
  (k) => k !== "users"
)

/** `Resource` → `resources`, when `KnownIds` has that list. */
export const poolOfIdentifier = (identifier: string | undefined): string | undefined => {
  if (identifier === undefined) return undefined
  const name = identifier.charAt(0).toLowerCase() + identifier.slice(1) + "s"
  return idPoolNames.includes(name) ? name : undefined
}

/** The pool of the objects an operation returns (`GetResource` → `resources`). */
export const poolOfOperation = (op: Op): string | undefined =>
  poolOfIdentifier(identifierOf(op.object.ast))

/** Whether an operation's object is named by the `users` of KnownIds (the user a password is made for). */
const isUserOperation = (op: Op): boolean => {
  const props = requestPropertyNames(op)
  return (
    poolOfOperation(op) === undefined &&
    props.includes("email") &&
    props.includes("username") &&
    props.includes("id")
  )
}

/** The top-level field names of an operation's request (wire spelling). */
export const requestPropertyNames = (op: Op): ReadonlyArray<string> => [
  ...SchemaWalk.requestFields(op).keys()
]

/** Pools from a KnownIds document. */
export const fromKnownIds = (k: KnownIds.KnownIds): Pools => ({
  ids: Object.fromEntries(
    idPoolNames.map((n) => [
      n,
      [...((k as unknown as Record<string, ReadonlyArray<string>>)[n] ?? [])]
    ])
  ),
  users: [...(k.users ?? [])],
  nativeUsersByResource: new Map()
})

/** How one request field gets an existing value. */
export type Reference =
  | { readonly _tag: "Pool"; readonly pool: string }
  | { readonly _tag: "User"; readonly field: "id" | "email" | "username" }
  | { readonly _tag: "Identity" }

/**
 * The reference rule of a request field, by its name:
 * `<x>Id` → the `<x>s` list; `keyId` → `encryptionKeyIds`; `identityId` → the list of its
 * `identityType`; `id` → the list of the objects the operation returns; `id` / `email` /
 * `username` of a user operation → the known users.
 */
export const referenceOf = (op: Op, field: string): Reference | undefined => {
  if (isUserOperation(op) && (field === "id" || field === "email" || field === "username"))
    return { _tag: "User", field }
  if (field === "id") {
    const pool = op.kind === "get" || op.kind === "update" ? poolOfOperation(op) : undefined
    return pool === undefined ? undefined : { _tag: "Pool", pool }
  }
  if (field === "keyId") return { _tag: "Pool", pool: "encryptionKeyIds" }
  if (field === "identityId") return { _tag: "Identity" }
  const m = /^([a-z][A-Za-z]*)Id$/.exec(field)
  if (m !== null) {
    const pool = poolOfIdentifier(m[1]!.charAt(0).toUpperCase() + m[1]!.slice(1))
    return pool === undefined ? undefined : { _tag: "Pool", pool }
  }
  return undefined
}

/** The identity list for an `identityType`: `group` → groups, `user` → users, `resource_hostname` → connector hostnames. */
export const identityValues = (pools: Pools, identityType: string): ReadonlyArray<string> => {
  switch (identityType) {
    case "group":
      return pools.ids.groups ?? []
    case "user":
      return pools.users.map((u) => u.id)
    case "resource_hostname":
      return pools.ids.connectorHostnames ?? []
    default:
      return []
  }
}

/** The existing values a reference can take. */
export const valuesOf = (pools: Pools, ref: Reference): ReadonlyArray<string> => {
  switch (ref._tag) {
    case "Pool":
      return pools.ids[ref.pool] ?? []
    case "User":
      return pools.users.map((u: KnownUser) => u[ref.field])
    case "Identity":
      return [...(pools.ids.groups ?? []), ...pools.users.map((u) => u.id)]
  }
}

/** A reference for people (`resources ids`). */
export const describeReference = (ref: Reference): string =>
  ref._tag === "Pool"
    ? `${ref.pool} ids`
    : ref._tag === "User"
      ? "users"
      : "groups or users for identityId"
