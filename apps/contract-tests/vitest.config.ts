import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The proxy's judging thread runs the built JavaScript: build first when `src/` is newer.
    globalSetup: ["test/build.setup.ts"],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    // Every file runs the runner against servers it starts itself: files are independent and
    // CPU-bound, so one per core (vitest's default leaves one core idle on a 2-core machine).
    maxWorkers: Math.max(2, availableParallelism())
  }
})
