import { describe, expect, it } from "@effect/vitest"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { inspect } from "node:util"
import * as Model from "../src/Model.js"
import * as Operations from "../src/Operations.js"
import * as Primitives from "../src/Primitives.js"
import * as Requests from "../src/Requests.js"
import { decode, messagesAt, reject } from "./util.js"

describe("Int64", () => {
  const encode = Schema.encodeSync(Primitives.Int64)

  it.each([
    ["3600", 3600n],
    [3600, 3600n],
    ["-42", -42n],
    [-42, -42n],
    ["0", 0n],
    [0, 0n],
    ["9223372036854775807", 9223372036854775807n],
    ["-9223372036854775808", -9223372036854775808n],
    [Number.MAX_SAFE_INTEGER, 9007199254740991n]
  ])("reads %j as %s", (input, value) => {
    expect(decode(Primitives.Int64, input)).toBe(value)
  })

  it("is written as a string", () => {
    expect(encode(3600n)).toBe("3600")
    expect(encode(-9223372036854775808n)).toBe("-9223372036854775808")
    expect(
      JSON.stringify(
        Schema.encodeSync(Model.LogQuery)(decode(Model.LogQuery, { relativeTime: 86400 }))
      )
    ).toContain(`"relativeTime":"86400"`)
  })

  it.each([
    [1.5, "expected an int64, got 1.5"],
    [Number.NaN, "expected an int64"],
    [Number.POSITIVE_INFINITY, "expected an int64"],
    [1e20, "expected an int64"],
    ["9223372036854775808", "outside the int64 range"],
    ["-9223372036854775809", "outside the int64 range"],
    ["99999999999999999999", "expected an int64 as a decimal string"],
    ["1.5", "expected an int64 as a decimal string"],
    ["1e3", "expected an int64 as a decimal string"],
    ["0x10", "expected an int64 as a decimal string"],
    ["+5", "expected an int64 as a decimal string"],
    [" 5", "expected an int64 as a decimal string"],
    ["", "expected an int64 as a decimal string"],
    ["ten", "expected an int64 as a decimal string"]
  ])("rejects %j", (input, message) => {
    const { issues } = reject(Model.LogQuery, { relativeTime: input })
    expect(issues.every((i) => i.path.join(".") === "relativeTime")).toBe(true)
    expect(messagesAt(issues, ["relativeTime"]).join("\n")).toContain(message)
  })

  it("rejects other JSON types", () => {
    expect(reject(Primitives.Int64, true).tree).toContain("Expected string, actual true")
    expect(reject(Primitives.Int64, true).tree).toContain("Expected number, actual true")
    expect(reject(Primitives.Int64, null).tree).toContain("actual null")
  })

  it("cannot write a bigint outside int64", () => {
    expect(() => encode(2n ** 63n)).toThrow()
  })
})

describe("ports and ids", () => {
  it.each([1, 65535])("Resource port %d is valid", (port) => {
    expect(decode(Model.Resource, { id: "r", port }).port).toBe(port)
  })
  it.each([0, 65536, -1, 80.5, "80"])("Resource port %j is rejected", (port) => {
    expect(reject(Model.Resource, { id: "r", port }).issues.map((i) => i.path)).toEqual([["port"]])
  })
  it("SidecarResourceLink port: 0 (unset) to 65535", () => {
    expect(decode(Model.SidecarResourceLink, { id: "l" }).port).toBe(0)
    expect(decode(Model.SidecarResourceLink, { id: "l", port: 65535 }).port).toBe(65535)
    expect(reject(Model.SidecarResourceLink, { id: "l", port: 65536 }).tree).toContain(
      "must be a port of at most 65535"
    )
  })
  it("an id is at least 1 character", () => {
    expect(reject(Model.Space, { id: "" }).issues).toEqual([
      { _tag: "Refinement", path: ["id"], message: "must not be empty (min length 1)" }
    ])
  })
})

