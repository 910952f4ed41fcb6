/**
 * The server without its transport: the options read, the store opened and seeded, the request
 * log and the pipeline over them. `start` serves it on a socket, `layerHttpClient` in process,
 * `domain` to another stack's protocol.
 *
 * @internal
 */
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as Collections from "./collections.js"
import * as Faults from "./faults.js"
import * as FixturesModule from "./fixtures.js"
import * as LatitudeModule from "./latitudeSelection.js"
import * as Store from "./store.js"
import { type AppState, hashKeys, makeApp } from "./app.js"
import {
  DEFAULT_API_KEY,
  DEFAULT_MAX_BODY_BYTES,
  type Options,
  type Running,
  type StartFailure
} from "./options.js"
import type { Input, Output } from "./pipeline-types.js"
import { makeRequestLog } from "./requestLog.js"
import { seed, seedInto } from "./seeding.js"

/** The server's pipeline and what a started server offers (but its URL). */
export interface Core {
  readonly handle: (input: Input) => Effect.Effect<Output>
  readonly running: Omit<Running, "url">
}

/** The ids of every object the store holds. */
const allOf = (store: Store.StoreService) =>
  Effect.gen(function* () {
    const all = new Map<Collections.CollectionName, ReadonlyArray<Collections.Json>>()
    for (const c of Collections.names) all.set(c, yield* store.all(c))
    return FixturesModule.knownIdsOf((c) => all.get(c) ?? [])
  })

/** Opens the store in the current scope and builds the pipeline; `fail` makes the start error. */
export const makeCore = <E>(
  options: Options,
  fail: (failure: StartFailure) => E
): Effect.Effect<Core, E, Scope.Scope> =>
  Effect.gen(function* () {
    const apiKeys = options.apiKeys ?? [DEFAULT_API_KEY]
    const on = yield* Either.mapLeft(LatitudeModule.resolve(options.latitude), (e) =>
      fail({ reason: "Latitude", message: e.message })
    )
    const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
    const storeLayer =
      options.store?._tag === "Sqlite"
        ? Store.layerSqlite(options.store.filename)
        : Store.layerMemory
    const scope = yield* Effect.scope
    const storeContext = yield* Layer.buildWithScope(storeLayer, scope).pipe(
      Effect.catchAllCause((cause) =>
        Effect.fail(
          Option.match(
            Option.filter(
              Cause.failureOption(cause),
              (e) => e instanceof Store.SqliteUnavailableError
            ),
            {
              onNone: () =>
                fail({ reason: "Store", message: "the store could not be opened", cause }),
              onSome: (e) =>
                fail({ reason: "Store", message: e.message, packageName: e.packageName, cause: e })
            }
          )
        )
      )
    )
    const store = Context.get(storeContext, Store.Store)
    yield* seed(store, options).pipe(
      Effect.catchAllDefect((cause) =>
        Effect.fail(
          fail({ reason: "Fixtures", message: "the fixtures could not be stored", cause })
        )
      )
    )
    const knownIds = yield* allOf(store)
    const log = makeRequestLog(options)
    const state: AppState = {
      store,
      apiKeyHashes: hashKeys(apiKeys),
      emitDefaults: options.emitDefaults === true,
      maxBodyBytes,
      latitude: on,
      injector: Faults.makeInjector(options.faults ?? Faults.none),
      onRequest: log.onRequest
    }
    return {
      handle: makeApp(state),
      running: {
        apiKeys,
        knownIds,
        setFaults: (plan) =>
          Effect.sync(() => {
            state.injector = Faults.makeInjector(plan)
          }),
        requests: log.requests,
        seed: (fixtures) => Effect.zipRight(seedInto(store, fixtures), allOf(store)),
        currentKnownIds: allOf(store),
        store,
        latitude: LatitudeModule.names.filter((n) => on.has(n))
      }
    }
  })
