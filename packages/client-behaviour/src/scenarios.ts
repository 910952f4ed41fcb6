/**
 * The integration tests of both clients, written once: scenarios against the real reference
 * server on a loopback port (on Effect 3 in process, on Effect 4 in a child process): every
 * operation, zero values, paging, every error code the server produces, retries, deadlines and
 * redaction.
 */
import type { Tests } from "./cases.js"
import type { Outcome } from "./model.js"
import { secretsIn, verifyAnswer, verifyNoLeak } from "./integration.js"
import { type RequestContext, requestFor } from "./requests.js"
import type { Scenario, ScenarioCall, ScenarioContext, ServerInfo, Step } from "./scenario.js"
import {
  expectCall,
  failure,
  log,
  recorded,
  REFUSED_URL,
  requests,
  server,
  value
} from "./scenario.js"
import { catching } from "./scenarios/catching.js"
import { getResource } from "./scenarios/calls.js"

/** A group of scenarios (a `describe`). */
export interface ScenarioGroup {
  readonly name: string
  readonly scenarios: ReadonlyArray<Scenario>
}

type Failure = Extract<Outcome, { readonly _tag: "Failure" }>

const connectError = (
  code: string,
  more: Readonly<Record<string, unknown>> = {},
  outcome: Omit<Failure, "_tag" | "error"> = {}
): Failure => ({
  _tag: "Failure",
  error: { _tag: "ConnectError", code, ...more },
  ...outcome
})

const quickRetries = { _tag: "exponential", retries: 3, baseMillis: 10, jitter: false } as const

const faulty = (fault: unknown, more: Readonly<Record<string, unknown>> = {}) => ({
  faults: { rules: [{ fault, ...more }] }
})

const codesOf = (
  lines: ReadonlyArray<{ readonly method?: string | undefined; readonly code: string }>,
  method?: string
) => lines.filter((l) => method === undefined || l.method === method).map((l) => l.code)

/** The request context: ids from the server, and a native user of its first resource. */
function* requestContext(
  s: ServerInfo,
  context: ScenarioContext
): Generator<Step, RequestContext, unknown> {
  const resourceId = s.knownIds.resources[0]!
  const users = yield* value<{ nativeUsers: ReadonlyArray<{ id: string }> }>(
    { method: "ListNativeUsers", request: { resourceId, limit: 1 } },
    context.expect
  )
  return {
    ids: s.knownIds,
    resourceId,
    nativeUserId: users.nativeUsers[0]!.id,
    suffix: Math.random().toString(36).slice(2, 8),
    secret: context.secret
  }
}

