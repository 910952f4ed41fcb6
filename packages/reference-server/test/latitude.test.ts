import { ContractRules } from "@data-access/schema"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { Latitude, ReferenceServer } from "../src/index.js"
import { rpc, valid } from "./helpers.js"
import { cases, expectProbesUnderAll, fresh, seen } from "./latitude-cases.js"

describe("latitude switches", () => {
  it("there is one case per switch of ContractRules.latitude, and the package exports the table", () => {
    expect(Object.keys(cases).sort()).toEqual([...ContractRules.latitudeNames].sort())
    expect(Latitude.latitude).toBe(ContractRules.latitude)
    expect(ReferenceServer.latitude).toBe(ContractRules.latitude)
  })

  for (const row of ContractRules.latitude) {
    const c = cases[row.name]
    it.scoped(`${row.name}: by default ${row.byDefault}; switched, ${row.switched}`, () =>
      Effect.gen(function* () {
        const byDefault = yield* ReferenceServer.start()
        const switched = yield* ReferenceServer.start({ latitude: [row.name] })
        expect(byDefault.latitude).toEqual([])
        expect(switched.latitude).toEqual([row.name])
        expect(yield* c.probe(byDefault), "default").toEqual(c.byDefault)
        expect(yield* c.probe(switched), `--latitude ${row.name}`).toEqual(c.switched)
      })
    )
  }

  it.scoped(
    "all: every switch at once still answers each switch's probe as switched, and every operation a valid request",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({ latitude: "all" })
        expect(server.latitude).toEqual(Latitude.names)
        yield* expectProbesUnderAll(server)
        for (const [method, request] of Object.entries(valid)) {
          const body = request(server.knownIds)
          const reply = yield* rpc(
            server,
            method,
            typeof body.name === "string" && method.startsWith("Create")
              ? { ...body, name: fresh("all") }
              : body
          )
          expect(reply.status, `${method}: ${reply.text}`).toBe(200)
        }
        const bad = yield* rpc(
          server,
          "GetResource",
          { id: server.knownIds.resources[0] },
          { headers: { "x-api-key": "not-a-key" } }
        )
        expect(seen(bad)).toBe("401 unauthenticated")
      })
  )

  it.scoped(
    "an unknown switch name does not start a server, and the error lists the known ones",
    () =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(
          ReferenceServer.start({ latitude: ["no-such-switch" as Latitude.LatitudeName] })
        )
        expect(error.reason).toBe("Latitude")
        expect(error.message).toContain('"no-such-switch"')
        for (const name of Latitude.names) expect(error.message).toContain(name)
      })
  )

  it("Latitude.parse reads repeated and comma-separated names, and all", () => {
    const right = (entries: ReadonlyArray<string>) => Either.getOrThrow(Latitude.parse(entries))
    expect(right(["unique-names", "strict-formats,return-secrets", " unique-names "])).toEqual([
      "unique-names",
      "strict-formats",
      "return-secrets"
    ])
    expect(right(["unique-names", "all"])).toBe("all")
    expect(right([])).toEqual([])
    const wrong = Latitude.parse(["unique-name", "cursor-bound"])
    expect(Either.isLeft(wrong) && wrong.left.unknown).toEqual(["unique-name"])
  })
})
