/**
 * The worker thread of `ReferenceServer.startInWorker`: starts the server with the options it is
 * given (`workerData`), posts where it listens or why it did not start, and stops it when the
 * caller posts `Close`; the thread then ends.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import { parentPort, workerData } from "node:worker_threads"
import * as Fixtures from "./fixtures.js"
import * as ReferenceServer from "./referenceServer.js"
import type { FromWorker, WireFixtures, WireOptions } from "./worker-protocol.js"

if (parentPort === null)
  throw new Error(
    "@data-access/reference-server's worker runs in a worker thread (ReferenceServer.startInWorker)"
  )
const port = parentPort
const post = (message: FromWorker) => port.postMessage(message)

// Listening from the start: a `Close` may come while the server is still starting.
let close: () => void = () => {}
const closeRequested = new Promise<void>((resolve) => (close = resolve))
port.once("message", () => close())

const decode = (wire: WireFixtures) =>
  Fixtures.decodeUnknown(wire).pipe(
    Effect.mapError(
      (e) =>
        new ReferenceServer.StartError({
          reason: "Fixtures",
          message: `the fixtures could not be stored: ${e.message}`,
          cause: e
        })
    )
  )

const optionsOf = (wire: WireOptions<ReferenceServer.Options>) =>
  Effect.gen(function* () {
    const { data, fixtures, ...rest } = wire
    const options: ReferenceServer.Options = {
      ...rest,
      ...(data === undefined
        ? {}
        : { data: typeof data === "string" ? data : yield* decode(data) }),
      ...(fixtures === undefined ? {} : { fixtures: yield* decode(fixtures) })
    }
    return options
  })

const describe = (cause: unknown): string | undefined =>
  cause === undefined
    ? undefined
    : Cause.isCause(cause)
      ? Cause.pretty(cause)
      : cause instanceof Error
        ? cause.message
        : String(cause)

const program = Effect.gen(function* () {
  const server = yield* ReferenceServer.start(
    yield* optionsOf(workerData as WireOptions<ReferenceServer.Options>)
  )
  post({
    _tag: "Started",
    url: server.url,
    apiKeys: server.apiKeys,
    knownIds: server.knownIds,
    latitude: server.latitude
  })
  yield* Effect.promise(() => closeRequested)
}).pipe(Effect.scoped)

void Effect.runPromiseExit(program).then((exit) => {
  if (Exit.isFailure(exit)) {
    const failure: FromWorker = Option.match(Cause.failureOption(exit.cause), {
      onNone: () => ({
        _tag: "Failed",
        reason: "Worker",
        message: `the server's thread failed: ${Cause.pretty(exit.cause)}`
      }),
      onSome: (e) => {
        const cause = describe(e.cause)
        return {
          _tag: "Failed",
          reason: e.reason,
          message: e.message,
          ...(e.packageName === undefined ? {} : { packageName: e.packageName }),
          ...(cause === undefined ? {} : { cause })
        }
      }
    })
    post(failure)
  }
  port.close()
})
