import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"
import { packageTests } from "../../vitest.shared.mjs"

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url))

// The contract-test runs judge the reference server's source (the files StrykerJS mutates), not its
// build: `@data-access/reference-server` and the runner that imports it resolve to their `src`.
// `@data-access/schema` stays the build: the runner reads the same modules, so it is not mutated.
export default defineConfig({
  resolve: {
    alias: [
      {
        find: /^@data-access\/reference-server$/,
        replacement: root("packages/reference-server/src/index.ts")
      },
      {
        find: /^@data-access\/contract-tests$/,
        replacement: root("apps/contract-tests/src/index.ts")
      }
    ]
  },
  root: fileURLToPath(new URL(".", import.meta.url)),
  test: {
    ...packageTests,
    isolate: true,
    testTimeout: 120_000,
    hookTimeout: 60_000
  }
})
