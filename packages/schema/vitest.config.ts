import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The files share nothing but the modules they import (pure schemas and functions: no mutable
    // module state, no hooks, no mocks), so each worker imports effect and the package once, not
    // once per file: more than half the CPU of this suite was those imports, under each of the
    // three Node lines.
    isolate: false
  }
})
