import { defineConfig } from "vitest/config"
import { packageTests } from "../../vitest.shared.mjs"

export default defineConfig({
  test: {
    ...packageTests,
    testTimeout: 120_000,
    hookTimeout: 120_000
  }
})
