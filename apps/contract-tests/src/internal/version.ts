/** This package's version, read once from its package.json (the one version it reports). */
import { createRequire } from "node:module"

/**
 * The version of `@data-access/contract-tests`: its package.json by the package's own name, which
 * resolves from its sources, its build and the judging thread's bundle alike.
 */
export const version: string = (
  createRequire(import.meta.url)("@data-access/contract-tests/package.json") as {
    readonly version: string
  }
).version
