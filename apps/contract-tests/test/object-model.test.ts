import { Operations } from "@data-access/schema"
import { describe, expect, it } from "@effect/vitest"
import * as Option from "effect/Option"
import type { Exchange } from "../src/internal/http.js"
import * as ObjectModel from "../src/internal/objectModel.js"

// The model of a run's objects against another client writing to the same target: a read of a
// later version is that client's write, and from then on only the objects the run created are
// judged; a field changed with no write between is still a finding on those.

const pathOf = (method: string) => Operations.all.find((o) => o.method === method)!.path

const exchange = (method: string, sent: object, answer: object): Exchange => ({
  request: {
    method: "POST",
    path: pathOf(method),
    key: "valid",
    contentType: "application/json",
    headers: {},
    protocolVersion: "1",
    body: JSON.stringify(sent)
  },
  response: Option.some({
    status: 200,
    headers: { "content-type": "application/json" },
    text: JSON.stringify(answer),
    json: Option.some(answer)
  }),
  transportError: undefined,
  receivedAt: 0,
  durationMs: 1
})

const satellite = (name: string, updatedAt: string, terminationProtection = false) => ({
  id: "satellite_1",
  name,
  terminationProtection,
  satelliteType: "ai",
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt
})

const integration = (name: string, updatedAt: string) => ({
  id: "mdm_1",
  name,
  mdmVendorA: { apiUrl: "https://mdm.example.com" },
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt
})

/** Feeds exchanges one after the other, each in its own millisecond; the failures' causes. */
const failures = (model: ObjectModel.ObjectModel, exchanges: ReadonlyArray<Exchange>) =>
  exchanges.flatMap((e, i) =>
    ObjectModel.observe(model, e, 2 * i, 2 * i + 1)
      .judged.filter((j) => !j.outcome.ok)
      .map((j) => (j.outcome.ok ? "" : j.outcome.cause))
  )

const renamed = exchange(
  "UpdateSatellite",
  { id: "satellite_1", name: "a" },
  { satellite: satellite("a", "2026-01-02T00:00:00Z") }
)
const protectedLater = (name: string) =>
  exchange(
    "UpdateSatellite",
    { id: "satellite_1", terminationProtection: true },
    { satellite: satellite(name, "2026-01-04T00:00:00Z", true) }
  )

describe("the model of the run's objects", () => {
  it("an update that changes a field it did not send is a finding", () => {
    expect(failures(ObjectModel.make(true), [renamed, protectedLater("c")])).toEqual([
      "UpdateSatellite changed an unsent name"
    ])
  })

  it("another client's write, seen in a read, is no finding, nor are later answers of objects the run only updated", () => {
    const model = ObjectModel.make(true)
    const listed = exchange(
      "ListSatellites",
      { limit: 10 },
      { satellites: [satellite("b", "2026-01-03T00:00:00Z")], listMetadata: { count: 1 } }
    )
    expect(failures(model, [renamed, listed, protectedLater("c")])).toEqual([])
    expect(model.othersWrite).toBe(true)
  })

  it("a value with another run's name prefix, where the model knew another, is another client's write", () => {
    const model = ObjectModel.make(true, "ct-aaaaaa-")
    const own = exchange(
      "UpdateSatellite",
      { id: "satellite_1", name: "ct-aaaaaa-x" },
      { satellite: satellite("ct-aaaaaa-x", "2026-01-02T00:00:00Z") }
    )
    expect(failures(model, [own, protectedLater("ct-bbbbbb-y")])).toEqual([
      "UpdateSatellite changed an unsent name"
    ])
    expect(model.othersWrite).toBe(true)
  })

  it("a change to a value with the run's own prefix is no other client's write", () => {
    const model = ObjectModel.make(true, "ct-aaaaaa-")
    expect(failures(model, [renamed, protectedLater("ct-aaaaaa-y")])).toEqual([
      "UpdateSatellite changed an unsent name"
    ])
    expect(model.othersWrite).toBe(false)
  })

  it("an object the run created is still judged when other clients write", () => {
    const model = ObjectModel.make(true)
    model.othersWrite = true
    const created = exchange(
      "CreateIntegrationMDM",
      { name: "m", mdmVendorA: { apiKey: "k", apiUrl: "https://mdm.example.com" } },
      { integration: integration("m", "2026-01-01T00:00:00Z") }
    )
    const listed = (name: string, updatedAt: string) =>
      exchange(
        "ListIntegrationsMDM",
        { limit: 10 },
        { integrations: [integration(name, updatedAt)], listMetadata: { count: 1 } }
      )
    expect(
      failures(model, [
        created,
        listed("z", "2026-01-01T00:00:00Z"),
        listed("y", "2026-01-05T00:00:00Z")
      ])
    ).toEqual(["ListIntegrationsMDM shows another name"])
  })
})

