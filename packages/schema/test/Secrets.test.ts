// Under the machine's Node only (scripts/node-lines): the schemas' Redacted fields, walked as data.
import { describe, expect, it } from "@effect/vitest"
import * as AST from "effect/SchemaAST"
import * as Operations from "../src/Operations.js"
import * as Secrets from "../src/Secrets.js"

/** decisions.md section 8, spelled out. */
const SECTION_8 = [
  "apiKey",
  "apiSecret",
  "password",
  "secret",
  "webhookSecret",
  "certificate",
  "privateKey"
]

/** The Redacted fields of every operation's request and response schema (the walk the contract runner made). */
const redactedNamesOfOperations = (): ReadonlySet<string> => {
  const names = new Set<string>()
  const seen = new Set<AST.AST>()
  const isRedacted = (ast: AST.AST): boolean =>
    ast._tag === "Transformation"
      ? isRedacted(ast.to)
      : ast._tag === "Declaration" &&
        (ast.annotations[AST.TypeConstructorAnnotationId] as { _tag?: string } | undefined)
          ?._tag === "effect/Redacted"
  let depth = 0
  const go = (ast: AST.AST): void => {
    if (seen.has(ast)) return
    seen.add(ast)
    if (ast._tag === "TypeLiteral") {
      for (const p of ast.propertySignatures) {
        if (isRedacted(p.type)) names.add(String(p.name))
        go(p.type)
      }
    } else if (ast._tag === "Transformation") {
      go(ast.from)
      go(ast.to)
    } else if (ast._tag === "Refinement") go(ast.from)
    else if (ast._tag === "Union") ast.types.forEach(go)
    else if (ast._tag === "TupleType") {
      ast.elements.forEach((e) => go(e.type))
      ast.rest.forEach((r) => go(r.type))
    } else if (ast._tag === "Declaration") ast.typeParameters.forEach(go)
    else if (ast._tag === "Suspend" && depth < 2) {
      depth++
      go(ast.f())
      depth--
    }
  }
  for (const op of Operations.all as ReadonlyArray<Operations.Operation>) {
    go(op.request.ast)
    go(op.response.ast)
  }
  return names
}

describe("Secrets.fieldNames", () => {
  it("are the secret fields of decisions.md section 8", () => {
    expect([...Secrets.fieldNames].sort()).toEqual([...SECTION_8].sort())
  })

  it("equal the Redacted fields of the operations' request and response schemas", () => {
    expect([...Secrets.fieldNames].sort()).toEqual([...redactedNamesOfOperations()].sort())
  })

  it("are matched in lowerCamelCase and snake_case", () => {
    expect(Secrets.isFieldName("apiKey")).toBe(true)
    expect(Secrets.isFieldName("api_key")).toBe(true)
    expect(Secrets.isFieldName("webhook_secret")).toBe(true)
    expect(Secrets.isFieldName("name")).toBe(false)
    expect(Secrets.isFieldName("secretName")).toBe(false)
  })
})

describe("Secrets.headerNames", () => {
  it("are the credential headers, lower case", () => {
    expect([...Secrets.headerNames].sort()).toEqual([
      "authorization",
      "cookie",
      "proxy-authorization",
      "x-api-key"
    ])
  })
})

describe("Secrets.values", () => {
  it("collects the secret values of a body at any depth, in order, from 4 characters on", () => {
    const body = {
      name: "not-a-secret",
      biVendorA: { apiKey: "key-0001", api_secret: "sec-0002" },
      basic: { username: "u", password: "abc" },
      list: [{ webhookSecret: "hook-0003" }, { secret: "" }],
      secret: "v1-secret-0004"
    }
    expect(Secrets.values(body)).toEqual(["key-0001", "sec-0002", "hook-0003", "v1-secret-0004"])
    expect(Secrets.values({ password: "abcd" })).toEqual(["abcd"])
    expect(Secrets.values({ password: "abc" })).toEqual([])
  })

  it("ignores secret names whose value is not a string, and reads inside them", () => {
    expect(Secrets.values({ secret: { password: "inner-pass" }, apiKey: 12345 })).toEqual([
      "inner-pass"
    ])
    expect(Secrets.values(null)).toEqual([])
    expect(Secrets.values("password")).toEqual([])
  })

  it("reads a body nested deeper than recursion would", () => {
    let deep: unknown = { password: "deep-secret" }
    for (let i = 0; i < 20_000; i++) deep = [deep]
    expect(Secrets.values(deep)).toEqual(["deep-secret"])
  })
})

describe("Secrets.redact", () => {
  it("replaces non-empty secret values at any depth and keeps the rest", () => {
    expect(
      Secrets.redact({
        name: "n",
        biVendorA: { apiKey: "k", api_secret: "s" },
        items: [{ password: "p" }],
        secret: ""
      })
    ).toEqual({
      name: "n",
      biVendorA: { apiKey: "[redacted]", api_secret: "[redacted]" },
      items: [{ password: "[redacted]" }],
      secret: ""
    })
    expect(Secrets.redact([1, "password", null])).toEqual([1, "password", null])
  })
})

describe("Secrets.scrubber", () => {
  it("replaces every occurrence of each value", () => {
    const scrub = Secrets.scrubber(["hunter22", "key-0001"])
    expect(scrub("hunter22 and key-0001, hunter22 again")).toBe(
      "[redacted] and [redacted], [redacted] again"
    )
    expect(scrub("nothing here")).toBe("nothing here")
  })

  it("leaves values under 4 characters alone", () => {
    expect(Secrets.scrubber(["abc", ""])("abc abc")).toBe("abc abc")
    expect(Secrets.scrubber(["abcd"])("abcd")).toBe("[redacted]")
  })

  it("hides a secret that contains another whole", () => {
    expect(Secrets.scrubber(["pass", "password-1"])("password-1 / pass")).toBe(
      "[redacted] / [redacted]"
    )
  })

  it("scrubs the values a body holds", () => {
    const scrub = Secrets.scrubber(Secrets.values({ basic: { password: "s3cr3t-pass" } }))
    expect(scrub(`{"basic":{"password":"s3cr3t-pass"}}`)).toBe(
      `{"basic":{"password":"[redacted]"}}`
    )
  })
})
