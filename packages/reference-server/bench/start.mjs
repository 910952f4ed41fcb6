/* global console, process, URL */
// Time from spawning the command line to its "listening on http://..." line, in milliseconds:
// `node bench/start.mjs [runs] [bin ...]` starts each bin (default: this package's) `runs` times
// (default 10), the bins taking turns, each run stopped with SIGTERM before the next, and prints
// the median and the spread of each. Extra arguments for the server follow `--`.
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

const argv = process.argv.slice(2)
const dash = argv.indexOf("--")
const own = dash < 0 ? argv : argv.slice(0, dash)
const extra = dash < 0 ? [] : argv.slice(dash + 1)
const runs = Number(own[0] ?? 10)
const bins =
  own.length > 1
    ? own.slice(1)
    : [fileURLToPath(new URL("../bin/reference-server.js", import.meta.url))]

const once = (bin) =>
  new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint()
    const child = spawn(process.execPath, [bin, "--port", "0", "--quiet", ...extra], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    let out = ""
    let ms
    child.stdout.setEncoding("utf8").on("data", (d) => {
      out += d
      if (ms === undefined && /listening on http:\/\/\S+/.test(out)) {
        ms = Number(process.hrtime.bigint() - t0) / 1e6
        child.kill("SIGTERM")
      }
    })
    child.on("exit", (code, signal) =>
      ms === undefined
        ? reject(new Error(`exited ${code ?? signal}: ${out}`))
        : resolve({ ms, code, signal })
    )
  })

const times = bins.map(() => [])
const exits = bins.map(() => new Set())
for (let i = 0; i < runs; i++) {
  for (const [j, bin] of bins.entries()) {
    const { ms, code, signal } = await once(bin)
    times[j].push(ms)
    exits[j].add(String(code ?? signal))
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
for (const [j, bin] of bins.entries()) {
  const xs = times[j]
  console.log(
    `${bin}: median ${median(xs).toFixed(0)} ms, min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)} (${runs} runs; exit after SIGTERM: ${[...exits[j]].join(", ")})`
  )
}
