/* global process */
// What the contract tests' benchmarks share: the reference server's command line in a process of
// its own, the median of a few runs, and the machine's load average to print beside them.
import { spawn } from "node:child_process"
import { createRequire } from "node:module"
import { loadavg } from "node:os"
import { dirname, join } from "node:path"
import { createInterface } from "node:readline"

const serverBin = join(
  dirname(createRequire(import.meta.url).resolve("@data-access/reference-server/package.json")),
  "bin/reference-server.js"
)

/** The reference server in a process of its own with the key `key` and `args`; its URL and `stop` once it listens. */
export const startServer = (key, args) =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [serverBin, "--port", "0", "--quiet", "--api-key", key, ...args],
      { stdio: ["ignore", "pipe", "inherit"] }
    )
    child.on("exit", (code) => reject(new Error(`the reference server exited with ${code}`)))
    createInterface({ input: child.stdout }).on("line", (line) => {
      const m = /listening on (http:\/\/\S+)/.exec(line)
      if (m !== null) resolve({ url: m[1], stop: () => child.kill("SIGTERM") })
    })
  })

/**
 * One default command-line run of `bin` (`node <nodeArgs> bin --base-url url --fixtures ids
 * --seed 1 --rate-limit 0 --quiet <extra>`, the key `key` in the environment): the requests and
 * seconds its last line reports, once it has exited and been waited for.
 */
export const commandLineRun = ({ bin, url, idsFile, key, nodeArgs = [], extra = [] }) =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...nodeArgs,
        bin,
        "--base-url",
        url,
        "--fixtures",
        idsFile,
        "--seed",
        "1",
        "--rate-limit",
        "0",
        "--quiet",
        ...extra
      ],
      {
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, DATA_ACCESS_API_KEY: key, NO_COLOR: "1" }
      }
    )
    let out = ""
    child.stdout.on("data", (d) => (out += d))
    child.on("exit", (code) => {
      const m = /· (\d+) requests in ([\d.]+) s/.exec(out)
      if (code !== 0 || m === null)
        return reject(new Error(`the run exited with ${code}: ${out.slice(-500)}`))
      resolve({ requests: Number(m[1]), seconds: Number(m[2]) })
    })
  })

/** The median of a few figures. */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** The load averages over 1, 5 and 15 minutes, as printed beside a figure. */
export const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")
