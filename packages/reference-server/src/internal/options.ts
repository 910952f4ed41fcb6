/**
 * The reference server's options and what a started server offers, shared by the code of the
 * public face (`referenceServer.ts`) and the internal modules that start it, so that neither
 * imports the other.
 *
 * @internal
 */
import type { KnownIds } from "@data-access/schema"
import type * as Effect from "effect/Effect"
import type * as Faults from "./faults.js"
import type * as FixturesModule from "./fixtures.js"
import type * as LatitudeModule from "./latitudeSelection.js"
import type * as Store from "./store.js"
import type { RecordedRequest } from "./pipeline-types.js"

/** Decoded fixtures (see `Fixtures.Fixtures`); every collection optional. */
export type Fixtures = FixturesModule.FixturesInput

/** Where the server keeps its objects. */
export type StoreOption =
  { readonly _tag: "Memory" } | { readonly _tag: "Sqlite"; readonly filename: string }

/** The options of `ReferenceServer.start`. */
export interface Options {
  /** Default 0: an ephemeral port. */
  readonly port?: number
  /** Default `127.0.0.1`. */
  readonly host?: string
  /** Default `["reference-key"]`. */
  readonly apiKeys?: ReadonlyArray<string>
  /** Default: in memory. */
  readonly store?: StoreOption
  /** What an empty store is seeded with. Default `"demo"`. A store that already holds objects is not seeded. */
  readonly data?: "demo" | "empty" | Fixtures
  /** Objects written into the store at start (after `data`), replacing those with the same id. */
  readonly fixtures?: Fixtures
  /** Default: no faults. */
  readonly faults?: Faults.FaultPlan
  /** Write every field, zero values too. Default false: proto3 JSON output. */
  readonly emitDefaults?: boolean
  /** Largest request body. Default 4 MiB. */
  readonly maxBodyBytes?: number
  /** Log one structured line per request (method, code, duration, request id). Default false. */
  readonly logRequests?: boolean
  /** Open a tracing span per request (`http.server <METHOD>`, under the request's `traceparent`, as `@effect/platform`'s HTTP tracer opens one). Default false: the request log and `X-Request-Id` identify requests. */
  readonly tracing?: boolean
  /**
   * Latitude switches to turn on (see `latitude`): where decisions.md section 10 lets a faithful
   * server choose, each makes the other choice. `"all"` turns every one on. Default: none.
   */
  readonly latitude?: LatitudeModule.Selection | undefined
}

/** A running server (or its in-process twin). */
export interface Running {
  /** `http://HOST:PORT`, no trailing slash. */
  readonly url: string
  readonly apiKeys: ReadonlyArray<string>
  /** Every object the store held once started. */
  readonly knownIds: KnownIds.KnownIds
  /** Replaces the fault plan. */
  readonly setFaults: (plan: Faults.FaultPlan) => Effect.Effect<void>
  /** What the server saw, oldest first (the last 10,000 requests). */
  readonly requests: Effect.Effect<ReadonlyArray<RecordedRequest>>
  /** Writes objects into the store (replacing those with the same id); returns the ids the store now holds. */
  readonly seed: (fixtures: Fixtures) => Effect.Effect<KnownIds.KnownIds>
  /** The ids the store holds now. */
  readonly currentKnownIds: Effect.Effect<KnownIds.KnownIds>
  /** The store itself, for assertions. */
  readonly store: Store.StoreService
  /** The latitude switches that are on, in the order of `latitude`. */
  readonly latitude: ReadonlyArray<LatitudeModule.LatitudeName>
}

/** What a `StartError` carries: why the server could not start. */
export interface StartFailure {
  /** `Worker`: the thread of `startInWorker` could not start, or ended before the server listened. */
  readonly reason: "Listen" | "Store" | "Fixtures" | "Latitude" | "Worker"
  readonly message: string
  /** The package the store needs and could not load (`@effect/sql-sqlite-node`, `better-sqlite3`). */
  readonly packageName?: string
  readonly cause?: unknown
}

/** The default API key. */
export const DEFAULT_API_KEY = "reference-key"

/** The default body size limit: 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024
