import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import * as Option from "effect/Option"
import * as Checks from "../src/Checks.js"
import { Filter, Operations } from "@data-access/schema"
import * as Inspect from "../src/internal/inspect.js"
import * as Filters from "../src/internal/filterReadings.js"
import * as Paging from "../src/internal/oracles/paging.js"
import * as Telling from "../src/internal/families/search/telling.js"
import * as Curl from "../src/Curl.js"
import * as ReplayId from "../src/ReplayId.js"
import * as Report from "../src/Report.js"
import { ReferenceServer } from "@data-access/reference-server"

describe("ReplayId", () => {
  it("round-trips every part", () => {
    const id = {
      family: "invalid",
      method: "ListSatellites",
      check: "invalid-rejected" as const,
      seed: -42,
      path: "17:3:0:1"
    }
    const text = ReplayId.encode(id)
    expect(text).toBe("ct1.invalid.ListSatellites.invalid-rejected.-42.17:3:0:1")
    expect(ReplayId.decode(text)).toEqual(Either.right(id))
  })

  it("rejects ids it cannot read, saying why", () => {
    for (const bad of [
      "",
      "ct1.valid.GetResource",
      "ct2.valid.GetResource.auth.1.0",
      "ct1.valid.GetResource.no-such-check.1.0",
      "ct1.valid.GetResource.auth.x.0",
      "ct1.valid.GetResource.auth.1.a:b"
    ]) {
      const r = ReplayId.decode(bad)
      expect(Either.isLeft(r), bad).toBe(true)
    }
  })
})

describe("a Connect error body's details", () => {
  const answer = (details: unknown) => ({
    request: {
      method: "POST",
      path: "/core.v1.ResourceService/GetResource",
      key: "valid" as const,
      contentType: "application/json",
      headers: {},
      protocolVersion: "1",
      body: "{}"
    },
    response: Option.some({
      status: 404,
      headers: { "content-type": "application/json" },
      text: "",
      json: Option.some({ code: "not_found", details })
    }),
    transportError: undefined,
    receivedAt: 0,
    durationMs: 1
  })
  const ruleOf = (details: unknown) => {
    const o = Inspect.errorShape(answer(details))
    return o !== undefined && !o.ok ? o.rule : undefined
  }

  it("carry base64 values, padded or not, in either alphabet (what connect-go and connect-es write)", () => {
    for (const value of ["", "CgNmb28", "CgNmb28=", "Cg==", "Pz8_", "Pz8/", "YWJj"])
      expect(ruleOf([{ type: "google.rpc.ErrorInfo", value }]), value).toBeUndefined()
  })

  it("with a value that is not base64 is not a Connect error body", () => {
    for (const value of ["not found", '{"reason":1}', "YWJjZ", "Cg=", "Pz8_/"])
      expect(ruleOf([{ type: "google.rpc.ErrorInfo", value }]), value).toBe("errors.connect-body")
    expect(ruleOf([{ type: "google.rpc.ErrorInfo" }])).toBe("errors.connect-body")
  })
})

describe("Curl.render", () => {
  const base = {
    method: "POST",
    path: "/core.v1.ResourceService/GetResource",
    contentType: "application/json",
    headers: {},
    protocolVersion: "1"
  } as const

  it("reads the key from $DATA_ACCESS_API_KEY and quotes the body for a shell", () => {
    const curl = Curl.render("http://127.0.0.1:8080/", {
      ...base,
      key: "valid",
      body: JSON.stringify({ id: "it's" })
    })
    expect(curl).toBe(
      `curl -sS -i -X POST 'http://127.0.0.1:8080/core.v1.ResourceService/GetResource' -H "X-API-KEY: $DATA_ACCESS_API_KEY" -H 'Content-Type: application/json' -H 'Connect-Protocol-Version: 1' --data-binary '{"id":"it'\\''s"}'`
    )
  })

  it("shows the secret fields of a body as [redacted], and the empty and missing key cases", () => {
    const curl = Curl.render("http://x", {
      ...base,
      key: "empty",
      body: JSON.stringify({
        name: "n",
        biVendorA: { apiKey: "sk-live-123", apiSecret: "shh" },
        certificate: "QUJD"
      })
    })
    expect(curl).not.toContain("sk-live-123")
    expect(curl).not.toContain("shh")
    expect(curl).not.toContain("QUJD")
    expect(curl).toContain(`'X-API-KEY;'`)
    expect(Curl.render("http://x", { ...base, key: "missing", body: "{}" })).not.toContain(
      "X-API-KEY"
    )
  })

  it("compresses a compressed request's body in the shell, as it was sent", () => {
    const curl = Curl.render("http://x", {
      ...base,
      key: "valid",
      body: JSON.stringify({ id: "r1" }),
      contentEncoding: "gzip"
    })
    expect(curl).toBe(
      `printf %s '{"id":"r1"}' | gzip -c | curl -sS -i -X POST 'http://x/core.v1.ResourceService/GetResource' -H "X-API-KEY: $DATA_ACCESS_API_KEY" -H 'Content-Type: application/json' -H 'Connect-Protocol-Version: 1' -H 'Content-Encoding: gzip' --data-binary @-`
    )
  })
})

