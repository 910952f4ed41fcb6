// Under the machine's Node only (scripts/node-lines): the generated modules against the generator's output, text.
/**
 * The generated modules are the generator's output for the current `@data-access/client`
 * sources: a change there without `pnpm --filter @data-access/client-effect4 generate` fails here.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"
// @ts-expect-error: a plain .mjs script without types
import { outputDirectory, render } from "../scripts/generate.mjs"

describe("src/generated", () => {
  it("is up to date with @data-access/client", async () => {
    const files = (await render()) as Record<string, string>
    expect(Object.keys(files)).toEqual([
      "ClientError.ts",
      "internal/clientError.ts",
      "Services.ts",
      "internal/services.ts",
      "Paging.ts",
      "DataAccessClient.ts",
      "internal/dataAccessClient.ts",
      "internal/calls.ts"
    ])
    for (const [name, text] of Object.entries(files)) {
      expect(
        readFileSync(join(outputDirectory as string, name), "utf8"),
        `src/generated/${name} is stale: run the generator`
      ).toBe(text)
    }
  })
})
