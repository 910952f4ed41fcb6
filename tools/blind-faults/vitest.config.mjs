import { defineConfig } from "vitest/config"
import { packageTests } from "../../vitest.shared.mjs"

export default defineConfig({
  test: {
    ...packageTests,
    include: ["test/**/*.test.mjs"],
    testTimeout: 300_000,
    hookTimeout: 300_000
  }
})