describe("Checks", () => {
  it("has exactly the check ids the reference server's violation catalogue names, each with a meaning and a severity", () => {
    for (const v of ReferenceServer.violations) expect(Checks.isCheckId(v.check), v.name).toBe(true)
    expect(Checks.ids).toHaveLength(15)
    for (const c of Checks.checks) {
      expect(c.meaning.length).toBeGreaterThan(10)
      expect(["critical", "major", "minor"]).toContain(c.severity)
    }
  })
})

describe("Report rendering", () => {
  const finding: Report.Finding = {
    check: "paging",
    rule: "lists.count",
    source: "decisions.md § 3. Lists: “| `listMetadata.count` | Number of items in this page. |”",
    severity: "major",
    operation: "ListSatellites",
    cause: "count differs from items",
    message: "listMetadata.count is 4 but the page has 3 items",
    detail: "listMetadata.count = 4",
    seed: 9,
    replayId: "ct1.paging.ListSatellites.paging.9.2:0",
    curl: "curl -sS -i -X POST 'http://h/core.v1.SatelliteService/ListSatellites' --data-binary '{\"limit\":3}'",
    request: {
      method: "POST",
      path: "/core.v1.SatelliteService/ListSatellites",
      body: '{"limit":3}'
    },
    response: {
      _tag: "Response",
      status: 200,
      contentType: "application/json",
      body: '{"satellites":[]}'
    },
    occurrences: 2,
    shrinkSteps: 1
  }
  const report: Report.Report = {
    runId: "abc123",
    seed: 9,
    target: "http://h",
    startedAt: "2026-01-01T00:00:00.000Z",
    durationMs: 1234,
    requests: 10,
    examples: 5,
    readOnly: false,
    replay: undefined,
    cells: [
      {
        operation: "ListSatellites",
        check: "paging",
        passed: 3,
        failed: 2,
        skipped: 0,
        skipReasons: []
      },
      {
        operation: "GetResource",
        check: "stable-reads",
        passed: 0,
        failed: 0,
        skipped: 1,
        skipReasons: ["no resources ids <in the fixtures>"]
      }
    ],
    findings: [finding],
    known: [],
    fixed: [],
    observations: [],
    notes: []
  }
  const withNotes: Report.Report = {
    ...report,
    findings: [],
    known: [{ ...finding, cause: "after/before", rule: "lists.after-before" }],
    fixed: [
      { rule: "lists.order", operation: "ListSatellites", cause: "order desc not respected" }
    ],
    observations: [
      {
        note: "secret-returned",
        operation: "CreateBIIntegration",
        message: "the response returns the secret sent in biVendorA.apiKey (value not shown)",
        curl: "curl ..."
      }
    ]
  }

  it("JUnit: a failure with the finding's text, a skipped case with its reason, XML escaped", () => {
    const xml = Report.toJUnit(report)
    expect(xml).toContain(
      `<testcase classname="contract.ListSatellites" name="ListSatellites paging"`
    )
    expect(xml).toContain(
      `<failure message="listMetadata.count is 4 but the page has 3 items" type="paging">`
    )
    expect(xml).toContain(`ct1.paging.ListSatellites.paging.9.2:0`)
    expect(xml).toContain(`<skipped message="no resources ids &lt;in the fixtures&gt;"/>`)
    expect(xml).toContain(`{&quot;limit&quot;:3}`)
  })

  it("terminal: the finding, the operation by check table, the skip reasons and the verdict", () => {
    const text = Report.toTerminal(report)
    expect(text).toContain("[major] paging · ListSatellites · count differs from items")
    expect(text).toContain("replay: contract-tests --replay ct1.paging.ListSatellites.paging.9.2:0")
    expect(text).toMatch(/ListSatellites\s+F2/)
    expect(text).toMatch(/GetResource\s+·\s+skip/)
    expect(text).toContain("no resources ids <in the fixtures>: GetResource")
    expect(text).toContain("FAIL: 1 findings")
    expect(Report.exitCode(report)).toBe(1)
    expect(Report.exitCode({ ...report, findings: [] })).toBe(0)
    expect(text).toContain("rule lists.count: decisions.md § 3. Lists")
  })

  it("notes, known and fixed findings are reported and never fail the run (terminal, JUnit, JSON)", () => {
    const text = Report.toTerminal(withNotes)
    expect(text).toContain(
      "[secret-returned] CreateBIIntegration: the response returns the secret sent in biVendorA.apiKey"
    )
    expect(text).toContain("Known findings (in the baseline, not failing the run): 1")
    expect(text).toContain("Fixed (in the baseline, no longer found): 1")
    expect(text).toContain("PASS: 0 findings (+1 known) · 1 notes")
    expect(Report.exitCode(withNotes)).toBe(0)
    const xml = Report.toJUnit(withNotes)
    expect(xml).not.toContain("<failure")
    expect(xml).toContain(`failures="0"`)
    expect(xml).toContain(`<property name="note.1.secret-returned"`)
    expect(xml).toContain("<system-out>note [secret-returned] CreateBIIntegration")
    expect(JSON.parse(Report.toJson(withNotes)).observations).toHaveLength(1)
  })
})

