// Under the machine's Node only (scripts/node-lines): the generated modules against the generator's output, text.
/**
 * The generated files are the generator's output for the current `@data-access/schema`: a change
 * to the Effect 3 contract without `pnpm --filter @data-access/schema-effect4 generate` fails here.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"
// @ts-expect-error: a plain .mjs script without types
import { outputDirectory, render } from "../scripts/generate.mjs"

describe("src/generated", () => {
  it("is up to date with @data-access/schema", async () => {
    const files = (await render()) as Record<string, string>
    expect(Object.keys(files).length).toBeGreaterThan(5)
    for (const [name, text] of Object.entries(files)) {
      expect(
        readFileSync(join(outputDirectory as string, name), "utf8"),
        `src/generated/${name} is stale: run the generator`
      ).toBe(text)
    }
  })
})