const overLoopback: ReadonlyArray<Scenario> = [
  {
    name: "all 22 operations round-trip",
    *run(context) {
      const { expect, operations } = context
      const main = server(context)
      const request = yield* requestContext(main, context)
      const done: Array<string> = []
      for (const op of operations) {
        const body = requestFor[op.method]!(request) as Record<string, unknown>
        verifyAnswer(
          op,
          body,
          yield* value<Record<string, unknown>>({ method: op.method, request: body }, expect),
          expect
        )
        done.push(op.method)
      }
      expect(done).toHaveLength(22)
      expect(Object.keys(requestFor).sort()).toEqual(operations.map((o) => o.method).sort())
      // Writes took effect: the update is visible on a later read.
      const satellites = yield* value<ReadonlyArray<{ id: string; name: string }>>(
        { method: "ListSatellites", request: {}, stream: true },
        expect
      )
      expect(satellites.find((s) => s.id === main.knownIds.satellites[0])?.name).toBe(
        `sat ${request.suffix}`
      )
      // Every operation reached the server (and the reads above).
      const seen = new Set((yield* requests()).map((r) => r.method))
      for (const op of operations) expect(seen.has(op.method), op.method).toBe(true)
    }
  },
  {
    name: "responses with zero values left out decode to the same values as with every field written",
    servers: { sparse: {}, full: { emitDefaults: true } },
    *run(context) {
      const { expect } = context
      const ids = server(context, "sparse").knownIds
      const read = function* (name: string) {
        return [
          yield* value(
            { server: name, method: "ListSatellites", request: {}, stream: true },
            expect
          ),
          yield* value(
            { server: name, method: "GetResource", request: { id: ids.resources[0]! } },
            expect
          ),
          yield* value(
            {
              server: name,
              method: "ListNativeUsers",
              request: { resourceId: ids.resources[0]! },
              stream: true
            },
            expect
          ),
          yield* value(
            {
              server: name,
              method: "GetPolicyStageConfiguration",
              request: { id: ids.policyStageConfigurations[0]! }
            },
            expect
          )
        ]
      }
      const a = yield* read("sparse")
      const b = yield* read("full")
      expect(a).toEqual(b)
      // The sparse server really left zero values out: some satellite has terminationProtection false.
      const satellites = a[0] as ReadonlyArray<{ terminationProtection: boolean }>
      expect(satellites.some((s) => s.terminationProtection === false)).toBe(true)
    }
  },
  {
    name: "a paging stream over several pages returns every item once",
    *run(context) {
      const { expect } = context
      const resourceId = server(context).knownIds.resources[0]!
      const all = yield* value<{ nativeUsers: ReadonlyArray<{ id: string }> }>(
        { method: "ListNativeUsers", request: { resourceId, limit: 500 }, viaService: true },
        expect
      )
      expect(all.nativeUsers.length).toBeGreaterThan(100)
      const streamed = yield* value<ReadonlyArray<{ id: string }>>(
        {
          method: "ListNativeUsers",
          request: { resourceId },
          stream: true,
          pageSize: 50,
          viaService: true
        },
        expect
      )
      expect(streamed.map((u) => u.id)).toEqual(all.nativeUsers.map((u) => u.id))
      expect(new Set(streamed.map((u) => u.id)).size).toBe(streamed.length)
      const seen = (yield* requests()).filter((r) => r.method === "ListNativeUsers")
      expect(seen.length).toBe(1 + Math.ceil(all.nativeUsers.length / 50))
      expect(seen.length - 1).toBeGreaterThanOrEqual(3)
    }
  }
]

