/* global process */
// Runs `node <args>` under a Node that satisfies the Effect 4 line's engines (>= 22.19): this
// Node when it does, else Node 22.23.3 fetched once from the npm registry by `npx -p node@...`.
// The Effect 4 packages' `test` and `bench` scripts go through it, so they work in a Node 20 CI.
import { spawn } from "node:child_process"
import { NODE22, runsOwnNode } from "./node-lines/index.mjs"

const args = process.argv.slice(2)

const [command, commandArgs] = runsOwnNode()
  ? [process.execPath, args]
  : ["npx", ["-y", "-p", `node@${NODE22}`, "node", ...args]]

const child = spawn(command, commandArgs, { stdio: "inherit", shell: false })
const forward = (signal) => () => child.kill(signal)
process.on("SIGINT", forward("SIGINT"))
process.on("SIGTERM", forward("SIGTERM"))
child.on("exit", (code, signal) => {
  if (signal) process.kill(process.pid, signal)
  else process.exit(code ?? 1)
})
