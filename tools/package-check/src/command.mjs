/* global Buffer, clearTimeout, setTimeout */
// Child processes for the package checks, awaited instead of run synchronously: a vitest worker
// whose event loop is blocked (spawnSync around a minute-long `pnpm add` that compiles
// better-sqlite3) misses vitest's 60 s RPC deadline ("Timeout calling onTaskUpdate") and the run
// fails although every test passed. test/no-blocking.test.ts keeps the synchronous APIs out of
// the tests and of what they import.
import { spawn } from "node:child_process"

/** Bytes of stdout and of stderr kept (the last ones, when a command prints more). */
const KEPT = 32 * 1024 * 1024
/** After the timeout's SIGTERM, how long the child has before SIGKILL. */
const GRACE_MS = 5_000

/** Collects a stream's bytes, keeping the last KEPT of them. */
const collector = () => {
  const chunks = []
  let size = 0
  let dropped = 0
  return {
    push: (chunk) => {
      chunks.push(chunk)
      size += chunk.length
      while (size - chunks[0].length >= KEPT) {
        size -= chunks[0].length
        dropped += chunks.shift().length
      }
    },
    text: () =>
      (dropped > 0 ? `[${dropped} earlier bytes dropped]\n` : "") +
      Buffer.concat(chunks).toString("utf8")
  }
}

/**
 * Runs `cmd args` and resolves, never rejects, with `{ status, signal, stdout, stderr, timedOut }`
 * once it has exited and its output is read, like spawnSync with `encoding: "utf8"`. Options:
 * `cwd`, `env`, `input` (written to its stdin, which is otherwise empty), `timeout` in ms (then
 * SIGTERM, SIGKILL 5 s later; `timedOut` is true and stderr ends with a line saying so). A command
 * that cannot start has status null, `error` set and its message in stderr.
 */
export const runCommand = (cmd, args = [], options = {}) =>
  new Promise((resolve) => {
    const { cwd, env, input, timeout } = options
    const stdout = collector()
    const stderr = collector()
    let timedOut = false
    let error
    let timer
    let child
    let settled = false
    const finish = (status, signal) => {
      if (settled) return // "close" follows the "error" of a command that could not start
      settled = true
      clearTimeout(timer)
      const notes = [
        ...(error ? [`[${cmd} could not run: ${error.message}]`] : []),
        ...(timedOut ? [`[${cmd} ${args.join(" ")}: killed after the ${timeout} ms timeout]`] : [])
      ]
      const err = stderr.text()
      resolve({
        status,
        signal,
        stdout: stdout.text(),
        stderr:
          notes.length === 0
            ? err
            : `${err}${err === "" || err.endsWith("\n") ? "" : "\n"}${notes.join("\n")}\n`,
        timedOut,
        ...(error ? { error } : {})
      })
    }
    try {
      child = spawn(cmd, args, {
        cwd,
        env,
        stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"]
      })
    } catch (e) {
      error = e
      finish(null, null)
      return
    }
    child.stdout.on("data", stdout.push)
    child.stderr.on("data", stderr.push)
    if (input !== undefined) {
      child.stdin.on("error", () => {}) // a child that exits without reading its input
      child.stdin.end(input)
    }
    child.on("error", (e) => {
      error = e
      if (child.pid === undefined) finish(null, null)
    })
    child.on("close", finish)
    if (timeout !== undefined && timeout > 0) {
      timer = setTimeout(() => {
        timedOut = true
        child.kill("SIGTERM")
        // a grandchild holding the pipes open must not keep us waiting for "close"
        timer = setTimeout(() => {
          child.kill("SIGKILL")
          child.stdout.destroy()
          child.stderr.destroy()
        }, GRACE_MS)
      }, timeout)
    }
  })

/** A one-line account of how a command ended, for error messages. */
export const describeEnd = (result) =>
  result.timedOut
    ? "timed out"
    : result.signal !== null
      ? `killed by ${result.signal}`
      : `exit status ${result.status}`

/**
 * Runs `cmd args` like runCommand and resolves with its stdout when it exits with status 0, as
 * execFileSync does; otherwise rejects with an Error naming the command, how it ended and the
 * end of its stderr.
 */
export const commandOutput = async (cmd, args = [], options = {}) => {
  const result = await runCommand(cmd, args, options)
  if (result.status === 0) return result.stdout
  throw new Error(
    `${[cmd, ...args].join(" ")}${options.cwd ? ` (in ${options.cwd})` : ""}: ${describeEnd(result)}\n${result.stderr.slice(-4000)}`
  )
}
