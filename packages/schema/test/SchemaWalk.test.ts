// Under the machine's Node only (scripts/node-lines): decoding and encoding by schema, pure data transforms.
import { describe, expect, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import { Model, Operations, Requests, SchemaWalk } from "../src/index.js"

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

/** Every node reachable from a schema's AST (both sides of transformations), recursion once. */
const nodes = (root: AST.AST): ReadonlyArray<AST.AST> => {
  const out = new Set<AST.AST>()
  const go = (ast: AST.AST, depth: number): void => {
    if (out.has(ast) || depth > 2) return
    out.add(ast)
    switch (ast._tag) {
      case "TypeLiteral":
        ast.propertySignatures.forEach((p) => go(p.type, depth))
        ast.indexSignatures.forEach((i) => go(i.type, depth))
        return
      case "Transformation":
        go(ast.from, depth)
        go(ast.to, depth)
        return
      case "Refinement":
        return go(ast.from, depth)
      case "Union":
        return ast.types.forEach((t) => go(t, depth))
      case "TupleType":
        ast.elements.forEach((e) => go(e.type, depth))
        ast.rest.forEach((r) => go(r.type, depth))
        return
      case "Declaration":
        return ast.typeParameters.forEach((t) => go(t, depth))
      case "Suspend":
        return go(ast.f(), depth + 1)
    }
  }
  go(root, 0)
  return [...out]
}

/** Whether a value of an encoded side may be an object, read from the AST node by node. */
const mayBeObjectByAst = (ast: AST.AST): boolean => {
  switch (ast._tag) {
    case "StringKeyword":
    case "NumberKeyword":
    case "BooleanKeyword":
    case "BigIntKeyword":
    case "UndefinedKeyword":
    case "Literal":
    case "TemplateLiteral":
      return false
    case "Union":
      return ast.types.some(mayBeObjectByAst)
    case "Refinement":
      return mayBeObjectByAst(ast.from)
    default:
      return true
  }
}

const show = (s: SchemaWalk.Shape): string => {
  switch (s._tag) {
    case "String":
      return `string${s.minLength > 0 ? `>=${s.minLength}` : ""}${s.literals ? `[${s.literals.join("|")}]` : ""}`
    case "Number":
      return s.int ? "int" : "number"
    case "Literal":
      return JSON.stringify(s.value)
    case "Union":
      return s.members.map(show).join(" | ")
    case "Array":
      return `${show(s.item)}[]`
    default:
      return s._tag
  }
}

describe("SchemaWalk.shapeOf", () => {
  const op = (method: string) => Operations.all.find((o) => o.method === method)!

  it("reads a request's fields with their JSON types, presence, min lengths, enums and integers", () => {
    const fields = SchemaWalk.requestFields(op("CreatePermission"))
    expect(
      Object.fromEntries([...fields.values()].map((f) => [f.name, [f.required, show(f.shape)]]))
    ).toEqual({
      name: [true, "string>=1"],
      description: [true, "string>=1"],
      code: [true, "string>=1"],
      status: [false, "string[draft|dry-run|active] | null"],
      terminationProtection: [false, "Boolean | null"]
    })
    const list = SchemaWalk.requestFields(op("ListSatellites"))
    expect(show(list.get("limit")!.shape)).toBe("int")
    expect(list.get("limit")!.required).toBe(true)
    expect(show(SchemaWalk.nonNullish(list.get("order")!.shape))).toBe("string[asc|desc|]")
    expect(show(SchemaWalk.nonNullish(list.get("searchFields")!.shape))).toBe("string[id|name][]")
  })

  it("reads a recursive schema lazily, as deep as it is read", () => {
    const filter = SchemaWalk.nonNullish(
      SchemaWalk.requestFields(op("ListSatellites")).get("filter")!.shape
    )
    expect(filter._tag).toBe("Union")
    const group = (filter as { members: ReadonlyArray<SchemaWalk.Shape> }).members.find(
      (m) => m._tag === "Object" && m.fields.get("group")?.required === true
    ) as Extract<SchemaWalk.Shape, { _tag: "Object" }>
    const inner = group.fields.get("group")!.shape
    expect(inner._tag).toBe("Object")
    const filters = (inner as Extract<SchemaWalk.Shape, { _tag: "Object" }>).fields.get("filters")!
    const item = (
      SchemaWalk.nonNullish(filters.shape) as Extract<SchemaWalk.Shape, { _tag: "Array" }>
    ).item
    expect(filters.shape._tag === "Array" && filters.shape.minItems).toBe(1)
    expect(item._tag).toBe("Lazy")
    const again = (item as Extract<SchemaWalk.Shape, { _tag: "Lazy" }>).get()
    expect(again).toBe((item as Extract<SchemaWalk.Shape, { _tag: "Lazy" }>).get())
    expect(SchemaWalk.mayBeObject(again)).toBe(true)
  })

  it("is read once per schema and per operation", () => {
    for (const o of Operations.all) {
      expect(SchemaWalk.requestShape(o)).toBe(SchemaWalk.requestShape(o))
      for (const f of SchemaWalk.requestFields(o).values())
        expect(SchemaWalk.nonNullish(f.shape)).toBe(SchemaWalk.nonNullish(f.shape))
      expect(SchemaWalk.shapeOf(o.response.ast)).toBe(SchemaWalk.shapeOf(o.response.ast))
    }
    expect(SchemaWalk.shapeOf(Model.Resource.ast)._tag).toBe("Object")
  })

  it("says a value may be an object exactly when the encoded AST does, for every node of every operation and of other schemas", () => {
    const roots = [
      ...Operations.all.flatMap((o) => [o.request.ast, o.response.ast]),
      Schema.Unknown.ast,
      Schema.BigInt.ast,
      Schema.Enums({ A: "a" }).ast,
      Schema.TemplateLiteral("a", Schema.Number).ast,
      Schema.Redacted(Schema.String).ast,
      Schema.NullOr(Schema.Literal(1, true)).ast,
      Schema.Tuple(Schema.String).ast,
      Schema.Tuple([Schema.String], Schema.Number).ast,
      Schema.Tuple(Schema.String, Schema.optionalElement(Schema.Number)).ast,
      Schema.Union(Schema.String, Schema.Array(Schema.String)).ast
    ]
    let compared = 0
    for (const root of roots)
      for (const node of nodes(root)) {
        expect(SchemaWalk.mayBeObject(SchemaWalk.shapeOf(node)), String(node)).toBe(
          mayBeObjectByAst(AST.encodedAST(node))
        )
        compared++
      }
    expect(compared).toBeGreaterThan(500)
  })
})

describe("SchemaWalk.forEachField", () => {
  const fieldsOf = (shape: SchemaWalk.Shape) => {
    const out: Array<string> = []
    SchemaWalk.forEachField(shape, (f) => out.push(f.name))
    return out
  }

  it("reads the timestamps of every answer as strings of the date-time format", () => {
    const timestamps = new Set<string>()
    const others = new Set<string>()
    for (const op of Operations.all)
      SchemaWalk.forEachField(SchemaWalk.shapeOf(op.response.ast), (f) =>
        (f.shape._tag === "String" && f.shape.format === "date-time" ? timestamps : others).add(
          f.name
        )
      )
    expect(timestamps).toEqual(new Set(["createdAt", "updatedAt", "expiresAt"]))
    expect(others.has("id")).toBe(true)
  })

  it("visits the fields of nested objects, arrays and unions, and recursive ones two levels deep", () => {
    const request = SchemaWalk.requestShape(
      Operations.all.find((o) => o.method === "ListSatellites")!
    )
    const visited = fieldsOf(request)
    expect(visited).toContain("group")
    expect(visited).toContain("filters")
    expect(new Set(visited)).toEqual(new Set(names(Requests.ListSatellitesRequest.ast)))
    // The recursive filter reads as a finite graph: each nested filter is the shape read already.
    const read = new Set<SchemaWalk.Shape>()
    const lazies: Array<Extract<SchemaWalk.Shape, { _tag: "Lazy" }>> = []
    const go = (shape: SchemaWalk.Shape): void => {
      if (read.has(shape)) return
      read.add(shape)
      if (shape._tag === "Object") shape.fields.forEach((f) => go(f.shape))
      if (shape._tag === "Array") go(shape.item)
      if (shape._tag === "Union") shape.members.forEach(go)
      if (shape._tag === "Lazy") lazies.push(shape)
    }
    go(request)
    expect(lazies.length).toBeGreaterThan(0)
    for (const lazy of lazies) expect(read.has(lazy.get())).toBe(true)
    const shallow = new Set<string>()
    SchemaWalk.forEachField(request, (f) => shallow.add(f.name), { lazyDepth: 0 })
    expect(shallow).toEqual(new Set(visited))
  })
})
