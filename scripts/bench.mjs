/* global process, console, URL */
// `pnpm bench`: builds, then runs every workspace package's benchmark (`bench` script) one at a
// time (the CI machine has 2 cores), and writes BENCHMARKS.md: today's run first (the machine,
// one table of every figure and ratio the benchmarks printed, their full output), the earlier
// runs below as a log. Commit the file so changes in speed show up in review.
//
//   pnpm bench                         all benchmarks, writes BENCHMARKS.md
//   pnpm bench -- --only client        only packages whose name contains "client"
//   pnpm bench -- --out /tmp/b.md      write elsewhere
//   BENCH_SECONDS=1 BENCH_RUNS=1 pnpm bench -- --out /tmp/b.md   a quick smoke run
import { spawn, spawnSync } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import Os from "node:os"
import { join, relative } from "node:path"
import { pathToFileURL } from "node:url"
import { parseArgs } from "node:util"
import { workspaceDirs } from "./workspaces.mjs"

/**
 * The figures of one benchmark's output: every row of every `console.table` (text cells name the
 * scenario, numbers are figures, percentages, multiples and "vs" / "ratio" / "goal" columns are
 * ratios), and every indented "label   value" line (a parenthesis with a ratio goes to ratios).
 */
export const figures = (out) => {
  const rows = []
  let header
  for (const line of out.split("\n")) {
    if (line.startsWith("┌") || line.startsWith("└")) header = undefined
    if (!line.startsWith("│")) {
      const kv = /^\s{2,}(\S.*?)\s{2,}(\S.*)$/.exec(line)
      if (kv) {
        const paren = /^(.*?)\s*\((.*(?:ratio|%|\dx\b).*)\)\s*$/.exec(kv[2])
        rows.push({
          scenario: kv[1],
          figures: paren ? paren[1] : kv[2],
          ratios: paren ? paren[2] : ""
        })
      }
      continue
    }
    const cells = line
      .split("│")
      .slice(1, -1)
      .map((c) => c.trim().replace(/^'(.*)'$/, "$1"))
    if (header === undefined) {
      header = cells
      continue
    }
    const scenario = []
    const figs = []
    const ratios = []
    cells.forEach((cell, i) => {
      const col = header[i]
      if (col === "(index)" || cell === "") return
      if (/^-?[\d.,]+\s*(%|x)$/.test(cell) || /\bvs\b|ratio|goal/i.test(col))
        ratios.push(`${col}: ${cell}`)
      else if (/^-?[\d.,]+( \/ -?[\d.,]+)*$/.test(cell)) figs.push(`${col}: ${cell}`)
      else scenario.push(cell)
    })
    rows.push({
      scenario: scenario.join(", "),
      figures: figs.join(" · "),
      ratios: ratios.join(" · ")
    })
  }
  return rows
}

