#!/usr/bin/env node
/* global process, URL */
// The command line with the heap settings of `pnpm contract-tests`: a young generation of 64 MiB
// semi-spaces (V8 reads it only as a process starts, so a process started without it starts the
// command again with it, once) keeps the garbage of thousands of exchanges out of the old space.
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import module from "node:module"
import { fileURLToPath } from "node:url"

const HEAP = "--max-semi-space-size=64"
const GUARD = "DATA_ACCESS_CONTRACT_TESTS_HEAP"

if (process.execArgv.some((arg) => arg.startsWith("--max-semi-space-size")) || process.env[GUARD]) {
  // Node >= 22.1 keeps V8's compiled code of the modules for the next start; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
  module.enableCompileCache?.()
  // The command in one file (dist/bin.bundle.js, scripts/bundle-worker.mjs), which starts in a
  // fraction of the time its modules take one by one; a build without it runs dist/bin.js.
  const bundle = new URL("../dist/bin.bundle.js", import.meta.url)
  await import(existsSync(bundle) ? bundle.href : "../dist/bin.js")
} else {
  const child = spawn(
    process.execPath,
    [...process.execArgv, HEAP, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: "inherit", env: { ...process.env, [GUARD]: "1" } }
  )
  // A signal sent to this process is the command's too (`contract-tests proxy` stops at SIGTERM
  // and reports on SIGUSR2); Ctrl-C at a terminal reaches both already, and a second SIGINT ends
  // the command at once.
  for (const signal of ["SIGTERM", "SIGHUP", "SIGUSR2"])
    process.on(signal, () => child.kill(signal))
  process.on("SIGINT", () => {
    if (!process.stdin.isTTY) child.kill("SIGINT")
  })
  child.on("exit", (code, signal) => {
    if (signal === null) process.exit(code ?? 1)
    process.removeAllListeners(signal)
    process.kill(process.pid, signal)
  })
}
