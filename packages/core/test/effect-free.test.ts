// Under the machine's Node only (scripts/node-lines): the package's sources, read as files.
// The core serves both Effect lines, so it must not bring either: no `effect` import in its
// modules and no `effect` in its dependencies or peers.
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"

const src = new URL("../src/", import.meta.url).pathname

it("no module imports effect or @effect/*", () => {
  const files = readdirSync(src, { recursive: true, encoding: "utf8" }).filter((f) =>
    f.endsWith(".ts")
  )
  expect(files.length).toBeGreaterThan(10)
  for (const file of files) {
    const text = readFileSync(join(src, file), "utf8")
    expect({
      file,
      imports: [...text.matchAll(/from "(effect|@effect\/[^"]+)[^"]*"/g)].map((m) => m[0])
    }).toEqual({ file, imports: [] })
  }
})

it("the package depends on nothing and has no peer", () => {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
  expect(pkg.dependencies).toBeUndefined()
  expect(pkg.peerDependencies).toBeUndefined()
})