describe("README", () => {
  it("lists every check with its meaning and severity, as exported", async () => {
    const { readFileSync } = await import("node:fs")
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8")
    for (const c of Checks.checks)
      expect(readme).toContain(`| \`${c.id}\` | ${c.meaning} | ${c.severity} |`)
  })
})

describe("filter readings", () => {
  it("a server may fold the case of the string operators and not of lower_than, or the other way round", () => {
    const value = (v: string) => ({
      "@type": "type.googleapis.com/google.protobuf.StringValue",
      value: v
    })
    const row: Record<string, string> = { id: "mdm_01jhnh0844", name: "Fleet paris 003" }
    const both = (a: string, b: string) =>
      ({
        group: {
          operator: "and" as const,
          filters: [
            { field: { key: "id", operator: "contains" as const, value: value(a) } },
            { field: { key: "name", operator: "lower_than" as const, value: value(b) } }
          ]
        }
      }) as Filter.Filter<string>
    // contains folded, lower_than by code units: "F" < "c".
    expect(
      Filters.readings.some((r) => Filters.evaluate(both("MDM_01", "ct-x"), (k) => row[k]!, r))
    ).toBe(true)
    // contains by code units, lower_than folded: "fleet" < "g".
    expect(
      Filters.readings.some((r) => Filters.evaluate(both("mdm_01", "G"), (k) => row[k]!, r))
    ).toBe(true)
    // No reading: contains misses whatever the case.
    expect(
      Filters.readings.some((r) => Filters.evaluate(both("xyz", "ct-x"), (k) => row[k]!, r))
    ).toBe(false)
  })
})

describe("the readings of a filter", () => {
  it("every and some over the readings a filter can tell apart are every and some over all readings", () => {
    const texts = fc.constantFrom(
      "",
      "Name",
      "name",
      "NAME-2",
      "true",
      "2026-01-02T03:04:05Z",
      "2026-01-02T03:04:05.000Z",
      "2026-01-02t03:04:05z"
    )
    const rows = fc.record({ name: texts, created_at: texts, enabled: texts })
    const condition = fc.record({
      key: fc.constantFrom("name", "created_at", "enabled"),
      operator: fc.constantFrom(...Filter.Operator.literals),
      value: fc.record({ "@type": fc.constant(Filter.STRING_VALUE_TYPE), value: texts })
    })
    const { filter: filters } = fc.letrec((tie) => ({
      filter: fc.oneof(
        { depthSize: "small" },
        fc.record({ field: condition }),
        fc.record({
          group: fc.record({
            operator: fc.constantFrom("and" as const, "or" as const),
            filters: fc.array(tie("filter"), { minLength: 1, maxLength: 3 })
          })
        }),
        fc.constant({})
      )
    }))
    fc.assert(
      fc.property(filters, rows, (filter, row) => {
        const f = filter as Filter.Filter<string>
        const get = (k: string) => row[k as keyof typeof row]
        const on = (rs: ReadonlyArray<Filters.Reading>) =>
          rs.map((r) => Filters.evaluate(f, get, r))
        const all = on(Filters.readings)
        const told = on(Filters.readingsOf(f))
        expect(told.every(Boolean)).toBe(all.every(Boolean))
        expect(told.some(Boolean)).toBe(all.some(Boolean))
      }),
      { seed: 1, numRuns: 500 }
    )
  })
})

