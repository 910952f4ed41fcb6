import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each worker imports effect and the package once, not once per file (the files keep no state
    // between them: their servers, layers and scopes end with each test), which was a third of
    // this suite's CPU under each Node line.
    isolate: false
  }
})
