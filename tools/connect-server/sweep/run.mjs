// Runs the contract runner's command line against each variant, fresh for each run, at each seed
// and example count: `node run.mjs [--variants a,b] [--seeds 1,2,3] [--examples default,20] [-- runner flags]`.
// Prints one line per run and every finding.
import console from "node:console"
import process from "node:process"
import { execFileSync, spawn } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { URL, fileURLToPath } from "node:url"
import { variants } from "./variants.mjs"

const here = fileURLToPath(new URL(".", import.meta.url))
const bin = join(here, "../../../apps/contract-tests/dist/bin.js")
const argv = process.argv.slice(2)
const dash = argv.indexOf("--")
const own = dash < 0 ? argv : argv.slice(0, dash)
const extra = dash < 0 ? [] : argv.slice(dash + 1)
const opt = (name, fallback) => {
  const i = own.indexOf(`--${name}`)
  return i < 0 ? fallback : own[i + 1].split(",")
}
const names = opt("variants", Object.keys(variants))
const seeds = opt("seeds", ["1", "2", "3"])
const counts = opt("examples", ["default", "20"])
const dir = mkdtempSync(join(tmpdir(), "sweep-"))
// A key and self-signed certificate for the variants served over TLS.
execFileSync(
  "openssl",
  [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    join(dir, "key.pem"),
    "-out",
    join(dir, "cert.pem"),
    "-days",
    "1",
    "-subj",
    "/CN=127.0.0.1",
    "-addext",
    "subjectAltName=IP:127.0.0.1"
  ],
  { stdio: "ignore" }
)

const startServer = (name, fixtures) =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", join(here, "register.mjs"), join(here, "server.mjs"), name, fixtures],
      {
        env: { ...process.env, ...variants[name].env, SWEEP_TLS_DIR: dir },
        stdio: ["ignore", "pipe", "inherit"]
      }
    )
    let out = ""
    child.stdout.on("data", (d) => {
      out += d
      const m = /listening on (\S+)/.exec(out)
      if (m) resolve({ child, url: m[1] })
    })
    child.on("exit", (code) => reject(new Error(`variant ${name} ended (${code})`)))
  })

const runRunner = (name, url, fixtures, seed, count, json) =>
  new Promise((resolve) => {
    const args = [
      bin,
      "--base-url",
      url,
      "--fixtures",
      fixtures,
      "--seed",
      seed,
      // Unpaced unless the runner flags after `--` pace it.
      ...(extra.includes("--rate-limit") ? [] : ["--rate-limit", "0"]),
      "--quiet",
      "--json",
      json
    ]
    if (count !== "default") args.push("--examples", count)
    const own = (variants[name].runner ?? []).map((a) => a.replace("{tls}", dir))
    const child = spawn(process.execPath, [...args, ...own, ...extra], {
      env: { ...process.env, DATA_ACCESS_API_KEY: "reference-key" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    child.stdout.on("data", (d) => (out += d))
    child.stderr.on("data", (d) => (out += d))
    child.on("exit", (code) => resolve({ code, out }))
  })

for (const name of names)
  for (const seed of seeds)
    for (const count of counts) {
      const tag = `${name}-s${seed}-e${count}`
      const fixtures = join(dir, `${tag}.fixtures.json`)
      const json = join(dir, `${tag}.json`)
      const { child, url } = await startServer(name, fixtures)
      const started = Date.now()
      const { code, out } = await runRunner(name, url, fixtures, seed, count, json)
      child.removeAllListeners("exit")
      child.kill("SIGTERM")
      let findings = []
      let requests = "?"
      try {
        const report = JSON.parse(readFileSync(json, "utf8"))
        findings = report.findings ?? []
        requests = report.requests ?? "?"
      } catch {
        console.log(out.slice(-3000))
      }
      console.log(
        `${tag}: exit ${code}, ${findings.length} findings, ${requests} requests, ${((Date.now() - started) / 1000).toFixed(0)} s (${json})`
      )
      for (const f of findings)
        console.log(
          `  ${f.rule ?? f.check}: ${String(f.message ?? JSON.stringify(f)).slice(0, 600)}`
        )
    }
