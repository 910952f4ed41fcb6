// The workspace's package directories, read from pnpm-workspace.yaml: the one list of them that the
// test and bench scripts and the release checks (tools/package-check) walk.
import { existsSync, readFileSync, readdirSync } from "node:fs"
import { join } from "node:path"

/** Every workspace package directory under `root` (from pnpm-workspace.yaml's globs: `dir/*` or `dir`). */
export const workspaceDirs = (root) => {
  const yaml = readFileSync(join(root, "pnpm-workspace.yaml"), "utf8")
  const globs = [...yaml.split("packages:")[1].matchAll(/^\s+-\s+["']?([^"'\n]+)["']?$/gm)].map(
    (m) => m[1].trim()
  )
  return globs
    .flatMap((glob) =>
      glob.endsWith("/*")
        ? readdirSync(join(root, glob.slice(0, -2))).map((name) =>
            join(root, glob.slice(0, -2), name)
          )
        : [join(root, glob)]
    )
    .filter((dir) => existsSync(join(dir, "package.json")))
}
