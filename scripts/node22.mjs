/* global process */
// Runs `node <args>` under a Node that satisfies the Effect 4 line's engines (>= 22.19): this
// Node when it does, else Node 22.23.3 fetched once from the npm registry by `npx -p node@...`.
// The Effect 4 packages' `test` and `bench` scripts go through it, so they work in a Node 20 CI.
import { spawn } from "node:child_process"

const PINNED = "22.23.3"
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number)
const satisfies = major > 22 || (major === 22 && minor >= 19)
const args = process.argv.slice(2)

const [command, commandArgs] = satisfies
  ? [process.execPath, args]
  : ["npx", ["-y", "-p", `node@${PINNED}`, "node", ...args]]

const child = spawn(command, commandArgs, { stdio: "inherit", shell: false })
const forward = (signal) => () => child.kill(signal)
process.on("SIGINT", forward("SIGINT"))
process.on("SIGTERM", forward("SIGTERM"))
child.on("exit", (code, signal) => {
  if (signal) process.kill(process.pid, signal)
  else process.exit(code ?? 1)
})
