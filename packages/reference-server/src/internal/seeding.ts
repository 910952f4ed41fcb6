/**
 * What a store is seeded with at start (the `data` and `fixtures` options) and by `Running.seed`.
 * Start options, not answers of the API: the mutation run leaves this module out (the judges'
 * stores start empty and hold the demo data; the reference server's own tests judge the rest).
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as FixturesModule from "./fixtures.js"
import type * as Store from "./store.js"
import { demoData } from "./demo.js"
import type { Fixtures, Options } from "./options.js"

/** Writes fixtures into the store, replacing the objects with the same id. */
export const seedInto = (store: Store.StoreService, fixtures: Fixtures) =>
  Effect.forEach(FixturesModule.encode(fixtures), ([c, objects]) => store.put(c, objects), {
    discard: true
  })

/** Seeds an empty store with `data` (default: the demo data), then writes the `fixtures`. */
export const seed = (store: Store.StoreService, options: Options) =>
  Effect.gen(function* () {
    const data = options.data ?? "demo"
    if ((yield* store.size) === 0) {
      if (data === "demo") {
        // The demo data is built in its normalized form (test/demo.test.ts), so it is stored as it
        // is. Each object is copied, as the normalized ones were, because the data set shares
        // nested objects between them.
        for (const [c, objects] of demoData())
          yield* store.put(
            c,
            objects.map((o) => structuredClone(o))
          )
      }
      if (data !== "demo" && data !== "empty") yield* seedInto(store, data)
    }
    if (options.fixtures) yield* seedInto(store, options.fixtures)
  })
