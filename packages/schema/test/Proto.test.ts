// Under the machine's Node only (scripts/node-lines): the .proto file derived from the schemas and the committed one (and buf's reading of it), the same on every Node line.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, copyFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Operations from "../src/Operations.js"
import type { Operation } from "../src/internal/operationTable.js"
import { defaultJsonName, FILE, render, snakeCase } from "../src/internal/proto.js"

const protoDir = fileURLToPath(new URL("../proto", import.meta.url))
const buf = fileURLToPath(new URL("../node_modules/.bin/buf", import.meta.url))
const committed = readFileSync(join(protoDir, FILE), "utf8")
const text = render(undefined, committed)

/** Runs a command, without blocking the event loop. */
const run = (command: string, args: ReadonlyArray<string>, cwd: string) =>
  Effect.async<{ readonly code: number; readonly output: string }>((resume) => {
    execFile(command, args, { cwd }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
      resume(Effect.succeed({ code, output: `${stdout}${stderr}` }))
    })
  })

/** Runs `buf lint` on a module directory. */
const lint = (dir: string) => run(buf, ["lint"], dir)

/** A buf module in a temporary directory holding `proto` as its file, with the package's buf.yaml. */
const moduleOf = (proto: string): string => {
  const dir = mkdtempSync(join(tmpdir(), "proto-module-"))
  mkdirSync(join(dir, "core", "v1"), { recursive: true })
  copyFileSync(join(protoDir, "buf.yaml"), join(dir, "buf.yaml"))
  writeFileSync(join(dir, FILE), proto)
  return dir
}

/** Runs `buf breaking` (the rules of the package's buf.yaml) of a module against an earlier one. */
const breaking = (dir: string, against: string) =>
  run(buf, ["breaking", dir, "--against", against], dir)

/**
 * The last committed `.proto` that differs from the one in the working tree (the version before
 * the last change), or the one of HEAD when no commit differs.
 */
const lastCommitted = Effect.gen(function* () {
  const git = (...args: ReadonlyArray<string>) => run("git", args, protoDir)
  const log = yield* git("log", "--format=%H", "--", FILE)
  if (log.code !== 0) return yield* Effect.die(new Error(`git log: ${log.output}`))
  for (const commit of [...log.output.split("\n").filter((c) => c !== ""), "HEAD"]) {
    const shown = yield* git("show", `${commit}:./${FILE}`)
    if (shown.code === 0 && (shown.output !== committed || commit === "HEAD")) return shown.output
  }
  return yield* Effect.die(new Error(`no committed proto/${FILE}`))
})

/** The operation table with a field inserted first into ListSatellites' request. */
const withInsertedField = () => {
  const list = Operations.operations.ListSatellites
  const request = list.request as unknown as Schema.Struct<Schema.Struct.Fields>
  return {
    ...Operations.operations,
    ListSatellites: {
      ...list,
      request: Schema.Struct({
        region: Schema.optional(Schema.String),
        ...request.fields
      }).annotations({ identifier: "ListSatellitesRequest" })
    } as unknown as Operation
  }
}

const messageBody = (name: string): string => {
  const m = new RegExp(`^message ${name} \\{\\n([\\s\\S]*?)^\\}`, "m").exec(text)
  if (m === null) throw new Error(`no message ${name}`)
  return m[1]!
}

