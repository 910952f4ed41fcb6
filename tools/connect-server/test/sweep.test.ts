// The precision sweep's command (sweep/README.md) runs as documented: a faithful variant whose
// domain writes random ids and whole-second times, and the server on HTTP/2 without TLS only as
// connect-node's documentation serves it (the runner with --http2-prior-knowledge), each with no
// finding (the runner narrowed to a List and an Update, whose rules read ids and times).
import { describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

const exec = promisify(execFile)
const root = fileURLToPath(new URL("..", import.meta.url))

describe("the faithful variants' sweep", () => {
  it("runs the command line against each variant: exit 0, no finding", async () => {
    const { stdout } = await exec(
      process.execPath,
      [
        "sweep/run.mjs",
        "--variants",
        "uuid-s-ties,h2c",
        "--seeds",
        "1",
        "--examples",
        "2",
        "--",
        "--rate-limit",
        "0",
        "--operations",
        "ListSatellites,UpdateSatellite"
      ],
      { cwd: root, maxBuffer: 16 * 1024 * 1024 }
    )
    const lines = stdout.split("\n").filter((l) => /^[a-z0-9-]+-s1-e2: /.test(l))
    expect(lines.map((l) => l.replace(/, \d+ requests.*/, ""))).toEqual([
      "uuid-s-ties-s1-e2: exit 0, 0 findings",
      "h2c-s1-e2: exit 0, 0 findings"
    ])
  }, 600_000)
})