const errorCodes: ReadonlyArray<Scenario> = [
  {
    name: "unauthenticated, not_found, invalid_argument, unimplemented; a request that breaks a rule is not sent; a connection that never opens",
    *run(context) {
      const { expect } = context
      const id = server(context).knownIds.resources[0]!
      yield* expectCall(
        getResource(id, { apiKey: "not-a-key" }),
        connectError("unauthenticated", { httpStatus: 401 }, { statusFallback: false }),
        expect
      )
      const notFound = yield* failure(getResource("resource_does_not_exist"), expect)
      expect(notFound).toMatchObject({ _tag: "ConnectError", code: "not_found", httpStatus: 404 })
      expect((notFound as { requestId?: unknown }).requestId).toBeTypeOf("string")
      yield* expectCall(
        { method: "ListSatellites", request: { limit: 5, cursor: "bogus" }, viaService: true },
        connectError("invalid_argument"),
        expect
      )
      yield* expectCall(
        getResource("x", { baseUrl: (url) => `${url}/nothing-here` }),
        connectError("unimplemented"),
        expect
      )
      // A request that breaks a rule is not sent.
      const before = (yield* requests()).length
      const invalid: Outcome = {
        _tag: "Failure",
        error: { _tag: "InvalidRequestError", path: "$.limit" }
      }
      yield* expectCall(
        { method: "ListSatellites", request: { limit: 0 }, viaService: true },
        invalid,
        expect
      )
      expect((yield* requests()).length).toBe(before)
      // A connection that never opens.
      const closed = getResource(id, { baseUrl: () => REFUSED_URL })
      yield* expectCall(
        closed,
        { _tag: "Failure", error: { _tag: "TransportError", phase: "connect" } },
        expect
      )
    }
  },
  {
    name: "faults: resource_exhausted with Retry-After, unavailable, a bare 502, a body that is not Connect, a broken response",
    servers: {
      limited: faulty({ _tag: "RateLimited", retryAfterSeconds: 7 }),
      unavailable: faulty({ _tag: "Unavailable" }),
      bare: faulty({ _tag: "BareStatus", status: 502 }),
      invalidBody: faulty({ _tag: "Violation", name: "invalid-error-body" }),
      wrongType: faulty({ _tag: "Violation", name: "wrong-field-type" })
    },
    *run(context) {
      const { expect } = context
      const limited = connectError("resource_exhausted", {
        httpStatus: 429,
        rateLimit: { retryAfterMillis: 7000 }
      })
      yield* expectCall(getResource("x", { server: "limited" }), limited, expect)
      yield* expectCall(
        getResource("x", { server: "unavailable" }),
        connectError("unavailable", {}, { isRetryable: true }),
        expect
      )
      yield* expectCall(
        getResource("x", { server: "bare" }),
        connectError("unavailable", {}, { statusFallback: true }),
        expect
      )
      // A 404 without a Connect body.
      const invalidBody = getResource("resource_does_not_exist", { server: "invalidBody" })
      yield* expectCall(
        invalidBody,
        connectError("unimplemented", {}, { statusFallback: true }),
        expect
      )
      const broken = getResource(server(context, "wrongType").knownIds.resources[0]!, {
        server: "wrongType"
      })
      yield* expectCall(
        broken,
        { _tag: "Failure", error: { _tag: "DecodeError", path: "$.resource.id" } },
        expect
      )
    }
  },
  {
    name: "a request with a wrong content type is unknown; a field the server chokes on is internal",
    servers: {
      main: {},
      strict: faulty({ _tag: "Violation", name: "server-error-on-unknown-field" })
    },
    *run(context) {
      const { expect } = context
      // A proxy or a misconfigured client: not retried away.
      const textPlain = getResource(server(context).knownIds.resources[0]!, {
        headers: { "content-type": "text/plain" },
        layerRetry: "none"
      })
      yield* expectCall(textPlain, connectError("unknown"), expect)
      const extraField = getResource(server(context, "strict").knownIds.resources[0]!, {
        server: "strict",
        extraFields: { futureField: 1 },
        layerRetry: "none"
      })
      yield* expectCall(extraField, connectError("internal", {}, { isRetryable: true }), expect)
    }
  },
  {
    name: "a request over the server's body limit decodes to resource_exhausted",
    servers: { main: { maxBodyBytes: 256 } },
    *run({ expect }) {
      const big = { name: "big", description: "too big", code: "x".repeat(1000) }
      yield* expectCall(
        { method: "CreatePermission", request: big, retry: "none", viaService: true },
        connectError("resource_exhausted"),
        expect
      )
      expect((yield* requests()).filter((r) => r.method === "CreatePermission")).toHaveLength(1)
    }
  }
]

const retries: ReadonlyArray<Scenario> = [
  {
    name: "a read waits as long as Retry-After asks, then succeeds",
    servers: {
      main: faulty(
        { _tag: "RateLimited", retryAfterSeconds: 1 },
        { methods: ["GetResource"], times: 1 }
      )
    },
    *run(context) {
      const { expect } = context
      const id = server(context).knownIds.resources[0]!
      // The policy alone would wait 10 ms; Retry-After makes it 1 s.
      const read = yield* expectCall(
        getResource(id, { retry: quickRetries }),
        { _tag: "Success", value: { resource: { id } } },
        expect
      )
      expect(read.millis).toBeGreaterThanOrEqual(1000)
      expect(read.millis).toBeLessThan(5000)
      expect(codesOf(yield* requests(), "GetResource")).toEqual(["resource_exhausted", "ok"])
    }
  },
  {
    name: "reads retry unavailable; creates retry a Connect unavailable but never a bare 502",
    servers: {
      flaky: faulty({ _tag: "Unavailable" }, { times: 2 }),
      proxy: faulty({ _tag: "BareStatus", status: 502 }, { methods: ["CreateConnector"] })
    },
    *run(context) {
      const { expect } = context
      const id = server(context, "flaky").knownIds.resources[0]!
      yield* expectCall(
        getResource(id, { server: "flaky", retry: quickRetries }),
        { _tag: "Success", value: { resource: { id } } },
        expect
      )
      expect(codesOf(yield* requests("flaky"))).toEqual(["unavailable", "unavailable", "ok"])
      const create: ScenarioCall = {
        server: "proxy",
        method: "CreateConnector",
        request: { name: "conn-retry" },
        retry: quickRetries,
        viaService: true
      }
      yield* expectCall(create, connectError("unavailable"), expect)
      expect(codesOf(yield* requests("proxy"), "CreateConnector")).toHaveLength(1)
    }
  }
]

