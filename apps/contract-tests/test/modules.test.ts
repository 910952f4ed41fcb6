import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { ids as checkIds } from "@data-access/schema/ContractChecks"
import * as Oracles from "../src/internal/oracles/index.js"

const src = resolve(dirname(fileURLToPath(import.meta.url)), "../src")

/** Every module of `src` and the modules of `src` it imports or re-exports (type-only imports too). */
const importGraph = (): ReadonlyMap<string, ReadonlySet<string>> => {
  const files: Array<string> = []
  const collect = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) collect(path)
      else if (path.endsWith(".ts")) files.push(path)
    }
  }
  collect(src)
  const known = new Set(files)
  return new Map(
    files.map((file) => {
      const text = readFileSync(file, "utf8")
      const targets = [
        ...text.matchAll(/(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?["'](\.[^"']+)["']/g)
      ].map((m) => resolve(dirname(file), m[1]!.replace(/\.js$/, ".ts")))
      return [
        relative(src, file),
        new Set(targets.filter((t) => known.has(t)).map((t) => relative(src, t)))
      ]
    })
  )
}

/** The groups of modules that import each other, directly or through others (Tarjan's strongly connected components). */
const circles = (
  graph: ReadonlyMap<string, ReadonlySet<string>>
): ReadonlyArray<ReadonlyArray<string>> => {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const out: Array<Array<string>> = []
  const visit = (v: string): void => {
    index.set(v, next)
    low.set(v, next++)
    stack.push(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const group: Array<string> = []
      let w: string
      do {
        w = stack.pop()!
        group.push(w)
      } while (w !== v)
      if (group.length > 1) out.push(group.sort())
    }
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return out
}

/** The modules of the public face: those at the top of `src`. */
const isPublic = (module: string): boolean => !module.includes("/")

/** The folder of `internal/` a module is in (`judge`, `har`...), `undefined` for one at its top. */
const folderOf = (module: string): string | undefined => /^internal\/([^/]+)\//.exec(module)?.[1]

/** The check a module of `internal/oracles/` holds the oracles of, `undefined` for its index. */
const checkOfModule = (module: string): string | undefined => {
  const m = /^internal\/oracles\/([^/]+)\.ts$/.exec(module)
  return m !== null && (checkIds as ReadonlyArray<string>).includes(m[1]!) ? m[1] : undefined
}

/** The folders of `internal/` a folder must not import: the judge sits below the proxy and the HAR judge, which are siblings. */
const forbiddenFolders: Readonly<Record<string, ReadonlyArray<string>>> = {
  judge: ["proxy", "har"],
  har: ["proxy"],
  proxy: ["har"],
  recording: ["judge", "proxy", "har"]
}

/** Each import that breaks the layers, as `from -> to`. */
const layerBreaches = (graph: ReadonlyMap<string, ReadonlySet<string>>): ReadonlyArray<string> =>
  [...graph].flatMap(([from, targets]) =>
    [...targets]
      .filter((to) => {
        if (!from.startsWith("internal/")) return false
        if (isPublic(to)) return true
        const a = folderOf(from)
        const b = folderOf(to)
        if (a !== undefined && b !== undefined && forbiddenFolders[a]?.includes(b)) return true
        const check = checkOfModule(from)
        const other = checkOfModule(to)
        return check !== undefined && other !== undefined && other !== check
      })
      .map((to) => `${from} -> ${to}`)
  )

describe("the modules of the runner and the proxy", () => {
  it("import no module that imports them back, type-only imports included", () => {
    const graph = importGraph()
    expect(graph.size).toBeGreaterThan(30)
    expect(circles(graph)).toEqual([])
  })

  it("would show a circle (the check reads imports, re-exports and type-only imports)", () => {
    const graph = new Map([
      ["a.ts", new Set(["b.ts"])],
      ["b.ts", new Set(["c.ts"])],
      ["c.ts", new Set(["a.ts"])],
      ["d.ts", new Set(["a.ts"])]
    ])
    expect(circles(graph)).toEqual([["a.ts", "b.ts", "c.ts"]])
    expect([...importGraph().get("Report.ts")!]).toContain("internal/report/model.ts")
  })

  it("keep their layers: internal/ imports no public module, the judge neither the proxy nor the HAR judge, those two not each other, and no check's oracles another check's", () => {
    expect(layerBreaches(importGraph())).toEqual([])
  })

  it("would show a layer broken (the check reads the folders and the public face)", () => {
    const graph = new Map([
      ["internal/har/read.ts", new Set(["internal/proxy/state.ts", "internal/judge/store.ts"])],
      ["internal/proxy/relay.ts", new Set(["internal/har/read.ts"])],
      ["internal/judge/store.ts", new Set(["internal/proxy/types.ts"])],
      ["internal/findings.ts", new Set(["Report.ts", "internal/report/model.ts"])],
      [
        "internal/oracles/paging.ts",
        new Set(["internal/oracles/search-filter.ts", "internal/exchangeOracle.ts"])
      ],
      ["Report.ts", new Set(["internal/report/render.ts"])]
    ])
    expect(layerBreaches(graph)).toEqual([
      "internal/har/read.ts -> internal/proxy/state.ts",
      "internal/proxy/relay.ts -> internal/har/read.ts",
      "internal/judge/store.ts -> internal/proxy/types.ts",
      "internal/findings.ts -> Report.ts",
      "internal/oracles/paging.ts -> internal/oracles/search-filter.ts"
    ])
  })

  it("list every check's oracle module in the registry's index, each oracle under its own check", () => {
    const folder = readdirSync(join(src, "internal/oracles"))
      .map((name) => `internal/oracles/${name}`)
      .flatMap((module) => checkOfModule(module) ?? [])
    expect(Oracles.modules.map(([check]) => check).sort()).toEqual([...folder].sort())
    for (const [check, module] of Oracles.modules) {
      expect(module.oracles.length, check).toBeGreaterThan(0)
      for (const oracle of module.oracles) expect(oracle.check, oracle.name).toBe(check)
    }
    expect(Oracles.registry).toEqual(Oracles.modules.flatMap(([, module]) => module.oracles))
  })
})
