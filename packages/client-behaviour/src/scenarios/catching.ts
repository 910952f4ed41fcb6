/**
 * Client errors against the real reference server: each names its operation at the start of its
 * message and in its `operation` field, and the line's `ClientError.catchCodes` handles the
 * `ConnectError`s of its codes only, after the call's retries, letting every other error through.
 */
import type { Outcome } from "../model.js"
import type { Scenario, ScenarioCall } from "../scenario.js"
import { expectCall, REFUSED_URL, server } from "../scenario.js"
import { getResource } from "./calls.js"

const GET = "ResourceService/GetResource"
const LIST = "SatelliteService/ListSatellites"

const listSatellites = (request: unknown, more: Partial<ScenarioCall> = {}): ScenarioCall => ({
  method: "ListSatellites",
  request,
  retry: "none",
  ...more
})

/** A failure whose error has these fields and whose printed form starts its message with `says`. */
const failed = (
  error: Readonly<Record<string, unknown>>,
  says: string,
  neverShows?: string
): Outcome => ({
  _tag: "Failure",
  error,
  says,
  ...(neverShows !== undefined ? { neverShows } : {})
})

const caught = (code: string, operation: string): Outcome => ({
  _tag: "Success",
  value: { caught: code, operation }
})

export const catching: ReadonlyArray<Scenario> = [
  {
    name: "every client error names its operation in its message and its operation field, and no secret",
    servers: {
      main: {},
      wrongType: {
        faults: { rules: [{ fault: { _tag: "Violation", name: "wrong-field-type" } }] }
      },
      // Its deadline checked only before the work (a section 10 choice), so the server never
      // answers within the client's 300 ms and the client's own timer is what ends the call.
      slow: {
        faults: { rules: [{ methods: ["GetResource"], fault: { _tag: "Latency", millis: 3000 } }] },
        latitude: ["lenient-deadline"]
      }
    },
    *run(context) {
      const { expect } = context
      const main = server(context)
      const key = main.apiKey
      const connect = (code: string) => ({ _tag: "ConnectError", code, operation: GET })
      const notFound = yield* expectCall(
        getResource("resource_does_not_exist"),
        failed(connect("not_found"), `${GET}: [not_found]`, key),
        expect
      )
      // The server's own message is kept apart, as it wrote it.
      const error = (notFound.result as { readonly error: Record<string, unknown> }).error
      expect(error["rawMessage"]).toBeTypeOf("string")
      expect(String(error["message"])).toContain(String(error["rawMessage"]))
      expect(String(error["rawMessage"])).not.toContain(GET)
      yield* expectCall(
        getResource(main.knownIds.resources[0]!, { apiKey: "not-a-key" }),
        failed(connect("unauthenticated"), `${GET}: [unauthenticated]`, "not-a-key"),
        expect
      )
      yield* expectCall(
        listSatellites({ limit: 5, cursor: "bogus" }),
        failed(
          { _tag: "ConnectError", code: "invalid_argument", operation: LIST },
          `${LIST}: [invalid_argument]`,
          key
        ),
        expect
      )
      yield* expectCall(
        listSatellites({ limit: 0 }),
        failed(
          { _tag: "InvalidRequestError", operation: LIST, path: "$.limit" },
          `${LIST}: $.limit`,
          key
        ),
        expect
      )
      yield* expectCall(
        getResource(main.knownIds.resources[0]!, { baseUrl: () => REFUSED_URL }),
        failed(
          { _tag: "TransportError", operation: GET },
          `${GET}: the connection could not be opened`,
          key
        ),
        expect
      )
      const wrongType = server(context, "wrongType")
      yield* expectCall(
        getResource(wrongType.knownIds.resources[0]!, { server: "wrongType" }),
        failed(
          { _tag: "DecodeError", operation: GET, path: "$.resource.id" },
          `${GET}: $.resource.id`,
          wrongType.apiKey
        ),
        expect
      )
      const slow = server(context, "slow")
      yield* expectCall(
        getResource(slow.knownIds.resources[0]!, { server: "slow", timeout: 300 }),
        failed(
          { _tag: "TimeoutError", operation: GET, scope: "overall" },
          `${GET}: the overall deadline of 300 ms ran out`,
          slow.apiKey
        ),
        expect
      )
    }
  },
  {
    name: "catchCodes handles the ConnectErrors of its codes, after the retries, and lets every other error through",
    servers: {
      main: {},
      bare: { faults: { rules: [{ fault: { _tag: "BareStatus", status: 502 } }] } }
    },
    *run(context) {
      const { expect } = context
      const id = server(context).knownIds.resources[0]!
      const missing = getResource("resource_does_not_exist", { catchCodes: ["not_found"] })
      const found = yield* expectCall(missing, caught("not_found", GET), expect)
      const value = (found.result as { readonly value: { readonly message: string } }).value
      expect(value.message).toContain(`${GET}: [not_found]`)
      // A code without a handler stays in the error channel, untouched.
      yield* expectCall(
        getResource("resource_does_not_exist", { catchCodes: ["already_exists", "aborted"] }),
        { _tag: "Failure", error: { _tag: "ConnectError", code: "not_found", operation: GET } },
        expect
      )
      yield* expectCall(
        getResource(id, { apiKey: "not-a-key", catchCodes: ["not_found", "unauthenticated"] }),
        caught("unauthenticated", GET),
        expect
      )
      yield* expectCall(
        listSatellites({ limit: 5, cursor: "bogus" }, { catchCodes: ["invalid_argument"] }),
        caught("invalid_argument", LIST),
        expect
      )
      // The errors that are no ConnectError pass through whatever the codes.
      yield* expectCall(
        listSatellites({ limit: 0 }, { catchCodes: ["invalid_argument"] }),
        { _tag: "Failure", error: { _tag: "InvalidRequestError", operation: LIST } },
        expect
      )
      yield* expectCall(
        getResource(id, { baseUrl: () => REFUSED_URL, catchCodes: ["unavailable"] }),
        { _tag: "Failure", error: { _tag: "TransportError", phase: "connect" } },
        expect
      )
      // A bare 502 is unavailable once the retries are spent: the handler sees the last error.
      const retried = yield* expectCall(
        getResource("x", {
          server: "bare",
          retry: { _tag: "exponential", retries: 2, baseMillis: 10, jitter: false },
          catchCodes: ["unavailable"]
        }),
        caught("unavailable", GET),
        expect
      )
      expect(retried.sent).toHaveLength(3)
    }
  }
]