describe("response-schema over answers with the same text", () => {
  const getResource = Operations.operations.GetResource
  const answer = (text: string) => ({
    request: {
      method: "POST",
      path: getResource.path,
      key: "valid" as const,
      contentType: "application/json",
      headers: {},
      protocolVersion: "1",
      body: "{}"
    },
    response: Option.some({
      status: 200,
      headers: { "content-type": "application/json" },
      text,
      json: Option.some(JSON.parse(text))
    }),
    transportError: undefined,
    receivedAt: 0,
    durationMs: 1
  })
  const good = JSON.stringify({
    resource: {
      id: "resource_1",
      name: "orders",
      port: 5432,
      createdAt: "2025-01-01T00:00:00Z",
      updatedAt: "2025-01-01T00:00:00Z"
    }
  })
  const bad = JSON.stringify({ resource: { id: 7 } })

  it("judges each answer as it would on its own: a text that failed fails again, for its own exchange", () => {
    const first = answer(bad)
    const second = answer(bad)
    const a = Inspect.responseSchema(getResource, first)
    const b = Inspect.responseSchema(getResource, second)
    expect(a?.ok).toBe(false)
    expect(b?.ok).toBe(false)
    expect(b?.rule).toBe(a?.rule)
    expect(b?.exchange).toBe(second)
  })

  it("passes a text again that passed, and still fails another text of the same operation", () => {
    const once = Inspect.responseSchema(getResource, answer(good))
    expect(once?.ok).toBe(true)
    expect(Inspect.responseSchema(getResource, answer(good))).toEqual(once)
    expect(Inspect.responseSchema(getResource, answer(bad))?.ok).toBe(false)
  })
})

describe("list order", () => {
  const op = Operations.operations.ListSatellites
  const item = (id: string, createdAt: string) => ({ id, createdAt })
  const t1 = "2024-01-01T00:00:00Z"
  const t2 = "2024-01-02T00:00:00Z"
  const ids = (pair: ReturnType<typeof Paging.outOfOrder>) => pair?.map((i) => i.id)

  it("asc: createdAt, then ties by id ascending", () => {
    expect(
      Paging.outOfOrder(op, [item("a", t1), item("b", t1), item("c", t2)], "asc")
    ).toBeUndefined()
    expect(
      ids(Paging.outOfOrder(op, [item("b", t1), item("a", t1), item("c", t2)], undefined))
    ).toEqual(["b", "a"])
    expect(ids(Paging.outOfOrder(op, [item("c", t2), item("a", t1)], "asc"))).toEqual(["c", "a"])
  })

  it("desc: createdAt descending, ties by id either way, but one way throughout", () => {
    expect(
      Paging.outOfOrder(op, [item("c", t2), item("d", t2), item("a", t1), item("b", t1)], "desc")
    ).toBeUndefined()
    expect(
      Paging.outOfOrder(op, [item("d", t2), item("c", t2), item("b", t1), item("a", t1)], "desc")
    ).toBeUndefined()
    expect(
      ids(
        Paging.outOfOrder(op, [item("c", t2), item("d", t2), item("b", t1), item("a", t1)], "desc")
      )
    ).toEqual(["b", "a"])
    expect(ids(Paging.outOfOrder(op, [item("a", t1), item("c", t2)], "desc"))).toEqual(["a", "c"])
  })
})

describe("nested filter groups", () => {
  const c = (v: string) => Telling.condition("name", "equals", v)
  const g = (operator: "and" | "or", ...filters: ReadonlyArray<Filter.Filter<string>>) =>
    ({ group: { operator, filters } }) as Filter.Filter<string>

  it("are misread by a swapped operator, the parent's operator, a flattened group, all and, all or", () => {
    const texts = Telling.groupMisreadings(g("and", c("a"), g("or", c("b"), c("c")))).map((f) =>
      JSON.stringify(f)
    )
    expect(texts).toEqual(
      [
        g("or", c("a"), g("or", c("b"), c("c"))),
        g("and", c("a"), g("and", c("b"), c("c"))),
        g("and", c("a"), g("and", c("b"), c("c"))),
        g("and", c("a"), c("b"), c("c")),
        g("and", c("a"), g("and", c("b"), c("c"))),
        g("or", c("a"), g("or", c("b"), c("c")))
      ].map((f) => JSON.stringify(f))
    )
  })

  it("are drawn so that every misreading selects other items", () => {
    const rows = ["a", "b", "c", "d"].map((name, i) => {
      const raw = { id: `x${i}`, name }
      return { raw, full: raw }
    })
    const keys = ["name", "id"]
    for (const depth of [2, 3]) {
      const filter = Telling.tellingNested(rows, keys, depth, 7)!
      expect(filter).toBeDefined()
      const selected = (f: Filter.Filter<string>) =>
        rows
          .filter((r) =>
            Filters.evaluate(f, (k) => String((r.raw as any)[k] ?? ""), Filters.readings[0]!)
          )
          .map((r) => r.raw.id)
          .join()
      for (const other of Telling.groupMisreadings(filter))
        if (JSON.stringify(other) !== JSON.stringify(filter))
          expect(selected(other), JSON.stringify(other)).not.toBe(selected(filter))
    }
  })
})