describe("the .proto of the API", () => {
  it(`proto/${FILE} (written by the package's build script) is the generated file`, () => {
    // If this fails: run `pnpm --filter @data-access/schema build` and commit the .proto.
    expect(committed).toBe(text)
  })

  it("has the table's 13 services and 22 rpcs, each with its own request and response message", () => {
    const services = [...text.matchAll(/^service (\w+) \{$/gm)].map((m) => m[1])
    expect(services).toEqual([...Operations.services.keys()])
    expect(services).toHaveLength(13)
    const rpcs = [...text.matchAll(/^ {2}rpc (\w+)\((\w+)\) returns \((\w+)\);$/gm)].map((m) =>
      m.slice(1)
    )
    const expected = [...Operations.services.values()].flat()
    expect(rpcs).toEqual(
      expected.map((o) => [o.method, `${o.method}Request`, `${o.method}Response`])
    )
    expect(rpcs).toHaveLength(22)
    for (const o of Operations.all) {
      expect(text).toContain(`message ${o.method}Request {`)
      expect(text).toContain(`message ${o.method}Response {`)
    }
  })

  it("maps the wire types, presence and one-ofs of the schemas", () => {
    expect(text).toMatch(/^syntax = "proto3";$/m)
    expect(text).toMatch(/^package core\.v1;$/m)
    expect(messageBody("UpdateConnectorHostnameRequest")).toBe(
      [
        "  string id = 1;",
        "  optional string hostname = 2;",
        "  optional bool managed_tls = 3;",
        "  optional bool termination_protection = 4;",
        "  optional string dns_record = 5;",
        "  // A secret (decisions.md section 8): never logged or shown.",
        "  optional bytes certificate = 6;",
        "  // A secret (decisions.md section 8): never logged or shown.",
        "  optional bytes private_key = 7;",
        ""
      ].join("\n")
    )
    expect(messageBody("CreateHumanUserPasswordRequest")).toBe(
      "  oneof user {\n    string email = 1;\n    string username = 2;\n    string id = 3;\n  }\n"
    )
    expect(messageBody("SatelliteFilter")).toBe(
      "  oneof kind {\n    SatelliteFilterCondition field = 1;\n    SatelliteFilterGroup group = 2;\n  }\n"
    )
    expect(messageBody("SatelliteFilterCondition")).toContain("google.protobuf.Any value = 3;")
    expect(messageBody("SatelliteFilterGroup")).toContain("repeated SatelliteFilter filters = 2;")
    expect(messageBody("LogQuery")).toContain("int64 relative_time = 3;")
    expect(messageBody("ListSatellitesRequest")).toContain(
      "  int32 limit = 1;\n  optional string cursor = 2;"
    )
    expect(messageBody("ListSatellitesResponse")).toBe(
      "  repeated Satellite satellites = 1;\n  ListMetadata list_metadata = 2;\n"
    )
    expect(messageBody("Satellite")).toContain("google.protobuf.Timestamp created_at = 7;")
    expect(messageBody("NativeUserIdentityLink")).toContain("google.protobuf.Struct user = 3;")
    expect(messageBody("DataDiscoveryConfiguration")).toContain("  optional string path = 7;")
    // Response fields have implicit presence: a zero value is left out, as the schemas read it.
    expect(messageBody("Resource")).toContain("  string name = 2;")
    expect(messageBody("CreateHumanUserPasswordResponse")).toContain("repeated Group groups = 3;")
  })

  it("names fields in lower_snake_case whose default JSON name is the schema's key", () => {
    expect(snakeCase("generalizedMetadataServiceUrl")).toBe("generalized_metadata_service_url")
    expect(defaultJsonName("bi_vendor_a")).toBe("biVendorA")
    expect(defaultJsonName("list_metadata")).toBe("listMetadata")
    // Every key of the schemas has that property, so no field needs a json_name option.
    expect(text).not.toContain("json_name")
  })

  it("refuses a schema with no proto form rather than writing a field that cannot carry it", () => {
    const withRequest = (request: Schema.Schema.AnyNoContext) =>
      render({
        Do: {
          ...Operations.operations.GetResource,
          service: "DoService",
          method: "Do",
          request
        } as unknown as Operation
      })
    expect(withRequest(Schema.Struct({ n: Schema.Int.pipe(Schema.between(0, 9)) }))).toContain(
      "int32 n = 1;"
    )
    expect(() => withRequest(Schema.Struct({ n: Schema.NonNegativeInt }))).toThrow(
      "proto: DoRequest.n: an integer must be bounded within int32"
    )
    expect(() => withRequest(Schema.Struct({ n: Schema.Number }))).toThrow("not an integer")
    expect(() =>
      withRequest(Schema.Struct({ n: Schema.Union(Schema.String, Schema.Boolean) }))
    ).toThrow("DoRequest.n: a union")
    expect(() =>
      withRequest(Schema.Struct({ n: Schema.Array(Schema.Array(Schema.String)) }))
    ).toThrow("an array of arrays")
  })

  it.effect("passes `buf lint`", () =>
    Effect.gen(function* () {
      expect(yield* lint(protoDir)).toEqual({ code: 0, output: "" })
    })
  )

  it.effect("passes `buf breaking` against the last committed .proto", () =>
    Effect.gen(function* () {
      const against = moduleOf(yield* lastCommitted)
      try {
        // If this fails: the change breaks clients built from the released .proto (see buf.yaml).
        expect(yield* breaking(protoDir, against)).toEqual({ code: 0, output: "" })
      } finally {
        rmSync(against, { recursive: true, force: true })
      }
    })
  )

  it.effect("a field inserted before others takes a new number and the others keep theirs", () =>
    Effect.gen(function* () {
      const inserted = render(withInsertedField(), committed)
      const body = /^message ListSatellitesRequest \{\n([\s\S]*?)^\}/m.exec(inserted)![1]
      expect(body).toBe(
        [
          "  optional string region = 8;",
          "  int32 limit = 1;",
          "  optional string cursor = 2;",
          "  optional string order = 3;",
          "  repeated string search_fields = 4;",
          "  optional string search = 5;",
          "  SatelliteFilter filter = 6;",
          "  optional string space_id = 7;",
          ""
        ].join("\n")
      )
      // Every other line is unchanged.
      expect(inserted.replace("  optional string region = 8;\n", "")).toBe(text)
      const dir = moduleOf(inserted)
      const renumbered = moduleOf(render(withInsertedField()))
      const against = moduleOf(committed)
      try {
        expect(yield* breaking(dir, against)).toEqual({ code: 0, output: "" })
        // Numbered by property order, as without the committed file, it breaks (the check can fail).
        const broken = yield* breaking(renumbered, against)
        expect(broken.code).not.toBe(0)
        expect(broken.output).toContain(
          `Field "1" with name "region" on message "ListSatellitesRequest" changed option "json_name" from "limit" to "region"`
        )
      } finally {
        for (const d of [dir, renumbered, against]) rmSync(d, { recursive: true, force: true })
      }
    })
  )

  it("a removed field's number and name are reserved, and a field added later takes a new number", () => {
    const dropped = render(undefined, render(withInsertedField(), committed))
    const body = /^message ListSatellitesRequest \{\n([\s\S]*?)^\}/m.exec(dropped)![1]
    expect(body).toContain('  reserved 8;\n  reserved "region";\n')
    expect(render(withInsertedField(), dropped)).toContain("  optional string region = 9;\n")
  })

  it.effect("`buf lint` fails a broken copy (so the check above can fail)", () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(join(tmpdir(), "proto-lint-"))
      try {
        mkdirSync(join(dir, "core", "v1"), { recursive: true })
        copyFileSync(join(protoDir, "buf.yaml"), join(dir, "buf.yaml"))
        writeFileSync(
          join(dir, FILE),
          text.replace("string native_user_id = 1;", "string nativeUserId = 1;")
        )
        const result = yield* lint(dir)
        expect(result.code).not.toBe(0)
        expect(result.output).toContain(`Field name "nativeUserId" should be lower_snake_case`)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })
  )
})
