/** This package's version, read once from its package.json (the one version it reports). */
import { readFileSync } from "node:fs"

/** The version of `@data-access/contract-tests` (its package.json, beside `src/` and `dist/`). */
export const version: string = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    readonly version: string
  }
).version
