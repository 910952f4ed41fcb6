import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

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
})
