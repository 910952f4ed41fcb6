// Packed-install smoke test of the Effect 4 line, as a new user on Effect 4 installs it: for pnpm
// and for npm, an empty project in os.tmpdir() runs the install lines of the Effect 4 packages'
// READMEs verbatim (a line two READMEs share, once; our package names replaced by the packed
// tarballs), under Node 22 (Effect 4 needs >= 22.19; `npx -p node@22.23.3` fetches it when this
// Node is older). Then `effect@latest`
// (Effect 4 today) is added the way a user upgrading would: no install prints a peer-dependency
// or engine warning, one copy of effect (4.x) is installed, and the READMEs' first examples
// type-check against the packed types; the schema README's first program runs.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { effectLineOf, installCommands, publishable, readmeExamples } from "../src/workspace.mjs"
import { runCommand } from "../src/command.mjs"
import {
  copiesIn,
  emptyProject,
  exampleFile,
  type Manager,
  type Package,
  strictOptions,
  tsc,
  userEnv as baseEnv
} from "./smoke-project.js"

const packages = (publishable() as ReadonlyArray<Package>).filter((p) => effectLineOf(p.pkg) === 4)
const readmeOf = (p: Package) => join(p.dir, "README.md")
const NODE = "22.23.3"

/** The warnings that must not appear: a peer dependency not met, an engine not satisfied. */
const PEER_OR_ENGINE =
  /unmet peer|ERESOLVE|peer dep|incorrect peer|missing peer|EBADENGINE|Unsupported engine/i

describe.each(["pnpm", "npm"] as const)(
  "the Effect 4 line installed with %s from its README lines",
  (manager) => {
    let app: string
    let env: Record<string, string>
    const installs: Array<{ line: string; status: number | null; output: string }> = []
    const sh = (args: ReadonlyArray<string>) =>
      runCommand("sh", ["-c", args.join(" ")], {
        cwd: app,
        encoding: "utf8",
        env: { ...env, NO_COLOR: "1" },
        timeout: 240_000
      })

    beforeAll(async () => {
      // Node 22 first on the PATH: npm and pnpm (node scripts) and the programs run on it.
      const which = await runCommand(
        "npx",
        ["-y", "-p", `node@${NODE}`, "node", "-p", "process.execPath"],
        { encoding: "utf8", env: baseEnv }
      )
      const node22 = which.stdout.trim().split("\n").pop()!
      env = { ...baseEnv, PATH: `${dirname(node22)}:${baseEnv.PATH ?? ""}` }
      const tarballs = inject("tarballs")
      app = await emptyProject(manager, tarballs, "smoke-app-effect4")
      const lines = packages.flatMap((p) =>
        (installCommands(readmeOf(p)) as ReadonlyArray<{ manager: Manager; line: string }>)
          .filter((c) => c.manager === manager)
          .map((c) => c.line)
      )
      // A line two READMEs share (the test layer's repeats the client's) is run once.
      const distinct = lines.filter((line, i) => lines.indexOf(line) === i)
      // The README lines verbatim, then effect@latest as a user upgrading would add it.
      const upgrade = manager === "pnpm" ? "pnpm add effect@latest" : "npm install effect@latest"
      for (const line of [...distinct, upgrade]) {
        const r = await sh([line.replace(/\S+/g, (w) => tarballs[w] ?? w)])
        installs.push({ line, status: r.status, output: r.stdout + r.stderr })
      }
      for (const p of packages) {
        writeFileSync(
          join(app, exampleFile(p.name)),
          (readmeExamples(readmeOf(p)) as ReadonlyArray<string>)[0]!
        )
      }
    }, 600_000)

    afterAll(() => {
      if (app) rmSync(app, { recursive: true, force: true })
    })

    it("every README line and effect@latest install, with no peer-dependency or engine warning", () => {
      expect(installs.length).toBeGreaterThanOrEqual(packages.length * 1 + 1)
      for (const i of installs) {
        expect({ line: i.line, status: i.status, output: i.output.slice(-2000) }).toMatchObject({
          status: 0
        })
        expect(i.output, i.line).not.toMatch(PEER_OR_ENGINE)
      }
    })

    it("exactly one copy of effect, on the 4 line, next to the three packages", () => {
      const copies = (copiesIn(app).copies.get("effect") ?? []).map(
        (path) =>
          (JSON.parse(readFileSync(join(app, path, "package.json"), "utf8")) as { version: string })
            .version
      )
      expect(new Set(copies).size).toBe(1)
      expect(copies[0]).toMatch(/^4\./)
      for (const p of packages)
        expect(existsSync(join(app, "node_modules", p.name, "package.json")), p.name).toBe(true)
    })

    it("the READMEs' first examples type-check against the packed types", async () => {
      writeFileSync(
        join(app, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: { ...strictOptions, noEmit: true },
          files: packages.map((p) => exampleFile(p.name))
        })
      )
      const r = await runCommand(tsc, ["-p", "tsconfig.json"], { cwd: app, encoding: "utf8" })
      expect({ status: r.status, output: r.stdout + r.stderr }).toEqual({ status: 0, output: "" })
    })

    it("the schema README's first program runs on Node 22", async () => {
      const r = await sh(["node", "readme-schema-effect4.ts"])
      expect({
        status: r.status,
        stderr: r.stderr
          .replace(/^.*ExperimentalWarning.*\n?/gm, "")
          .replace(/^\(Use `node --trace-warnings.*\n?/gm, "")
      }).toEqual({ status: 0, stderr: "" })
    })
  }
)
