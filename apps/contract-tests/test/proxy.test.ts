import { DataAccessClient, Services } from "@data-access/client"
import { ContractRules, Operations } from "@data-access/schema"
import { ReferenceServer } from "@data-access/reference-server"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FastCheck from "effect/FastCheck"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as ContractTests from "../src/ContractTests.js"
import * as Oracles from "../src/internal/oracles/index.js"
import * as Proxy from "../src/Proxy.js"
import * as Report from "../src/Report.js"

const KEY = ReferenceServer.DEFAULT_API_KEY

/** The reference server (with an optional violation) and the proxy in front of it. */
const setup = (violation?: ReferenceServer.ViolationName, strictClient = false) =>
  Effect.gen(function* () {
    const server = yield* ReferenceServer.start(
      violation === undefined
        ? {}
        : { faults: { rules: [{ fault: { _tag: "Violation", name: violation } }] } }
    )
    const proxy = yield* Proxy.start({ target: server.url, strictClient })
    return { server, proxy }
  })

interface Answer {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: Uint8Array
}

const send = (
  base: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array } = {}
) =>
  Effect.promise(async (): Promise<Answer> => {
    const res = await fetch(base + path, {
      method: init.method ?? "POST",
      headers: init.headers ?? {
        "content-type": "application/json",
        "x-api-key": KEY,
        "connect-protocol-version": "1"
      },
      ...(init.body === undefined ? {} : { body: init.body })
    })
    const headers: Record<string, string> = {}
    res.headers.forEach((v, k) => (headers[k] = v))
    return { status: res.status, headers, body: new Uint8Array(await res.arrayBuffer()) }
  })

const rpc = (base: string, method: string, body: unknown, headers?: Record<string, string>) => {
  const path = `/core.v1.${servicePath(method)}/${method}`
  return send(base, path, {
    body: JSON.stringify(body),
    ...(headers === undefined ? {} : { headers })
  })
}

const servicePath = (method: string): string =>
  Operations.all.find((o) => o.method === method)?.service ?? "NoService"

/** Headers a relay may change: its own connection handling, the date, the request id of each answer. */
const comparable = (h: Record<string, string>) => {
  const {
    date: _d,
    connection: _c,
    "keep-alive": _k,
    "x-request-id": _r,
    "transfer-encoding": _t,
    ...rest
  } = h
  return rest
}

const text = (a: Answer) => new TextDecoder().decode(a.body)

