import { defineConfig } from "vitest/config"
import { packageTests } from "../../vitest.shared.mjs"

export default defineConfig({
  test: {
    ...packageTests,
    testTimeout: 300_000,
    hookTimeout: 600_000,
    // The tests share one directory of packed tarballs (made once by the global setup) and
    // spawn pnpm, tsc and servers: one file at a time keeps the 2-core CI machine calm.
    fileParallelism: false,
    globalSetup: ["test/pack.setup.ts"]
  }
})
