// One verdict per rule for the same exchange: requests that break one must each, sent over
// loopback to the reference server and to a faulty server in front of it, are judged by the
// runner's path (the invalid family's verdict) and by the proxy's and the HAR judge's (`judge` of
// the judge module); both give the same verdict on the broken rule: pass, fail, or none.
import { ReferenceServer } from "@data-access/reference-server"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { ContractRules } from "@data-access/schema"
import { rejected } from "../src/internal/families/invalid.js"
import { type Exchange, post } from "../src/internal/http.js"
import { judge } from "../src/internal/judge/judging.js"
import { madeValid } from "../src/internal/refusalVerdict.js"
import type { Outcome } from "../src/internal/outcome.js"
import { connectError, type Decision, forward, front } from "./front.js"

const KEY = ReferenceServer.DEFAULT_API_KEY
const LIST = "/core.v1.SatelliteService/ListSatellites"
const GET = "/core.v1.ResourceService/GetResource"

/** A request that breaks one must: the rule, a label, the path and the body as sent. */
interface Case {
  readonly rule: ContractRules.RuleId
  readonly label: string
  readonly path: string
  readonly body: string
}

const cases: ReadonlyArray<Case> = [
  { rule: "lists.limit-range", label: "limit: 501", path: LIST, body: '{"limit":501}' },
  { rule: "lists.limit-range", label: "limit: 0", path: LIST, body: '{"limit":0}' },
  { rule: "fields.min-length", label: "id: empty", path: GET, body: '{"id":""}' },
  { rule: "wire.empty-body", label: "empty body", path: LIST, body: "" },
  { rule: "wire.json-object-body", label: "malformed JSON", path: LIST, body: "{" }
]

/** One exchange as recorded: the case, its answer's status, headers and body. */
interface Recorded {
  readonly c: Case
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
  readonly started: number
  readonly receivedAt: number
}

const record = (url: string, c: Case) =>
  Effect.promise(async (): Promise<Recorded> => {
    const started = Date.now()
    const r = await fetch(url + c.path, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": KEY },
      body: c.body
    })
    const headers: Record<string, string> = {}
    r.headers.forEach((v, k) => (headers[k] = v))
    const text = await r.text()
    return { c, status: r.status, headers, text, started, receivedAt: Date.now() }
  })

/** The verdict on the case's rule: `pass`, `fail`, or `none` when nothing judged it. */
type Judged = "pass" | "fail" | "none"

const verdictOn = (rule: ContractRules.RuleId, outcomes: ReadonlyArray<Outcome>): Judged => {
  if (outcomes.some((o) => !o.ok && o.rule === rule)) return "fail"
  return outcomes.some((o) => o.ok && o.rules?.includes(rule) === true) ? "pass" : "none"
}

/** The runner's path: the exchange as the runner's send makes it, judged as the invalid family judges it. */
const byRunner = (x: Recorded): Judged => {
  const e: Exchange = {
    request: { ...post(x.c.path, undefined), body: x.c.body },
    response: Option.some({
      status: x.status,
      headers: x.headers,
      text: x.text,
      json: Option.liftThrowable(JSON.parse)(x.text) as Option.Option<unknown>
    }),
    transportError: undefined,
    receivedAt: x.receivedAt,
    durationMs: x.receivedAt - x.started
  }
  const outcome = rejected(e, { rule: x.c.rule, label: x.c.label, body: undefined }, madeValid)
  return verdictOn(x.c.rule, outcome === undefined ? [] : [outcome])
}

/** The proxy's and the HAR judge's path: the same exchange as relayed, judged by every oracle. */
const byProxy = (x: Recorded): Judged => {
  const body = new TextEncoder().encode(x.c.body)
  const judgement = judge(
    {
      request: {
        method: "POST",
        path: x.c.path,
        query: "",
        headers: { "content-type": "application/json", "connect-protocol-version": "1" },
        keyPresent: true,
        body,
        bodyBytes: body.length
      },
      status: x.status,
      headers: x.headers,
      body: new TextEncoder().encode(x.text),
      transportError: undefined,
      started: x.started,
      receivedAt: x.receivedAt,
      key: KEY
    },
    { limit: 1 << 20, strict: false, skewMillis: 5000 }
  )
  return verdictOn(
    x.c.rule,
    judgement.verdicts.filter((v) => v.side === "server").map((v) => v.outcome)
  )
}

/** Every case sent to a server that answers the invalid requests with `answer` (the reference server's own answer when undefined). */
const judged = (answer: Decision | undefined) =>
  Effect.gen(function* () {
    const inner = yield* ReferenceServer.start({})
    const url = yield* front(inner.url, (req) =>
      answer !== undefined && !req.url.endsWith("/GetResource") ? answer : forward()
    )
    const out: Array<{ readonly label: string; readonly runner: Judged; readonly proxy: Judged }> =
      []
    for (const c of cases) {
      const x = yield* record(url, c)
      out.push({ label: c.label, runner: byRunner(x), proxy: byProxy(x) })
    }
    return out
  })

const all = (runner: Judged, proxy: Judged, labels: ReadonlyArray<string>) =>
  labels.map((label) => ({ label, runner, proxy }))

describe("one verdict per rule: the runner and the proxy judge the same exchange alike", () => {
  it.scoped("the reference server's refusals pass both", () =>
    Effect.gen(function* () {
      expect(yield* judged(undefined)).toEqual(
        all(
          "pass",
          "pass",
          cases.map((c) => c.label)
        )
      )
    })
  )

  it.scoped("not_found, permission_denied or a success to an invalid list request fails both", () =>
    Effect.gen(function* () {
      const lists = cases.filter((c) => c.path === LIST).map((c) => c.label)
      const expected = [
        ...all("fail", "fail", lists.slice(0, 2)),
        { label: "id: empty", runner: "pass", proxy: "pass" },
        ...all("fail", "fail", lists.slice(2))
      ]
      expect(yield* judged(connectError(404, "not_found", "no such satellite"))).toEqual(expected)
      expect(yield* judged(connectError(403, "permission_denied", "not allowed"))).toEqual(expected)
      expect(yield* judged({ _tag: "Answer", status: 200, body: { satellites: [] } })).toEqual(
        expected
      )
    })
  )

  it.scoped("an overload that answers first judges neither", () =>
    Effect.gen(function* () {
      const lists = cases.filter((c) => c.path === LIST).map((c) => c.label)
      expect(yield* judged(connectError(503, "unavailable", "overloaded"))).toEqual([
        ...all("none", "none", lists.slice(0, 2)),
        { label: "id: empty", runner: "pass", proxy: "pass" },
        ...all("none", "none", lists.slice(2))
      ])
    })
  )
})
