// The rule of the Node lines (README, Testing): a library package's test file that runs under the
// machine's Node only uses nothing a Node line changes. Read from the files' text: what they
// import and call.
import { readFileSync } from "node:fs"
import { relative } from "node:path"
import { describe, expect, it } from "vitest"
// @ts-expect-error: a plain .mjs script without types
import { linePackages, lineTestFiles, MACHINE_ONLY } from "../../../scripts/node-lines/index.mjs"
// @ts-expect-error: a plain .mjs script without types
import { workspaceDirs } from "../../../scripts/workspaces.mjs"
import { root } from "../src/workspace.mjs"

/**
 * What a Node line changes, as a test file uses it: sockets and HTTP (node:http, fetch, undici's
 * Request and Response, the platform's HTTP layers, a server of the package's), workers, zlib,
 * util.inspect, V8's Date parsing and printing, Intl.
 */
const CHANGED_BY_A_LINE = [
  /from "node:(http|https|http2|net|tls|dgram|worker_threads|zlib|util)"/,
  /from "(undici|@effect\/platform-node[^"]*)"/,
  /from "\.\/(server|helpers)\.js"/,
  /\b(ReferenceServer\.start|startInWorker|serverLayer)\b/,
  /\bfetch\(|\bnew (Request|Response)\(/,
  /\bDate\.parse\(|\.to(UTC|Locale\w*)String\(|\bIntl\./
]

const packages = (linePackages(workspaceDirs(root)) as ReadonlyArray<{ dir: string }>).map(
  ({ dir }) => ({ dir, files: lineTestFiles(dir) as { all: Array<string>; lines: Array<string> } })
)
const machineOnly = packages.flatMap(({ files }) =>
  files.all.filter((file) => !files.lines.includes(file))
)

describe("the test files the Node lines leave to the machine's Node", () => {
  it("say why in their first line, and there are some", () => {
    expect(machineOnly.length).toBeGreaterThan(10)
    for (const file of machineOnly)
      expect(readFileSync(file, "utf8").split("\n")[0], relative(root, file)).toMatch(
        new RegExp(`^${MACHINE_ONLY.replace(/[()]/g, "\\$&")}\\S.*\\.$`)
      )
  })

  it.each(machineOnly.map((file) => [relative(root, file), file] as const))(
    "%s uses nothing a Node line changes",
    (_, file) => {
      const text = readFileSync(file, "utf8")
      expect(CHANGED_BY_A_LINE.filter((pattern) => pattern.test(text)).map(String)).toEqual([])
    }
  )
})
