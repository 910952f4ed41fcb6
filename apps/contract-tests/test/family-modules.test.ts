import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const families = resolve(dirname(fileURLToPath(import.meta.url)), "../src/internal/families")

/** Every module under `families/`, by its path there, with its text. */
const modules = (): ReadonlyMap<string, string> => {
  const out = new Map<string, string>()
  const collect = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) collect(path)
      else if (path.endsWith(".ts")) out.set(relative(families, path), readFileSync(path, "utf8"))
    }
  }
  collect(families)
  return out
}

/** The modules under `families/` that a module imports or re-exports (type-only imports too), by their path there. */
const importsOf = (from: string, text: string): ReadonlyArray<string> =>
  [...text.matchAll(/(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?["'](\.[^"']+)["']/g)]
    .map((m) => relative(families, resolve(dirname(join(families, from)), m[1]!)))
    .filter((to) => !to.startsWith(".."))
    .map((to) => to.replace(/\.js$/, ".ts"))

/**
 * The family a module belongs to (its folder, or its own name at the top), or `undefined` for the
 * modules that belong to none: the registry, the create budget and `shared/`.
 */
const familyOf = (path: string): string | undefined => {
  const [head, ...rest] = path.split("/")
  if (head === "shared" || path === "index.ts" || path === "creates.ts") return undefined
  return rest.length === 0 ? head!.replace(/\.ts$/, "") : head
}

/** Each import that crosses from one family to another, or from `shared/` to a family, as `from -> to`. */
const breaches = (texts: ReadonlyMap<string, string>): ReadonlyArray<string> =>
  [...texts].flatMap(([from, text]) =>
    importsOf(from, text)
      .filter((to) => {
        const target = familyOf(to)
        if (target === undefined) return false
        if (from.startsWith("shared/")) return true
        const own = familyOf(from)
        return own !== undefined && own !== target
      })
      .map((to) => `${from} -> ${to}`)
  )

/** The line limit of a hand-written module. */
const MAX_LINES = 500

describe("the modules of the check families", () => {
  it("import no other family's module; shared/ imports no family", () => {
    const texts = modules()
    expect(texts.size).toBeGreaterThan(20)
    expect(breaches(texts)).toEqual([])
  })

  it("would show an import across families, and from shared/ into a family", () => {
    const texts = new Map([
      ["valid.ts", 'import { x } from "./latitude/probes.js"\n'],
      [
        "latitude/probes.ts",
        'import { y } from "./references.js"\nimport { z } from "../shared/sampleBodies.js"\n'
      ],
      ["shared/sampleBodies.ts", 'import type { W } from "../auth.js"\n'],
      ["creates.ts", 'import { v } from "./latitude/probes.js"\n'],
      ["spellings/index.ts", 'import { u } from "../creates.js"\n']
    ])
    expect(breaches(texts)).toEqual([
      "valid.ts -> latitude/probes.ts",
      "shared/sampleBodies.ts -> auth.ts"
    ])
  })

  it(`are at most ${MAX_LINES} lines each`, () => {
    const long = [...modules()]
      .map(([path, text]) => [path, text.split("\n").length - 1] as const)
      .filter(([, lines]) => lines > MAX_LINES)
    expect(long).toEqual([])
  })
})
