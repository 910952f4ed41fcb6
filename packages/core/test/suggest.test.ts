// Under the machine's Node only (scripts/node-lines): string distances, pure.
import { describe, expect, it } from "vitest"
import * as Suggest from "../src/Suggest.js"

describe("Suggest", () => {
  it("the edit distance counts insertions, deletions and substitutions", () => {
    expect(Suggest.distance("", "abc")).toBe(3)
    expect(Suggest.distance("exampels", "examples")).toBe(2)
    expect(Suggest.distance("kitten", "sitting")).toBe(3)
    expect(Suggest.distance("same", "same")).toBe(0)
  })

  it("a slip is named with the nearest known name; a word far from all is not", () => {
    const flags = ["--examples", "--seed", "--base-url", "--exclude-operations"]
    expect(Suggest.nearest("--exampels", flags)).toBe("--examples")
    expect(Suggest.nearest("--BASE-URL", flags)).toBe("--base-url")
    expect(Suggest.nearest("--zzzzzz", flags)).toBeUndefined()
  })

  it("the nearest names, closest first", () => {
    expect(
      Suggest.nearestOf("paging-skip", ["auth-ignored", "paging-skips", "paging-duplicates"], 2)
    ).toEqual(["paging-skips", "paging-duplicates"])
  })
})