describe("secrets (decisions.md section 8)", () => {
  const SECRETS = [
    "s3cr3t-basic-password",
    "s3cr3t-v1-secret",
    "s3cr3t-webhook",
    "s3cr3t-catalog-key",
    "s3cr3t-mdm-key",
    "s3cr3t-bi-key",
    "s3cr3t-bi-secret",
    "s3cr3t-human-password"
  ] as const
  const b64 = (s: string) => Buffer.from(s).toString("base64")

  const expectHidden = (decoded: unknown, secrets: ReadonlyArray<string>) => {
    const printed = [
      String(decoded),
      JSON.stringify(decoded),
      inspect(decoded, { depth: null }),
      `${JSON.stringify({ wrapped: decoded })}`,
      inspect(new Error("failed", { cause: decoded }), { depth: null })
    ]
    for (const text of printed) {
      for (const secret of secrets) {
        expect(text).not.toContain(secret)
        expect(text).not.toContain(b64(secret))
      }
    }
  }

  it("response objects keep secrets as Redacted values that never print", () => {
    const nativeUser = decode(Model.NativeUser, {
      id: "nu",
      basic: { username: "app", password: SECRETS[0] },
      secret: SECRETS[1]
    })
    const catalog = decode(Model.DataCatalogIntegration, {
      id: "dc",
      catalogVendorA: { webhookSecret: SECRETS[2], apiKey: SECRETS[3] }
    })
    const mdm = decode(Model.MdmIntegration, {
      id: "m",
      mdmVendorA: { apiKey: SECRETS[4], apiUrl: "https://mdm.example" }
    })
    const bi = decode(Model.BiIntegration, {
      id: "b",
      biVendorA: { apiKey: SECRETS[5], apiSecret: SECRETS[6] }
    })
    const human = decode(Operations.operations.CreateHumanUserPassword.response, {
      password: SECRETS[7],
      username: "alice",
      expiresAt: "2030-01-01T00:00:00Z",
      createdAt: "2024-01-01T00:00:00Z"
    })

    // the values are there for whoever asks for them
    expect(Redacted.value(nativeUser.basic!.password)).toBe(SECRETS[0])
    expect(Redacted.value(nativeUser.secret)).toBe(SECRETS[1])
    expect(Redacted.value(catalog.catalogVendorA!.webhookSecret)).toBe(SECRETS[2])
    expect(Redacted.value(catalog.catalogVendorA!.apiKey)).toBe(SECRETS[3])
    expect(Redacted.value(mdm.mdmVendorA!.apiKey)).toBe(SECRETS[4])
    expect(Redacted.value(bi.biVendorA!.apiKey)).toBe(SECRETS[5])
    expect(Redacted.value(bi.biVendorA!.apiSecret)).toBe(SECRETS[6])
    expect(Redacted.value(human.password)).toBe(SECRETS[7])
    // but never printed
    expectHidden([nativeUser, catalog, mdm, bi, human], SECRETS)
    for (const o of [nativeUser, catalog, mdm, bi, human]) expectHidden(o, SECRETS)
    // absent secrets read as an empty Redacted
    expect(Redacted.value(decode(Model.NativeUser, { id: "nu" }).secret)).toBe("")
  })

  it("requests keep secrets as Redacted values, and encode them back for the wire", () => {
    const bi = decode(Requests.CreateBIIntegrationRequest, {
      name: "bi",
      biVendorA: { apiKey: SECRETS[5], apiSecret: SECRETS[6] }
    })
    const mdm = decode(Requests.CreateIntegrationMDMRequest, {
      name: "mdm",
      mdmVendorA: { apiKey: SECRETS[4] }
    })
    const host = decode(Requests.UpdateConnectorHostnameRequest, {
      id: "h",
      certificate: b64(SECRETS[0]),
      privateKey: b64(SECRETS[1])
    })
    expectHidden([bi, mdm, host], SECRETS)
    expect(Schema.encodeSync(Requests.CreateBIIntegrationRequest)(bi).biVendorA).toEqual({
      apiKey: SECRETS[5],
      apiSecret: SECRETS[6]
    })
    expect(Schema.encodeSync(Requests.UpdateConnectorHostnameRequest)(host)).toEqual({
      id: "h",
      certificate: b64(SECRETS[0]),
      privateKey: b64(SECRETS[1])
    })
    // null is "not set" for an optional secret too
    expect(decode(Requests.UpdateConnectorHostnameRequest, { id: "h", privateKey: null })).toEqual({
      id: "h"
    })
  })

  it.each([
    [
      // PEM armour is base64 to proto3 JSON's reader (`-`, spaces and line breaks are read); its `:` is not.
      "a PEM key that is not base64",
      Requests.UpdateConnectorHostnameRequest,
      { id: "h", privateKey: "-----BEGIN KEY-----\nProc-Type: s3cr3t-pem" },
      ["privateKey"]
    ],
    [
      "a certificate of the wrong type",
      Requests.UpdateConnectorHostnameRequest,
      { id: "h", certificate: { pem: "s3cr3t-pem" } },
      ["certificate"]
    ],
    [
      "an MDM api key of the wrong type",
      Requests.CreateIntegrationMDMRequest,
      { name: "m", mdmVendorA: { apiKey: ["s3cr3t-pem"] } },
      ["mdmVendorA", "apiKey"]
    ],
    [
      "a BI api secret of the wrong type",
      Requests.CreateBIIntegrationRequest,
      { name: "b", biVendorA: { apiKey: "k", apiSecret: ["s3cr3t-pem"] } },
      ["biVendorA", "apiSecret"]
    ],
    [
      "a native user password of the wrong type",
      Model.NativeUser,
      { id: "n", basic: { password: ["s3cr3t-pem"] } },
      ["basic", "password"]
    ],
    [
      "a human user password of the wrong type",
      Model.HumanUserPassword,
      {
        username: "u",
        password: ["s3cr3t-pem"],
        expiresAt: "2030-01-01T00:00:00Z",
        createdAt: "2024-01-01T00:00:00Z"
      },
      ["password"]
    ]
  ] as const)("a rejected secret is not printed in the error: %s", (_, schema, input, path) => {
    const { issues, tree } = reject(schema as Schema.Schema<unknown, unknown>, input)
    expect(issues.map((i) => i.path)).toContainEqual(path)
    expect(tree).toContain(JSON.stringify(path[path.length - 1]))
    expect(tree).not.toContain("s3cr3t")
    expect(JSON.stringify(issues)).not.toContain("s3cr3t")
  })
})
