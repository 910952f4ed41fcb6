// Under the machine's Node only (scripts/node-lines): argument and help text, pure.
import { describe, expect, it } from "vitest"
import * as Terminal from "../src/Terminal.js"

const help = "$ server [--port integer] [--rate float] [--host text] --tag text..."

describe("Terminal", () => {
  it("names an unknown option with the nearest known one, and a value that is not the number an option takes", () => {
    expect(Terminal.argumentProblem("server", ["--prot", "1"], help)).toBe(
      "server: unknown option --prot: did you mean --port? (server --help lists them)"
    )
    expect(Terminal.argumentProblem("server", ["--zzzzzz"], help)).toBe(
      "server: unknown option --zzzzzz (server --help lists them)"
    )
    expect(Terminal.argumentProblem("server", ["--port=abc"], help)).toBe(
      "server: --port takes a whole number, not 'abc'"
    )
    expect(Terminal.argumentProblem("server", ["--rate", "x1"], help)).toBe(
      "server: --rate takes a number, not 'x1'"
    )
  })

  it("accepts well-formed arguments and leaves what follows -- alone", () => {
    for (const args of [
      ["--port", "-3", "--rate", "0.5", "--host", "abc", "--tag", "x"],
      ["--rate=1e3", "--help"],
      ["--", "--anything"]
    ])
      expect(Terminal.argumentProblem("server", args, help)).toBeUndefined()
  })

  it("drops colour and the lines that only name a type", () => {
    expect(
      Terminal.clean(
        "\u001b[1m--port integer\u001b[0m\n\n  An integer.\n\n  Port to listen on",
        false
      )
    ).toBe("--port integer\n\n  Port to listen on")
    expect(Terminal.colourAllowed({ isTTY: false })).toBe(false)
  })
})

describe("Terminal.cleanedConsole", () => {
  it("writes log and info to one stream, error and warn to the other, colour only on a terminal, through the caller's suspension", () => {
    const written: Array<[string, string]> = []
    const stream = (name: string, isTTY: boolean) => ({
      isTTY,
      write: (text: string) => written.push([name, text])
    })
    const calls: Array<() => void> = []
    const nothing = (..._: ReadonlyArray<unknown>) => 0
    const base = { log: nothing, info: nothing, error: nothing, warn: nothing, other: 1 }
    const console = Terminal.cleanedConsole(
      base,
      (write) => {
        calls.push(write)
        return calls.length
      },
      stream("out", false),
      stream("err", false)
    )
    expect(console.other).toBe(1)
    console.log("\u001b[1m--port\u001b[0m integer\n\n  An integer.\n\n  Port", 1)
    console.error("bad")
    // Nothing is written until the suspended write runs.
    expect(written).toEqual([])
    for (const write of calls) write()
    expect(written).toEqual([
      ["out", "--port integer\n\n  Port 1\n"],
      ["err", "bad\n"]
    ])
  })
})