// A walk of a List, every page followed to its last, against the objects the run created: each
// one its request selects under every reading is among the items, unless a write or a create of
// its kind ran meanwhile.
describe("the model's walks of a List", () => {
  const mdm = (id: string, name: string) => ({
    id,
    name,
    mdmVendorA: { apiUrl: "https://mdm.example.com" },
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-01T00:00:00Z"
  })
  const create = (id: string, name: string) =>
    exchange(
      "CreateIntegrationMDM",
      { name, mdmVendorA: { apiKey: "k", apiUrl: "https://mdm.example.com" } },
      { integration: mdm(id, name) }
    )
  const page = (sent: object, items: ReadonlyArray<object>, nextCursor = "") =>
    exchange("ListIntegrationsMDM", sent, {
      integrations: items,
      listMetadata: { count: items.length, nextCursor }
    })
  const search = { limit: 1, search: "FLEET" }
  const walk = [
    page(search, [mdm("mdm_1", "fleet one")], "c1"),
    page({ ...search, cursor: "c1" }, [])
  ]
  const outcomes = (model: ObjectModel.ObjectModel, exchanges: ReadonlyArray<Exchange>) =>
    exchanges.flatMap((e, i) =>
      ObjectModel.observe(model, e, 2 * i, 2 * i + 1).judged.map((j) =>
        j.outcome.ok ? `pass ${String(j.outcome.rules)}` : `${j.outcome.rule}: ${j.outcome.cause}`
      )
    )

  it("misses a created object its search selects: a finding on the last page", () => {
    const model = ObjectModel.make(false)
    expect(
      outcomes(model, [create("mdm_1", "fleet one"), create("mdm_2", "Fleet two"), ...walk])
    ).toEqual([
      "pass updates.model",
      "search.case-insensitive: ListIntegrationsMDM walk misses created objects it selects"
    ])
  })

  it("live traffic: a create of the kind seen after the walk's failure, in flight during it, drops the failure", () => {
    const model = ObjectModel.make(false)
    outcomes(model, [create("mdm_1", "fleet one"), create("mdm_2", "Fleet two")])
    const [first, last] = walk
    ObjectModel.observe(model, first!, 4, 5)
    const failed = ObjectModel.observe(model, last!, 6, 7).judged.find((j) => !j.outcome.ok)!
    // Answered after the last page, so seen after it; sent before it.
    const { written } = ObjectModel.observe(model, create("mdm_3", "x"), 5, 8)
    expect(ObjectModel.overlaps(written!, failed.id, 6, 7)).toBe(true)
  })

  it("judges nothing on a walk a create of the kind overlaps, nor on objects no reading certainly selects", () => {
    const during = ObjectModel.make(false)
    outcomes(during, [create("mdm_1", "fleet one"), create("mdm_2", "Fleet two")])
    const [first, last] = walk
    // The third create is in flight from before the first page until after the last.
    const created = ObjectModel.observe(during, create("mdm_3", "x"), 3, 20)
    expect(created.judged).toEqual([])
    expect(ObjectModel.observe(during, first!, 4, 5).judged.every((j) => j.outcome.ok)).toBe(true)
    expect(ObjectModel.observe(during, last!, 6, 7).judged).toEqual([])
    const elsewhere = ObjectModel.make(false)
    expect(
      outcomes(elsewhere, [create("mdm_1", "fleet one"), create("mdm_2", "flèet"), ...walk])
    ).toEqual(["pass updates.model", "pass search.case-insensitive"])
  })
})
