/**
 * The clients' behaviour as data: a call, what the server or a fault does, what the caller sees.
 * Both Effect lines' tests run every case through a fake `HttpClient` and a `TestClock`.
 */
import { deadlines } from "./cases/deadlines.js"
import { errors } from "./cases/errors.js"
import { headers } from "./cases/headers.js"
import { paging } from "./cases/paging.js"
import { retries } from "./cases/retries.js"
import type { Case } from "./model.js"

/** Every case. */
export const cases: ReadonlyArray<Case> = [
  ...headers,
  ...errors,
  ...retries,
  ...deadlines,
  ...paging
]

/** The `@effect/vitest` functions a line's harness declares the shared tests with. */
export interface Tests<T> {
  readonly describe: (name: string, body: () => void) => void
  /** A test on the `TestClock` (`it.effect`). */
  readonly effect: (name: string, self: () => T) => void
  /** A test on the real clock (`it.live`). */
  readonly live: (name: string, self: () => T) => void
}

/** Declares a test per case, on the real clock for the `live` ones: `run` is the line's run of a case. */
export const testCases = <T>(tests: Tests<T>, run: (c: Case) => T): void =>
  tests.describe("behaviour (the shared cases)", () => {
    for (const c of cases) (c.live === true ? tests.live : tests.effect)(c.name, () => run(c))
  })
