/**
 * The code of the `Store` module, which re-exports it.
 */
import { Timestamp } from "@data-access/schema"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Cause from "effect/Cause"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { CollectionName, Json } from "./collections.js"

/**
 * The store's operations. Every write goes through one lock, so concurrent writes lose nothing.
 *
 * @since 0.1.0
 * @category models
 */
export interface StoreService {
  /** One object by id. */
  readonly get: (collection: CollectionName, id: string) => Effect.Effect<Json | undefined>
  /** Every object of a collection, ascending by `createdAt`, ties by `id`. */
  readonly all: (collection: CollectionName) => Effect.Effect<ReadonlyArray<Json>>
  /** Inserts the objects, replacing those with the same id. */
  readonly put: (collection: CollectionName, objects: ReadonlyArray<Json>) => Effect.Effect<void>
  /** Replaces one object with what `f` makes of it, atomically. `undefined` when the id names nothing. */
  readonly modify: <E>(
    collection: CollectionName,
    id: string,
    f: (current: Json) => Effect.Effect<Json, E>
  ) => Effect.Effect<Json | undefined, E>
  /** Number of objects in every collection. */
  readonly size: Effect.Effect<number>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class Store extends Context.Tag("@data-access/reference-server/Store")<
  Store,
  StoreService
>() {}

const SECONDS_OFFSET = 62135596800n

/**
 * The ordering key of an object: its `createdAt` as a fixed-width number of nanoseconds since
 * 0001-01-01 (comparable as a string); `""` when it has none.
 *
 * @since 0.1.0
 * @category ordering
 */
export const sortKey = (object: Json): string => sortKeys.get(object) ?? remember(object)

// Stored objects never change in place, so their keys are computed once.
const sortKeys = new WeakMap<Json, string>()

const remember = (object: Json): string => {
  const key = computeSortKey(object)
  sortKeys.set(object, key)
  return key
}

const computeSortKey = (object: Json): string => {
  const createdAt = object.createdAt
  if (typeof createdAt !== "string") return ""
  const t = Timestamp.parse(createdAt)
  if (typeof t === "string") return ""
  const key = ((BigInt(t.seconds) + SECONDS_OFFSET) * 1_000_000_000n + BigInt(t.nanos)).toString()
  return key.padStart(21, "0")
}

/**
 * Compares two objects by (`createdAt`, `id`).
 *
 * @since 0.1.0
 * @category ordering
 */
export const compareKeys = (ka: string, ia: string, kb: string, ib: string): number => {
  if (ka !== kb) return ka < kb ? -1 : 1
  return ia < ib ? -1 : ia > ib ? 1 : 0
}

interface Entry {
  readonly id: string
  readonly key: string
  data: Json
}

/**
 * A store in memory.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeMemory: Effect.Effect<StoreService> = Effect.gen(function* () {
  const lock = yield* Effect.makeSemaphore(1)
  const tables = new Map<
    CollectionName,
    {
      byId: Map<string, Entry>
      sorted: Array<Entry> | undefined
      view: ReadonlyArray<Json> | undefined
    }
  >()
  const table = (c: CollectionName) => {
    let t = tables.get(c)
    if (!t) {
      t = { byId: new Map(), sorted: undefined, view: undefined }
      tables.set(c, t)
    }
    return t
  }
  const sorted = (c: CollectionName) => {
    const t = table(c)
    t.sorted ??= [...t.byId.values()].sort((a, b) => compareKeys(a.key, a.id, b.key, b.id))
    return t
  }
  return {
    get: (c, id) => Effect.sync(() => table(c).byId.get(id)?.data),
    all: (c) =>
      Effect.sync(() => {
        const t = sorted(c)
        t.view ??= t.sorted!.map((e) => e.data)
        return t.view
      }),
    put: (c, objects) =>
      lock.withPermits(1)(
        Effect.sync(() => {
          const t = table(c)
          for (const o of objects) {
            const id = String(o.id)
            t.byId.set(id, { id, key: sortKey(o), data: o })
          }
          t.sorted = undefined
          t.view = undefined
        })
      ),
    modify: (c, id, f) =>
      lock.withPermits(1)(
        Effect.gen(function* () {
          const t = table(c)
          const entry = t.byId.get(id)
          if (!entry) return undefined
          const next = yield* f(entry.data)
          const key = sortKey(next)
          if (key === entry.key) {
            entry.data = next
            t.view = undefined
            return next
          }
          t.byId.set(id, { id, key, data: next })
          t.sorted = undefined
          t.view = undefined
          return next
        })
      ),
    size: Effect.sync(() => {
      let n = 0
      for (const t of tables.values()) n += t.byId.size
      return n
    })
  }
})

/**
 * The store in memory.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory: Layer.Layer<Store> = Layer.effect(Store, makeMemory)

/**
 * A store over a `SqlClient` (SQLite): one table, `objects`, keyed by collection and id.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeSql: Effect.Effect<StoreService, never, SqlClient.SqlClient> = Effect.gen(
  function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE IF NOT EXISTS objects (
    collection TEXT NOT NULL,
    id TEXT NOT NULL,
    sort_key TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (collection, id)
  )`.pipe(Effect.orDie)
    yield* sql`CREATE INDEX IF NOT EXISTS objects_order ON objects (collection, sort_key, id)`.pipe(
      Effect.orDie
    )
    const lock = yield* Effect.makeSemaphore(1)
    const parse = (rows: ReadonlyArray<{ readonly data: string }>) =>
      rows.map((r) => JSON.parse(r.data) as Json)
    const upsert = (c: CollectionName, o: Json) =>
      sql`INSERT INTO objects (collection, id, sort_key, data) VALUES (${c}, ${String(o.id)}, ${sortKey(o)}, ${JSON.stringify(o)})
        ON CONFLICT (collection, id) DO UPDATE SET sort_key = excluded.sort_key, data = excluded.data`
    const get = (c: CollectionName, id: string) =>
      sql<{ data: string }>`SELECT data FROM objects WHERE collection = ${c} AND id = ${id}`.pipe(
        Effect.map((rows) => parse(rows)[0]),
        Effect.orDie
      )
    return {
      get,
      all: (c) =>
        sql<{
          data: string
        }>`SELECT data FROM objects WHERE collection = ${c} ORDER BY sort_key, id`.pipe(
          Effect.map(parse),
          Effect.orDie
        ),
      put: (c, objects) => {
        const writes = Effect.forEach(objects, (o) => upsert(c, o), { discard: true })
        return lock.withPermits(1)(sql.withTransaction(writes).pipe(Effect.orDie))
      },
      modify: (c, id, f) =>
        lock.withPermits(1)(
          Effect.gen(function* () {
            const current = yield* get(c, id)
            if (current === undefined) return undefined
            const next = yield* f(current)
            yield* upsert(c, next).pipe(Effect.orDie)
            return next
          })
        ),
      size: sql<{ n: number }>`SELECT COUNT(*) AS n FROM objects`.pipe(
        Effect.map((rows) => Number(rows[0]?.n ?? 0)),
        Effect.orDie
      )
    }
  }
)

/**
 * What the SQLite store needs and the application has not installed: `@effect/sql-sqlite-node`
 * (an optional peer dependency) or `better-sqlite3` (which it brings), or `better-sqlite3` is
 * installed without its native addon (its build was not allowed: `pnpm approve-builds`).
 *
 * @since 0.1.0
 * @category errors
 */
export class SqliteUnavailableError extends Data.TaggedError("SqliteUnavailableError")<{
  /** The package to add (or to build). */
  readonly packageName: string
  readonly reason: "NotInstalled" | "NotBuilt"
  readonly cause: unknown
}> {
  override get message() {
    return this.reason === "NotInstalled"
      ? `the SQLite store needs ${this.packageName}, which is not installed: add it with \`npm install ${installSpec(this.packageName)}\` or \`pnpm add ${installSpec(this.packageName)}\``
      : `the SQLite store needs the native addon of ${this.packageName}, which was not built (the package manager did not run its install script): allow its install script and install again (pnpm: \`pnpm approve-builds\`; npm: \`allowScripts\` in package.json)`
  }
}

/** The optional peer dependency, with the range this package supports (Effect 3). */
const SQLITE_PACKAGE = "@effect/sql-sqlite-node"
const installSpec = (packageName: string) =>
  packageName === SQLITE_PACKAGE ? `${SQLITE_PACKAGE}@^0.53` : packageName

/** `import()` of the SQLite client, with a missing package as a `SqliteUnavailableError`. */
const importSqlite = Effect.tryPromise({
  try: () => import("@effect/sql-sqlite-node/SqliteClient"),
  catch: (cause) =>
    new SqliteUnavailableError({
      packageName:
        /Cannot find (?:package|module) '([^']+)'/.exec(String(cause))?.[1] ?? SQLITE_PACKAGE,
      reason: "NotInstalled",
      cause
    })
})

/** What better-sqlite3 throws (a defect of the layer) when its compiled addon is missing. */
const isAddonMissing = (defect: unknown) =>
  defect instanceof Error && defect.message.includes("better_sqlite3.node")

/**
 * The store in a SQLite file (created when missing). `@effect/sql-sqlite-node` is imported when
 * the layer is built; without it the layer fails with a `SqliteUnavailableError`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerSqlite = (
  filename: string
): Layer.Layer<Store, ConfigError.ConfigError | SqliteUnavailableError> =>
  Layer.unwrapEffect(
    Effect.map(importSqlite, (SqliteClient) =>
      Layer.effect(Store, makeSql).pipe(Layer.provide(SqliteClient.layer({ filename })))
    )
  ).pipe(
    Layer.catchAllCause((cause) =>
      Option.match(Option.filter(Cause.dieOption(cause), isAddonMissing), {
        onNone: () => Layer.failCause(cause),
        onSome: (defect) =>
          Layer.fail(
            new SqliteUnavailableError({
              packageName: "better-sqlite3",
              reason: "NotBuilt",
              cause: defect
            })
          )
      })
    )
  )
