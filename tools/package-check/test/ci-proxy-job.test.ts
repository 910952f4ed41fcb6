// docs/ci/contract-proxy.yml run as its job runs it: the step's script under `bash -e`, the
// proxy started by the package's executable in front of a reference server, traffic through it,
// SIGTERM, then the report files and the job's exit code. Only what GitHub provides is stood in
// for: the installed package (a link to this workspace's build) and the project's own suite.
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  existsSync,
  symlinkSync,
  writeFileSync
} from "node:fs"
import { createServer } from "node:net"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parse } from "yaml"
import { ReferenceServer } from "@data-access/reference-server"
import { root } from "../src/workspace.mjs"
import { runCommand } from "../src/command.mjs"

const KEY = "ci-proxy-job-key-1029384756"
const workflow = parse(readFileSync(join(root, "docs/ci/contract-proxy.yml"), "utf8"))
const job = workflow.jobs["e2e-through-proxy"]
const step = (job.steps as ReadonlyArray<Record<string, any>>).find(
  (s) => typeof s.run === "string" && s.run.includes("contract-tests")
)!
const bin = join(
  dirname(createRequire(import.meta.url).resolve("@data-access/contract-tests/package.json")),
  "bin/contract-tests.js"
)

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as AddressInfo).port
      s.close(() => resolve(port))
    })
  })

/** The project's end-to-end suite: requests to the proxy, the last one with `limit: 0` when `breaks`. */
const suite = (breaks: boolean) => `
node -e '
const base = process.env.DATA_ACCESS_BASE_URL
const send = (path, body) => fetch(base + path, { method: "POST", headers: { "content-type": "application/json", "connect-protocol-version": "1", "x-api-key": process.env.DATA_ACCESS_API_KEY }, body: JSON.stringify(body) }).then((r) => r.text())
;(async () => {
  await send("/core.v1.SatelliteService/ListSatellites", { limit: 5 })
  ${breaks ? 'await send("/core.v1.SatelliteService/ListSatellites", { limit: 0 })' : ""}
})()
'`

describe("docs/ci/contract-proxy.yml, run as its job runs it", () => {
  const scope = Effect.runSync(Scope.make())
  let url: string
  beforeAll(async () => {
    const server = await Effect.runPromise(
      ReferenceServer.start({ apiKeys: [KEY] }).pipe(Scope.extend(scope))
    )
    url = server.url
  })
  afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

  const runJob = async (breaks: boolean) => {
    const dir = mkdtempSync(join(tmpdir(), "contract-proxy-job-"))
    const runnerTemp = join(dir, "runner-temp")
    mkdirSync(join(runnerTemp, "contract-tests/node_modules/.bin"), { recursive: true })
    symlinkSync(bin, join(runnerTemp, "contract-tests/node_modules/.bin/contract-tests"))
    const script = String(step.run)
      .replace(/^\s*npm ci\s*$/m, "true")
      .replace(/npm install --prefix[^\n]*\\\n[^\n]*\n/, "true\n")
      .replace(/^\s*npm run test:e2e \|\| suite=\$\?\s*$/m, `${suite(breaks)} || suite=$?`)
    expect(script).not.toMatch(/npm (ci|install|run)/)
    writeFileSync(join(dir, "job.sh"), script)
    const port = await freePort()
    const result = await runCommand("bash", ["-e", join(dir, "job.sh")], {
      cwd: dir,
      encoding: "utf8",
      timeout: 600_000,
      env: {
        ...process.env,
        ...job.env,
        PROXY_PORT: String(port),
        RUNNER_TEMP: runnerTemp,
        TARGET: url,
        DATA_ACCESS_BASE_URL: `http://127.0.0.1:${port}`,
        DATA_ACCESS_API_KEY: KEY,
        NO_COLOR: "1"
      }
    })
    return { dir, result, port }
  }

  it("traffic that keeps the contract: the job passes, SIGTERM ends the proxy and it writes its reports", async () => {
    const { dir, result, port } = await runJob(false)
    expect({ status: result.status, stderr: result.stderr.slice(-2000) }).toMatchObject({
      status: 0
    })
    for (const f of ["contract-proxy.xml", "contract-proxy.json", "contract-proxy.html"])
      expect(existsSync(join(dir, "reports", f)), f).toBe(true)
    const report = JSON.parse(readFileSync(join(dir, "reports/contract-proxy.json"), "utf8"))
    expect(report.findings).toEqual([])
    expect(report.requests).toBeGreaterThan(0)
    // The proxy is gone: nothing answers on its port any more.
    await expect(fetch(`http://127.0.0.1:${port}/__contract/report`)).rejects.toThrow()
  }, 600_000)

  it("a request that breaks the contract: the job fails with the finding in its reports, and no key in them", async () => {
    const { dir, result } = await runJob(true)
    expect(result.status).toBe(1)
    const report = JSON.parse(readFileSync(join(dir, "reports/contract-proxy.json"), "utf8"))
    expect(report.findings.length).toBeGreaterThan(0)
    expect(report.findings.some((f: { side: string }) => f.side === "client")).toBe(true)
    for (const f of [
      "contract-proxy.xml",
      "contract-proxy.json",
      "contract-proxy.html",
      "contract-proxy.log",
      "contract-proxy.txt"
    ])
      expect(readFileSync(join(dir, "reports", f), "utf8"), f).not.toContain(KEY)
  }, 600_000)
})
