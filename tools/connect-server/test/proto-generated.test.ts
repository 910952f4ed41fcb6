// The committed protobuf-es code (src/gen) is what `buf generate` writes today from
// @data-access/schema's .proto with this package's buf.gen.yaml.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { execFile } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { delimiter, join, relative } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const bin = join(root, "node_modules", ".bin")
const protoDir = join(root, "..", "..", "packages", "schema", "proto")

/** Every file under a directory, by its path relative to it, with its text. */
const filesOf = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => {
        const path = join(e.parentPath, e.name)
        return [relative(dir, path), readFileSync(path, "utf8")]
      })
  )

/** Runs `buf generate` into `out` without blocking the event loop. */
const generate = (out: string) =>
  Effect.async<{ readonly code: number; readonly output: string }>((resume) => {
    execFile(
      join(bin, "buf"),
      ["generate", protoDir, "--template", "buf.gen.yaml", "-o", out],
      // `protoc-gen-es` is found on the PATH, as under `pnpm generate`.
      { cwd: root, env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
        resume(Effect.succeed({ code, output: `${stdout}${stderr}` }))
      }
    )
  })

describe("the generated protobuf-es code", () => {
  it.effect("src/gen is what `buf generate` writes from the .proto", () =>
    Effect.gen(function* () {
      const out = mkdtempSync(join(tmpdir(), "connect-server-gen-"))
      try {
        expect(yield* generate(out)).toEqual({ code: 0, output: "" })
        const fresh = filesOf(join(out, "src", "gen"))
        expect(Object.keys(fresh)).toEqual([join("core", "v1", "api_pb.ts")])
        // If this fails: run `pnpm --filter @data-access/connect-server generate` and commit src/gen.
        expect(filesOf(join(root, "src", "gen"))).toEqual(fresh)
      } finally {
        rmSync(out, { recursive: true, force: true })
      }
    })
  )
})
