// The test settings every package shares; a package's vitest.config.ts adds only what differs.

/**
 * Each package's tests live in `test/` as `*.test.ts`, run with `isolate: false`: their files keep
 * no state between them (servers, layers, scopes and temporary projects end with each test or
 * file), so a worker imports effect and the package once, not once per file.
 */
export const packageTests = {
  include: ["test/**/*.test.ts"],
  testTimeout: 60_000,
  hookTimeout: 60_000,
  isolate: false
}