const deadlines: ReadonlyArray<Scenario> = [
  {
    name: "the overall timeout ends a slow call and Connect-Timeout-Ms carries the time left",
    // The server lets a started call run to its end (lenient-deadline): its own deadline, which
    // the header sets a little before the client's, cannot answer first on a loaded machine.
    servers: {
      main: {
        ...faulty({ _tag: "Latency", millis: 3000 }, { methods: ["GetResource"] }),
        latitude: ["lenient-deadline"]
      }
    },
    *run(context) {
      const { expect } = context
      const slow: ScenarioCall = {
        method: "GetResource",
        request: { id: server(context).knownIds.resources[0]! },
        timeout: 400,
        viaService: true
      }
      const called = yield* expectCall(
        slow,
        { _tag: "Failure", error: { _tag: "TimeoutError", scope: "overall" } },
        expect
      )
      expect(called.millis).toBeLessThan(2500)
      expect(called.sent.length).toBeGreaterThanOrEqual(1)
      const header = Number(called.sent[0]?.headers["connect-timeout-ms"])
      expect(header).toBeGreaterThan(0)
      expect(header).toBeLessThanOrEqual(400)
    }
  },
  {
    name: "the server's own deadline answers deadline_exceeded",
    servers: { main: faulty({ _tag: "Latency", millis: 300 }) },
    *run(context) {
      const shortDeadline = getResource(server(context).knownIds.resources[0]!, {
        headers: { "connect-timeout-ms": "50" }
      })
      yield* expectCall(shortDeadline, connectError("deadline_exceeded"), context.expect)
    }
  }
]

const redaction: ReadonlyArray<Scenario> = [
  {
    name: "no API key or secret field value reaches logs, spans, errors or printed values",
    // return-secrets: the server returns the stored secrets, so that there are some to leak.
    servers: { main: { latitude: ["return-secrets"] } },
    capture: true,
    *run(context) {
      const { expect } = context
      const main = server(context)
      const request = yield* requestContext(main, context)
      const values: Array<unknown> = []
      for (const op of context.operations)
        values.push(
          yield* value({ method: op.method, request: requestFor[op.method]!(request) }, expect)
        )
      values.push(
        yield* value(
          { method: "ListNativeUsers", request: { resourceId: request.resourceId }, stream: true },
          expect
        )
      )
      const errors = [
        yield* failure({ method: "GetResource", request: { id: "resource_missing" } }, expect)
      ]
      yield* log("Debug", "decoded", values)
      yield* log("Error", "failed", errors)
      const { dump, lines, spans } = yield* recorded()
      const secrets = new Set([main.apiKey, ...secretsIn(values, context.reveal)])
      verifyNoLeak(
        { secrets, values, errors, dump, spans: spans.length, lines: lines.length },
        expect
      )
    }
  }
]

/** Every scenario against the reference server, in groups. */
export const serverScenarios: ReadonlyArray<ScenarioGroup> = [
  { name: "against the reference server over loopback", scenarios: overLoopback },
  {
    name: "every error code the server produces decodes to its typed error",
    scenarios: errorCodes
  },
  { name: "client errors name their operation and are caught by code", scenarios: catching },
  { name: "retries", scenarios: retries },
  { name: "deadlines", scenarios: deadlines },
  { name: "redaction against the reference server", scenarios: redaction }
]

/** Declares a test on the real clock per scenario, in a `describe` per group: `run` is the line's run of a scenario. */
export const testScenarios = <T>(
  tests: Tests<T>,
  groups: ReadonlyArray<ScenarioGroup>,
  run: (scenario: Scenario) => T
): void => {
  for (const group of groups) {
    tests.describe(group.name, () => {
      for (const scenario of group.scenarios) tests.live(scenario.name, () => run(scenario))
    })
  }
}
