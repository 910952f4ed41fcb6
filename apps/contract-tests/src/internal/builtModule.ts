/**
 * Where a thread's module is: beside the module that starts it once built; run from its TypeScript
 * source (the package's own tests, under vitest), the same place in `dist/` (turbo builds before it
 * tests; the tests' global setup rebuilds a `dist/` older than `src/`).
 */

/** `file` in the built directory of the module at `here`. */
export const builtSibling = (here: string, file: string): URL =>
  new URL(file, here.endsWith(".ts") ? here.replace(/\/src\/(?!.*\/src\/)/, "/dist/") : here)
