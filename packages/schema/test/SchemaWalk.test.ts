import { describe, expect, it } from "@effect/vitest"
import type * as AST from "effect/SchemaAST"
import { Model, Requests, SchemaWalk } from "../src/index.js"

const names = (ast: AST.AST, options?: SchemaWalk.Options) => {
  const out: Array<string> = []
  SchemaWalk.forEachProperty(ast, (p) => out.push(String(p.name)), options)
  return out
}

describe("SchemaWalk.forEachProperty", () => {
  it("reaches nested objects and arrays of an object", () => {
    const all = names(Model.Resource.ast)
    expect(all).toContain("id")
    expect(all).toContain("createdAt")
  })

  it("follows the recursive filter of ListSatellites into its groups' fields", () => {
    const all = names(Requests.ListSatellitesRequest.ast)
    for (const name of ["filter", "group", "operator", "filters", "field", "key", "value"])
      expect(all).toContain(name)
  })

  it("visits each node once, across walks that share a seen set", () => {
    const seen = new Set<AST.AST>()
    const first = names(Model.Resource.ast, { seen })
    expect(first.length).toBeGreaterThan(0)
    expect(names(Model.Resource.ast, { seen })).toEqual([])
  })

  it("follows a recursive schema as deep as asked, and ends", () => {
    const shallow = names(Requests.ListSatellitesRequest.ast, { suspendDepth: 0 })
    const deep = names(Requests.ListSatellitesRequest.ast, { suspendDepth: 4 })
    expect(shallow.length).toBeLessThan(names(Requests.ListSatellitesRequest.ast).length)
    expect(names(Requests.ListSatellitesRequest.ast).length).toBeLessThan(deep.length)
    expect(new Set(deep)).toEqual(new Set(names(Requests.ListSatellitesRequest.ast)))
  })
})