const main = async () => {
  const root = new URL("..", import.meta.url).pathname
  const { values: args } = parseArgs({
    options: {
      only: { type: "string" },
      out: { type: "string", default: join(root, "BENCHMARKS.md") }
    }
  })

  const workspaces = workspaceDirs(root)
    .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }))
    .filter(({ pkg }) => pkg.scripts?.bench && (!args.only || pkg.name.includes(args.only)))

  const load = () =>
    Os.loadavg()
      .map((n) => n.toFixed(2))
      .join(" / ")
  // eslint-disable-next-line no-control-regex
  const stripAnsi = (s) => s.replace(/\x1b\[[0-9;]*m/g, "")

  console.log(`building (turbo run build)...`)
  const build = spawnSync("pnpm", ["exec", "turbo", "run", "build", "--output-logs=errors-only"], {
    cwd: root,
    stdio: "inherit"
  })
  if (build.status !== 0) process.exit(build.status ?? 1)

  /** Runs one benchmark, echoing its output; resolves with the captured stdout and timings. */
  const runBench = ({ dir, pkg }) =>
    new Promise((resolve) => {
      const loadBefore = load()
      const started = Date.now()
      const child = spawn("pnpm", ["run", "--silent", "bench"], {
        cwd: dir,
        env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" }
      })
      let out = ""
      child.stdout.on("data", (d) => {
        out += d
        process.stdout.write(d)
      })
      child.stderr.on("data", (d) => process.stderr.write(d))
      child.on("exit", (code) =>
        resolve({
          name: pkg.name,
          dir: relative(root, dir),
          code,
          out: stripAnsi(out),
          seconds: (Date.now() - started) / 1000,
          loadBefore,
          loadAfter: load()
        })
      )
    })

  const results = []
  for (const w of workspaces) {
    console.log(`\n=== ${w.pkg.name}: bench (load average ${load()})`)
    results.push(await runBench(w))
  }

  const cpu = Os.cpus()
  const head = (cmd, a) => spawnSync(cmd, a, { cwd: root, encoding: "utf8" }).stdout?.trim() ?? ""
  const esc = (s) => String(s).replace(/\|/g, "\\|")
  // The previous "Today" moves to the top of the log, above the earlier log.
  const previous = existsSync(args.out) ? readFileSync(args.out, "utf8") : ""
  const todayAt = previous.indexOf("\n## Today\n")
  const logAt = previous.indexOf("\n## Log\n")
  const earlier = [
    todayAt >= 0 ? previous.slice(todayAt + 10, logAt >= 0 ? logAt : undefined).trim() : "",
    logAt >= 0
      ? previous
          .slice(logAt + 8)
          .replace(/^\s*Each earlier run[^\n]*\n/, "")
          .trim()
      : ""
  ]
    .filter((part) => part !== "")
    .map((part) => part.replace(/^(#{2,5}) /gm, "#$1 "))
  const lines = [
    "# Benchmarks",
    "",
    "Today's figures first, one row per benchmark scenario, each beside the baseline measured in the",
    "same run; the log of every earlier run below. Figures move with the machine and its load: read",
    "the ratios before the raw figures. Written by `pnpm bench` (scripts/bench.mjs): every package's",
    '`bench` script, one at a time, after a build; the previous "Today" moves to the top of the log.',
    "",
    "## Today",
    "",
    `- ${cpu.length} cores (${cpu[0]?.model.trim() ?? "unknown CPU"}), ${(Os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, ${Os.platform()} ${Os.release()}`,
    `- Node ${process.version}`,
    `- load average (1 / 5 / 15 min) at the start: ${results[0]?.loadBefore ?? load()}; per benchmark below`,
    `- commit ${head("git", ["rev-parse", "--short", "HEAD"])}${head("git", ["status", "--porcelain", "--untracked-files=no"]) ? " (with uncommitted changes)" : ""}, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    "| benchmark | scenario | figures | ratios |",
    "|---|---|---|---|"
  ]
  for (const r of results) {
    const rows = figures(r.out)
    if (r.code !== 0) lines.push(`| ${r.name} | **failed (exit ${r.code})** | | |`)
    for (const row of rows)
      lines.push(`| ${r.name} | ${esc(row.scenario)} | ${esc(row.figures)} | ${esc(row.ratios)} |`)
  }
  lines.push("", "| benchmark | wall time | load average before | after |", "|---|---|---|---|")
  for (const r of results)
    lines.push(
      `| ${r.name} (\`${r.dir}/bench\`) | ${r.seconds.toFixed(0)} s | ${r.loadBefore} | ${r.loadAfter} |`
    )
  lines.push("", "### Full output", "")
  for (const r of results) lines.push(`#### ${r.name}`, "", "```", r.out.trimEnd(), "```", "")
  lines.push(
    "## Log",
    "",
    "Each earlier run, as it was written, with its commit, machine and load.",
    ""
  )
  for (const part of earlier) lines.push(part, "")
  writeFileSync(args.out, lines.join("\n"))
  console.log(`\nwrote ${relative(process.cwd(), args.out) || args.out}`)
  process.exit(results.some((r) => r.code !== 0) ? 1 : 0)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
