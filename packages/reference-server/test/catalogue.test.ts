import { ContractRules, Operations } from "@data-access/schema"
import { afterAll, describe, expect, it, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { Faults, ReferenceServer } from "../src/index.js"
import * as LatitudeCatalogue from "../src/internal/latitude.js"
import type { Hooks } from "../src/internal/pipeline-types.js"
import * as ViolationCatalogue from "../src/internal/violations/index.js"
import { serverLayer, TestServer } from "./helpers.js"
import { expectProbesUnderAll } from "./latitude-cases.js"
import { probes } from "./violation-probes.js"

// ---------------------------------------------------------------------------------------------
// Every hook of every record records when it runs: a stage it built, each time it is called; a
// stage that is a value (the protocol checks, return-secrets), when it is put on the pipeline.
// The records are instrumented before any server of this file composes them.
// ---------------------------------------------------------------------------------------------

type AnyFunction = (...args: Array<unknown>) => unknown

const exercised = new Map<string, Set<string>>()

const instrument = (name: string, hooks: Hooks): Hooks => {
  const seen = new Set<string>()
  exercised.set(name, seen)
  return Object.fromEntries(
    Object.entries(hooks).map(([stage, hook]) => [
      stage,
      (next: unknown, ...rest: Array<unknown>) => {
        const made = (hook as AnyFunction)(next, ...rest)
        if (made === next) return made
        if (typeof made !== "function") {
          seen.add(stage)
          return made
        }
        return (...args: Array<unknown>) => {
          seen.add(stage)
          return (made as AnyFunction)(...args)
        }
      }
    ])
  )
}

type Mutable = { hooks: Hooks }
const originals = [...ViolationCatalogue.records, ...LatitudeCatalogue.records].map(
  (r) => [r, r.hooks] as const
)
for (const [r, hooks] of originals) (r as Mutable).hooks = instrument(r.name, hooks)
afterAll(() => {
  for (const [r, hooks] of originals) (r as Mutable).hooks = hooks
})

const stagesOf = (hooks: Hooks) => Object.keys(hooks).sort()

describe("the catalogue", () => {
  it("every rule of ContractRules has a violation record that names it; every record names a rule (several records may break one rule)", () => {
    for (const rule of ContractRules.rules) {
      expect(
        ViolationCatalogue.records.filter((r) => r.rule === rule.id).length,
        rule.id
      ).toBeGreaterThan(0)
    }
    for (const r of ViolationCatalogue.records) {
      expect(ContractRules.isRuleId(r.rule), r.name).toBe(true)
      expect(stagesOf(r.hooks).length, `${r.name} has hooks`).toBeGreaterThan(0)
    }
    expect(new Set(ViolationCatalogue.records.map((r) => r.name)).size).toBe(
      ViolationCatalogue.records.length
    )
    // The public catalogue is the records' public part, in the same order.
    expect(Faults.violations).toEqual(
      ViolationCatalogue.records.map((r) => ({
        name: r.name,
        rule: r.rule,
        check: ContractRules.get(r.rule).check,
        description: r.description
      }))
    )
    expect(ReferenceServer.violations).toBe(Faults.violations)
  })

  it("every switch of ContractRules.latitude has exactly one record, with its row", () => {
    for (const row of ContractRules.latitude) {
      const records = LatitudeCatalogue.records.filter((r) => r.name === row.name)
      expect(records.length, row.name).toBe(1)
      expect(records[0]!.row).toBe(row)
      expect(stagesOf(records[0]!.hooks).length, `${row.name} has hooks`).toBeGreaterThan(0)
    }
    expect(LatitudeCatalogue.records.length).toBe(ContractRules.latitude.length)
  })
})

layer(serverLayer())(
  "every hook of a violation runs while it is on, and the answer shows it",
  (it) => {
    for (const r of ViolationCatalogue.records) {
      it.effect(`${r.name}: ${stagesOf(r.hooks).join(", ")}`, () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          yield* server.setFaults({ rules: [{ fault: { _tag: "Violation", name: r.name } }] })
          const visible = yield* probes[r.name](server)
          yield* server.setFaults(Faults.none)
          expect(visible, "the probe sees the violation").toBe(true)
          expect([...exercised.get(r.name)!].sort(), "the hooks that ran").toEqual(
            stagesOf(r.hooks)
          )
        })
      )
    }
  }
)

describe("latitude hooks", () => {
  it.scoped(
    "with every switch on, every hook of every switch runs under the switches' probes",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({ latitude: "all" })
        yield* expectProbesUnderAll(server)
        for (const r of LatitudeCatalogue.records)
          expect([...exercised.get(r.name)!].sort(), r.name).toEqual(stagesOf(r.hooks))
      })
  )
})

// ---------------------------------------------------------------------------------------------
// The source
// ---------------------------------------------------------------------------------------------

const src = new URL("../src/", import.meta.url)
const files = (Fs.readdirSync(src, { recursive: true }) as Array<string>).filter((f) =>
  f.endsWith(".ts")
)
const read = (file: string) => Fs.readFileSync(new URL(file, src), "utf8")
/** The code of a source file, without its comments (roughly: block comments and line comments). */
const code = (file: string) =>
  read(file)
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "")

describe("the pipeline's source", () => {
  it("app.ts tests no violation, switch or operation by name, and asks no set whether a name is on", () => {
    const app = code("internal/app.ts")
    const names = [
      ...ViolationCatalogue.records.map((r) => r.name),
      ...ContractRules.latitudeNames,
      ...Operations.all.map((op) => op.method)
    ]
    for (const name of names)
      expect(app, name).not.toMatch(new RegExp(`(\\.has\\(|===|!==|case)\\s*"${name}"`))
    expect(app).not.toMatch(/\.has\("/)
    expect(app).not.toMatch(/state\.latitude\??\.(?!has\(r\.name\))/)
  })

  it("no module of the server compares a method name: facts about operations come from the operation table", () => {
    for (const file of files) {
      const text = code(file)
      for (const op of Operations.all)
        expect(text, `${file}: ${op.method}`).not.toMatch(
          new RegExp(`(===|!==|case)\\s*"${op.method}"`)
        )
    }
  })

  it("no two modules of the server import each other", () => {
    const imports = new Map(
      files.map((file) => {
        const targets = [...read(file).matchAll(/from "(\.{1,2}\/[^"]+)\.js"/g)].map((m) =>
          Path.normalize(Path.join(Path.dirname(file), `${m[1]}.ts`))
        )
        return [Path.normalize(file), new Set(targets)] as const
      })
    )
    for (const [file, targets] of imports) {
      for (const target of targets)
        expect(imports.get(target)?.has(file) ?? false, `${file} <-> ${target}`).toBe(false)
    }
  })
})
