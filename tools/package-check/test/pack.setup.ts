// Packs every publishable package once (as `pnpm publish` would) into a fresh directory under
// os.tmpdir(); the test files read the tarballs from there. Removed after the run.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TestProject } from "vitest/node"
import { packAll } from "../src/workspace.mjs"

declare module "vitest" {
  export interface ProvidedContext {
    packDir: string
    tarballs: Record<string, string>
  }
}

export default async function setup(project: TestProject) {
  const packDir = mkdtempSync(join(tmpdir(), "data-access-packs-"))
  const tarballs = (await packAll(packDir)) as Record<string, string>
  project.provide("packDir", packDir)
  project.provide("tarballs", tarballs)
  return () => rmSync(packDir, { recursive: true, force: true })
}