describe("the conformance proxy", () => {
  it.scoped("relays a realistic client session (the typed client) with zero findings", () =>
    Effect.gen(function* () {
      const { proxy, server } = yield* setup()
      const client = DataAccessClient.layer({
        baseUrl: proxy.url,
        apiKey: Redacted.make(KEY)
      }).pipe(Layer.provide(NodeHttpClient.layerUndici))
      yield* Effect.gen(function* () {
        const satellites = yield* Services.SatelliteService
        const connectors = yield* Services.ConnectorService
        const resources = yield* Services.ResourceService
        const permissions = yield* Services.PermissionsService
        const page = yield* satellites.listSatellites({ limit: 5, order: "desc" })
        yield* satellites.listSatellitesStream({}, { pageSize: 7 }).pipe(Stream.runCollect)
        const first = page.satellites[0]!
        yield* satellites.updateSatellite({ id: first.id, name: `${first.name}-renamed` })
        const { connector } = yield* connectors.createConnector({ name: "proxy-test-connector" })
        yield* connectors.createConnector({ name: "proxy-test-two", spaceId: connector.spaceId })
        yield* permissions.createPermission({
          name: "read",
          description: "reads",
          code: "perm.read"
        })
        yield* resources.listNativeUsers({ limit: 3, resourceId: server.knownIds.resources[0]! })
        yield* resources.getResource({ id: server.knownIds.resources[0]! })
        yield* Effect.flip(resources.getResource({ id: "resource_does_not_exist" }))
      }).pipe(Effect.provide(client))
      const report = yield* proxy.report
      expect(report.findings.map(Report.findingText)).toEqual([])
      expect(report.requests).toBeGreaterThanOrEqual(10)
      expect(Report.totals(report).passed).toBeGreaterThan(20)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  // The runner's traffic through it against the faithful server (every latitude switch on): no
  // server finding, the invalid requests client findings, no key in a report: faithful.ts.

  it.scoped("a rate limit needs Retry-After in seconds; a body refused for its size does not", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start({
        latitude: ["body-limit-1mib"],
        faults: {
          rules: [
            { methods: ["GetResource"], fault: { _tag: "RateLimited", retryAfterSeconds: 1 } }
          ]
        }
      })
      const proxy = yield* Proxy.start({ target: server.url })
      const limited = yield* rpc(proxy.url, "GetResource", { id: server.knownIds.resources[0] })
      expect([limited.status, limited.headers["retry-after"]]).toEqual([429, "1"])
      // 2 MiB is kept whole by the proxy; 5 MiB streams through and may be answered before its end,
      // or the connection closed (a server need not read a body it refuses).
      for (const size of [2, 5]) {
        const body = JSON.stringify({ limit: 1, padding: "a".repeat(size * 1024 * 1024) })
        const refused = yield* send(proxy.url, "/core.v1.SatelliteService/ListSatellites", {
          body
        }).pipe(
          Effect.map(Option.some),
          Effect.catchAllDefect(() => Effect.succeedNone)
        )
        if (size === 2 || Option.isSome(refused))
          expect(
            Option.map(refused, (a) => JSON.parse(text(a)).code),
            `${size} MiB`
          ).toEqual(Option.some("resource_exhausted"))
      }
      const findings = yield* proxy.findings
      expect(
        findings.filter((f) => f.rule === "errors.retry-after").map(Report.findingText)
      ).toEqual([])
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  // The proxy keeps a model of the objects created through it: a later answer that shows one
  // otherwise than the create did, with no write between, is a server finding; so is a List
  // walked to its last page that leaves one out: for it, one case at a time (a walk that a create
  // of its kind overlaps is not judged), and enough for the created family to read after 4 creates.
  for (const [violation, rule, settings] of [
    ["create-stored-differently", "updates.model", { examples: 5 }],
    ["lists-forget-older-creates", "echo.create-stored", { examples: 20, concurrency: 1 }]
  ] as const)
    it.scoped(`${violation} is a server finding (${rule})`, () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({
          faults: { rules: [{ fault: { _tag: "Violation", name: violation } }] }
        })
        const proxy = yield* Proxy.start({ target: server.url })
        yield* ContractTests.run({
          baseUrl: proxy.url,
          apiKey: Redacted.make(KEY),
          fixtures: server.knownIds,
          seed: 1,
          ...settings,
          rateLimit: undefined,
          shrinkBudget: 0,
          operations: ["CreateIntegrationMDM", "ListIntegrationsMDM"],
          checks: ["create-echo"]
        })
        const findings = yield* proxy.findings
        expect(findings.filter((f) => f.side === "server").map((f) => f.rule)).toContain(rule)
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
    )

  describe("every violation a single exchange shows is a server finding under its rule", () => {
    const decidable = ReferenceServer.violations.filter((v) => Proxy.serverRules.includes(v.rule))
    it("applies every rule one exchange decides (all but those ContractRules.severalExchanges names), derived from the oracle registry", () => {
      const applied = new Set(Proxy.serverRules)
      const several = new Set(Object.keys(ContractRules.severalExchanges))
      expect(
        ContractRules.rules
          .filter((r) => !several.has(r.id) && !applied.has(r.id))
          .map((r) => r.id),
        "rules one exchange decides that the proxy does not apply"
      ).toEqual([])
      expect(
        ContractRules.rules.filter((r) => several.has(r.id) && applied.has(r.id)).map((r) => r.id),
        "rules listed as needing several exchanges that an oracle of one decides"
      ).toEqual([])
      expect(new Set(Oracles.registryRules)).toEqual(applied)
      for (const oracle of Oracles.registry)
        expect(
          decidable.some((v) => oracle.rules.includes(v.rule)),
          oracle.name
        ).toBe(true)
      console.log(
        `the proxy applies ${applied.size} of the ${ContractRules.rules.length} rules (${Oracles.registry.length} oracles); ${decidable.length} of the catalogue's ${ReferenceServer.violations.length} violations are decided by one exchange`
      )
    })
    // A create's fixed first cases (its fields left out, ..., then sent as null) need more
    // examples, and more creates than two leave of the default allowance once the other suites
    // take theirs.
    const ALLOWANCE: Partial<
      Record<string, { readonly createsPerOperation: number; readonly examples: number }>
    > = {
      "create-echo": { createsPerOperation: 30, examples: 12 }
    }
    /**
     * The runner's cases of one check, through the proxy, against a server with these violations:
     * the server rules the proxy found. The run ends once every violation's rule is among them, as
     * the rest of it could add nothing to what is asserted.
     */
    const serverRulesFound = (
      violations: ReadonlyArray<(typeof decidable)[number]>,
      check: string
    ) =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({
          faults: {
            rules: violations.map((v) => ({ fault: { _tag: "Violation" as const, name: v.name } }))
          }
        })
        const seen = new Set<string>()
        const allSeen = yield* Deferred.make<void>()
        const proxy = yield* Proxy.start({
          target: server.url,
          onFinding: (f) => {
            if (f.side === "server") seen.add(f.rule)
            if (violations.every((v) => seen.has(v.rule))) Deferred.unsafeDone(allSeen, Exit.void)
          }
        })
        yield* Effect.raceFirst(
          ContractTests.run({
            baseUrl: proxy.url,
            apiKey: Redacted.make(KEY),
            fixtures: server.knownIds,
            seed: 1,
            examples: 2,
            rateLimit: undefined,
            concurrency: 4,
            shrinkBudget: 0,
            checks: [check],
            ...(ALLOWANCE[check] ?? {})
          }).pipe(Effect.asVoid),
          Deferred.await(allSeen)
        )
        const findings = yield* proxy.findings
        expect(JSON.stringify(findings)).not.toContain(KEY)
        return new Set(findings.filter((f) => f.side === "server").map((f) => f.rule))
      }).pipe(Effect.scoped)
    // The violations of one check at once; one that another hides there is tried alone. Error
    // bodies without a code, or statuses that disagree with it, hide what the others break in
    // errors (a rate limit without Retry-After reads as no rate limit): those two are tried alone
    // from the start, so the others' run ends as soon as it has seen theirs.
    const HIDES_OTHERS: ReadonlySet<ReferenceServer.ViolationName> = new Set([
      "invalid-error-body",
      "wrong-status-for-code"
    ])
    const byCheck = new Map<string, Array<(typeof decidable)[number]>>()
    for (const v of decidable) byCheck.set(v.check, [...(byCheck.get(v.check) ?? []), v])
    for (const [check, violations] of byCheck) {
      it.effect(`${check}: ${violations.map((v) => `${v.name} → ${v.rule}`).join(", ")}`, () =>
        Effect.gen(function* () {
          const together = yield* serverRulesFound(
            violations.filter((v) => !HIDES_OTHERS.has(v.name)),
            check
          )
          for (const v of violations) {
            const found = together.has(v.rule) ? together : yield* serverRulesFound([v], check)
            expect([...found], `${v.name}: ${v.description}`).toContain(v.rule)
          }
        }).pipe(Effect.provide(NodeHttpClient.layerUndici))
      )
    }
  })

  it.scoped(
    "a client that breaks request rules gets client findings; snake_case and null do not",
    () =>
      Effect.gen(function* () {
        const { proxy } = yield* setup()
        yield* rpc(proxy.url, "ListSatellites", {
          limit: 5,
          space_id: null,
          order: null,
          search_fields: ["name"]
        })
        yield* rpc(proxy.url, "UpdateSatellite", {
          id: "satellite_unknown",
          termination_protection: null
        })
        expect(yield* proxy.findings).toEqual([])
        const noVersion = yield* rpc(
          proxy.url,
          "CreatePermission",
          { name: "n", description: "d", code: "c" },
          { "content-type": "application/json", "x-api-key": KEY }
        )
        expect(noVersion.status).toBe(400)
        const tooMany = yield* rpc(proxy.url, "ListSatellites", { limit: 501 })
        expect(tooMany.status).toBe(400)
        const findings = yield* proxy.findings
        expect(findings.map((f) => [f.side, f.rule, f.operation]).sort()).toEqual([
          ["client", "lists.limit-range", "ListSatellites (client)"],
          ["client", "protocol.version-header", "CreatePermission (client)"]
        ])
        const limit = findings.find((f) => f.rule === "lists.limit-range")!
        // The label says the rule in words, not the schema library's kind of issue.
        expect(limit.cause).toBe("limit: must be from 1 to 500")
        expect(limit.curl).toContain("$DATA_ACCESS_API_KEY")
        expect(limit.curl).not.toContain(KEY)
        expect(limit.request.body).toBe(JSON.stringify({ limit: 501 }))
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped("--strict-client flags what only a lenient server accepts; the default does not", () =>
    Effect.gen(function* () {
      const lenient = { limit: 5, search: "x".repeat(300) }
      const { proxy } = yield* setup()
      yield* rpc(proxy.url, "ListSatellites", lenient)
      expect(yield* proxy.findings).toEqual([])
      const strict = yield* setup(undefined, true)
      yield* rpc(strict.proxy.url, "ListSatellites", lenient)
      const findings = yield* strict.proxy.findings
      expect(findings.map((f) => [f.side, f.cause])).toEqual([
        ["client", "lenient (string-limits): search: over 255 characters"]
      ])
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped("secrets stay out of findings: the key and secret fields of the request", () =>
    Effect.gen(function* () {
      const { proxy } = yield* setup("secret-in-error")
      const secret = "s3cr3t-value-never-shown"
      const answer = yield* rpc(proxy.url, "CreateBIIntegration", {
        biVendorA: { apiKey: secret, apiSecret: secret }
      })
      expect(text(answer)).toContain(secret)
      const findings = yield* proxy.findings
      expect(findings.map((f) => `${f.side} ${f.rule}`).sort()).toEqual([
        "client fields.required",
        "server secrets.not-in-errors"
      ])
      const all = JSON.stringify(findings) + Report.toTerminal(yield* proxy.report)
      expect(all).not.toContain(secret)
      expect(all).not.toContain(KEY)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped("relays status, headers and body bytes as a direct call gets them", () =>
    Effect.gen(function* () {
      const { proxy, server } = yield* setup()
      const json = {
        "content-type": "application/json",
        "x-api-key": KEY,
        "connect-protocol-version": "1"
      }
      const cases: ReadonlyArray<[string, Parameters<typeof send>[2]]> = [
        ["/core.v1.SatelliteService/ListSatellites", { body: JSON.stringify({ limit: 3 }) }],
        [
          "/core.v1.SatelliteService/ListSatellites?x=%20y&z",
          { body: JSON.stringify({ limit: 500 }) }
        ],
        [
          `/core.v1.ResourceService/GetResource`,
          { body: JSON.stringify({ id: server.knownIds.resources[0] }) }
        ],
        ["/core.v1.ResourceService/GetResource", { body: JSON.stringify({ id: "nope" }) }],
        ["/core.v1.ResourceService/GetResource", { body: "" }],
        ["/core.v1.ResourceService/GetResource", { body: "{not json" }],
        ["/core.v1.ResourceService/GetResource", { method: "GET", headers: { "x-api-key": KEY } }],
        ["/core.v1.ResourceService/GetResource", { method: "PUT", headers: json, body: "{}" }],
        [
          "/core.v1.ResourceService/GetResource",
          { headers: { ...json, "content-type": "text/plain" }, body: "{}" }
        ],
        [
          "/core.v1.ResourceService/GetResource",
          { headers: { ...json, "x-api-key": "" }, body: "{}" }
        ],
        ["/core.v1.NoService/Nothing", { body: "{}" }],
        [
          "/core.v1.SatelliteService/ListSatellites",
          { body: JSON.stringify({ limit: 2, search: "é".repeat(400_000) }) }
        ]
      ]
      for (const [path, init] of cases) {
        const direct = yield* send(server.url, path, init)
        const relayed = yield* send(proxy.url, path, init)
        expect(relayed.status, path).toBe(direct.status)
        expect(comparable(relayed.headers), path).toEqual(comparable(direct.headers))
        expect(
          Buffer.from(relayed.body).equals(Buffer.from(direct.body)),
          `${path}: ${text(relayed).slice(0, 200)}`
        ).toBe(true)
      }
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped("hostile traffic: no crash, every answer relayed as the direct one", () =>
    Effect.gen(function* () {
      const { proxy, server } = yield* setup()
      const encoder = new TextEncoder()
      const json = (v: unknown) => encoder.encode(JSON.stringify(v))
      const nest = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth)
      const bodies = FastCheck.sample(
        FastCheck.oneof(
          FastCheck.jsonValue({ maxDepth: 4 }).map(json),
          FastCheck.dictionary(
            FastCheck.constantFrom("id", "limit", "name", "filter", "cursor", "order", "search"),
            FastCheck.jsonValue({ maxDepth: 3 }),
            { maxKeys: 5 }
          ).map(json),
          FastCheck.constantFrom(
            '{"__proto__":{"polluted":true},"limit":5}',
            '{"constructor":{"prototype":{"x":1}},"limit":1}',
            '{"toString":1,"limit":10}'
          ).map((s) => encoder.encode(s)),
          FastCheck.integer({ min: 60, max: 3_000 }).map((d) =>
            encoder.encode(`{"limit":1,"filter":${nest(d)}}`)
          ),
          FastCheck.uint8Array({ minLength: 0, maxLength: 64 }),
          FastCheck.uint8Array({ minLength: 1, maxLength: 16 }).map(
            (b) =>
              new Uint8Array([
                ...encoder.encode('{"search":"'),
                0xc3,
                0x28,
                ...b,
                ...encoder.encode('","limit":2}')
              ])
          )
        ),
        { numRuns: 150, seed: 42 }
      )
      const paths = [
        "/core.v1.SatelliteService/ListSatellites",
        "/core.v1.ResourceService/GetResource",
        "/core.v1.ResourceService/ListNativeUsers",
        "/core.v1.x/%2e%2e",
        "/"
      ]
      const headerSets: ReadonlyArray<Record<string, string>> = [
        { "content-type": "application/json", "x-api-key": KEY },
        {
          "content-type": "application/json; charset=utf-8",
          "x-api-key": KEY,
          "connect-timeout-ms": "abc"
        },
        { "content-type": "application/json", "x-api-key": KEY, "content-encoding": "gzip" },
        { "content-type": "application/grpc", "x-api-key": KEY }
      ]
      let i = 0
      for (const body of bodies) {
        const path = paths[i % paths.length]!
        const headers = headerSets[i % headerSets.length]!
        i++
        const direct = yield* send(server.url, path, { headers, body })
        const relayed = yield* send(proxy.url, path, { headers, body })
        expect(relayed.status).toBe(direct.status)
        expect(text(relayed)).toBe(text(direct))
      }
      // Still serving, and nothing blamed on the (faithful) server.
      const after = yield* rpc(proxy.url, "ListSatellites", { limit: 1 })
      expect(after.status).toBe(200)
      const report = yield* proxy.report
      expect(report.findings.filter((f) => f.side === "server").map(Report.findingText)).toEqual([])
      expect(report.requests).toBe(bodies.length + 1)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped("answers the report on GET /__contract/report in the run's formats", () =>
    Effect.gen(function* () {
      const { proxy } = yield* setup()
      yield* rpc(proxy.url, "ListSatellites", { limit: 0 })
      const json = yield* send(proxy.url, `${Proxy.REPORT_PATH}`, { method: "GET", headers: {} })
      const report = JSON.parse(text(json)) as Report.Report
      expect(report.findings.map((f) => f.rule)).toEqual(["lists.limit-range"])
      const terminal = text(
        yield* send(proxy.url, `${Proxy.REPORT_PATH}?format=terminal`, {
          method: "GET",
          headers: {}
        })
      )
      expect(terminal).toContain("client · invalid-rejected · ListSatellites (client)")
      const junit = yield* send(proxy.url, `${Proxy.REPORT_PATH}?format=junit`, {
        method: "GET",
        headers: {}
      })
      expect(junit.headers["content-type"]).toContain("xml")
      expect(text(junit)).toContain("<testsuites")
      expect(Proxy.exitCode(report.findings as ReadonlyArray<Proxy.Finding>, "server")).toBe(0)
      expect(Proxy.exitCode(report.findings as ReadonlyArray<Proxy.Finding>, "any")).toBe(1)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
