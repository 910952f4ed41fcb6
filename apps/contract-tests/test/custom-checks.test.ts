import { describe, expect, it } from "@effect/vitest"
import { NodeHttpClient } from "@effect/platform-node"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { ReferenceServer } from "@data-access/reference-server"
import * as ContractTests from "../src/ContractTests.js"
import * as Embedded from "../src/Embedded.js"
import * as Hooks from "../src/Hooks.js"
import * as Report from "../src/Report.js"
import * as ReplayId from "../src/ReplayId.js"
import { cli } from "./cliRun.js"

// Two checks of a platform team's own on the satellites the server lists: every satellite in a US
// region (the reference server's are in eu-west-1: it fails), every name lower case (it holds).
const CHECKS = `
export const inUs = {
  id: "acme.satellites-in-us",
  severity: "major",
  rule: "Every satellite runs in a US region.",
  check: ({ operation, response }) => {
    if (operation !== "ListSatellites" || response?.status !== 200) return
    const away = (response.body.satellites ?? []).find((s) => !/-us-/.test(s.name))
    if (away !== undefined) return { message: "the satellite " + away.name + " is not in a US region", detail: away.name }
  }
}
export const lowerCase = {
  id: "acme.names-lowercase",
  severity: "minor",
  rule: "Every satellite name is lower case.",
  check: async ({ response }) =>
    (response?.body?.satellites ?? []).every((s) => s.name === s.name.toLowerCase())
}
`

const dir = () => Fs.mkdtempSync(Path.join(Os.tmpdir(), "contract-tests-custom-"))

/** A hooks file whose checks are those of CHECKS that `checks` names (a JavaScript expression). */
const hooksFile = (at: string, checks: string, name = "hooks.mjs") => {
  const file = Path.join(at, name)
  Fs.writeFileSync(file, `${CHECKS}\nexport default { checks: ${checks} }\n`)
  return file
}

const small = ["--operations", "ListSatellites", "--examples", "2", "--seed", "7", "--quiet"]

describe("custom checks (Hooks.checks)", () => {
  it.effect(
    "a custom check's failure is a finding of every report (id, severity, rule, curl, replay), fails the run, replays, and a baseline accepts it by its id",
    () =>
      Effect.gen(function* () {
        const at = dir()
        const hooks = hooksFile(at, "[inUs, lowerCase]")
        const file = (f: string) => Path.join(at, f)
        const summary = file("summary.md")
        const before = {
          actions: process.env.GITHUB_ACTIONS,
          summary: process.env.GITHUB_STEP_SUMMARY
        }
        process.env.GITHUB_ACTIONS = "true"
        process.env.GITHUB_STEP_SUMMARY = summary
        const r = yield* cli(
          ...small,
          "--hooks",
          hooks,
          "--json",
          file("r.json"),
          "--junit",
          file("r.xml"),
          "--html",
          file("r.html"),
          "--write-baseline",
          file("baseline.json")
        ).pipe(
          Effect.ensuring(
            Effect.sync(() => {
              for (const [k, v] of [
                ["GITHUB_ACTIONS", before.actions],
                ["GITHUB_STEP_SUMMARY", before.summary]
              ] as const)
                if (v === undefined) delete process.env[k]
                else process.env[k] = v
            })
          )
        )
        expect(r.err).toBe("")
        expect(r.code).toBe(1)

        const report = JSON.parse(Fs.readFileSync(file("r.json"), "utf8")) as Report.Report
        const custom = report.findings.filter((f) => f.check.startsWith("acme."))
        expect(custom.map((f) => [f.check, f.rule, f.severity, f.operation, f.source])).toEqual([
          [
            "acme.satellites-in-us",
            "acme.satellites-in-us",
            "major",
            "ListSatellites",
            "Every satellite runs in a US region."
          ]
        ])
        const finding = custom[0]!
        expect(finding.message).toMatch(/^the satellite \S+ is not in a US region$/)
        expect(finding.curl).toContain("ListSatellites")
        expect(finding.response?._tag).toBe("Response")
        expect(Either.getOrThrow(ReplayId.decode(finding.replayId)).check).toBe(
          "acme.satellites-in-us"
        )
        // The check that holds is counted like a built-in one, in the matrix.
        const lower = report.cells.find((c) => c.check === "acme.names-lowercase")
        expect(lower?.failed).toBe(0)
        expect(lower?.passed).toBeGreaterThan(0)
        expect(report.checks).toContain("acme.names-lowercase")
        expect(Report.fromJson(Fs.readFileSync(file("r.json"), "utf8"))._tag).toBe("Right")

        // The terminal shows it as it shows a built-in finding, its replay line with the hooks.
        expect(r.out).toContain(
          "[major] acme.satellites-in-us · ListSatellites · Every satellite runs in a US region."
        )
        expect(r.out).toContain("rule acme.satellites-in-us: Every satellite runs in a US region.")
        const replayLine = r.out.split("\n").find((l) => l.includes(`--replay ${finding.replayId}`))
        expect(replayLine).toContain(`--hooks ${hooks}`)
        expect(r.out).toMatch(/c\d+ acme\.names-lowercase {2}c\d+ acme\.satellites-in-us/)
        expect(r.out).toContain(`::warning title=major · acme.satellites-in-us · `)
        expect(Fs.readFileSync(summary, "utf8")).toContain("| major | acme.satellites-in-us |")
        const junit = Fs.readFileSync(file("r.xml"), "utf8")
        expect(junit).toContain('name="ListSatellites acme.satellites-in-us"')
        expect(junit).toContain('type="acme.satellites-in-us"')
        const html = Fs.readFileSync(file("r.html"), "utf8")
        expect(html).toContain('data-rule="acme.satellites-in-us"')
        expect(html).toContain("Every satellite runs in a US region.")

        // The replay line runs the one case again and finds the same.
        const replay = yield* cli(
          "--hooks",
          hooks,
          "--replay",
          finding.replayId,
          "--quiet",
          "--json",
          file("replay.json")
        )
        expect(replay.code).toBe(1)
        const replayed = JSON.parse(Fs.readFileSync(file("replay.json"), "utf8")) as Report.Report
        expect(replayed.findings.map((f) => [f.check, f.cause])).toEqual([
          [finding.check, finding.cause]
        ])

        // The baseline written accepts it by its id: known, not failing.
        const baseline = JSON.parse(Fs.readFileSync(file("baseline.json"), "utf8")) as {
          findings: Array<{ rule: string }>
        }
        expect(baseline.findings.map((e) => e.rule)).toContain("acme.satellites-in-us")
        const known = yield* cli(
          ...small,
          "--hooks",
          hooks,
          "--baseline",
          file("baseline.json"),
          "--json",
          file("known.json")
        )
        expect(known.code).toBe(0)
        const again = JSON.parse(Fs.readFileSync(file("known.json"), "utf8")) as Report.Report
        expect(again.known.map((f) => f.check)).toContain("acme.satellites-in-us")
      }),
    240_000
  )

  it.effect(
    "a custom check that never fails passes the run, and --exclude-checks names a custom check by its id",
    () =>
      Effect.gen(function* () {
        const at = dir()
        const passing = yield* cli(...small, "--hooks", hooksFile(at, "[lowerCase]"))
        expect(passing.err).toBe("")
        expect(passing.code).toBe(0)
        expect(passing.out).toContain("acme.names-lowercase")
        const excluded = yield* cli(
          ...small,
          "--hooks",
          hooksFile(at, "[inUs, lowerCase]", "both.mjs"),
          "--exclude-checks",
          "acme.satellites-*"
        )
        expect(excluded.code).toBe(0)
        expect(excluded.out).not.toContain("acme.satellites-in-us")
      }),
    240_000
  )

  it.effect(
    "a custom check whose id is a built-in check's or rule's, or not namespaced, is refused at load (exit 2); one that throws ends the run (exit 2, its message)",
    () =>
      Effect.gen(function* () {
        const at = dir()
        const refused = (id: string) =>
          cli(
            "--hooks",
            hooksFile(at, `[{ ...lowerCase, id: ${JSON.stringify(id)} }]`, `${id}.mjs`)
          )
        const check = yield* refused("paging")
        expect(check.code).toBe(2)
        expect(check.err).toContain(
          `checks[0] ("paging"): the id is a built-in check's; give a namespaced one of your own (acme.paging)`
        )
        const rule = yield* refused("lists.count")
        expect(rule.code).toBe(2)
        expect(rule.err).toContain(`checks[0] ("lists.count"): the id is a built-in rule's`)
        const flat = yield* refused("lowercase")
        expect(flat.code).toBe(2)
        expect(flat.err).toContain("the id is namespaced")
        const throws = yield* cli(
          ...small,
          "--hooks",
          hooksFile(
            at,
            `[{ ...lowerCase, check: () => { throw new Error("the rule service is down") } }]`,
            "throws.mjs"
          )
        )
        expect(throws.code).toBe(2)
        expect(throws.err).toContain(
          "a hook failed: the check acme.names-lowercase threw: the rule service is down"
        )
        expect(throws.err).not.toMatch(/\n\s+at /)
      }),
    120_000
  )

  it.effect(
    "in library mode: the hooks option's custom checks report like the built-in ones; a colliding id is a RunError",
    () =>
      Effect.gen(function* () {
        const seen = new Set<string>()
        const hooks = Hooks.defineHooks({
          checks: [
            {
              id: "acme.satellites-in-us",
              severity: "critical",
              rule: "Every satellite runs in a US region.",
              check: ({ operation, family, response }) => {
                seen.add(family)
                if (operation !== "ListSatellites" || response?.status !== 200) return
                const body = response.body as { satellites?: Array<{ name: string }> }
                const away = (body.satellites ?? []).find((s) => !s.name.includes("-us-"))
                return away === undefined ? undefined : `${away.name} is not in a US region`
              }
            }
          ]
        })
        const report = yield* Embedded.run({
          operations: ["ListSatellites"],
          examples: 2,
          seed: 7,
          hooks
        }).pipe(Effect.scoped)
        const finding = report.findings.find((f) => f.check === "acme.satellites-in-us")
        expect(finding?.severity).toBe("critical")
        expect(finding?.source).toBe("Every satellite runs in a US region.")
        expect(finding?.replayId).toMatch(/^ct1\.\w+\.ListSatellites\.acme\.satellites-in-us\./)
        expect(Report.exitCode(report)).toBe(1)
        expect(Report.toTerminal(report)).toContain("[critical] acme.satellites-in-us")
        // The runner's deliberate invalid requests reach the check too, named by their family.
        expect(seen.has("valid")).toBe(true)
        expect(seen.size).toBeGreaterThan(1)

        const server = yield* ReferenceServer.start({})
        const collide = yield* ContractTests.run({
          baseUrl: server.url,
          apiKey: Redacted.make(ReferenceServer.DEFAULT_API_KEY),
          hooks: Hooks.defineHooks({
            checks: [{ id: "lists.count", severity: "minor", rule: "x", check: () => undefined }]
          })
        }).pipe(Effect.flip)
        expect(collide.reason).toBe("BadOptions")
        expect(collide.message).toContain(`checks[0] ("lists.count"): the id is a built-in rule's`)
      }).pipe(Effect.scoped, Effect.provide(NodeHttpClient.layerUndici)),
    120_000
  )

  it.effect(
    "list checks --hooks lists the custom checks after the built-in ones; --dry-run plans them for every suite",
    () =>
      Effect.gen(function* () {
        const at = dir()
        const hooks = hooksFile(at, "[inUs, lowerCase]")
        const listed = yield* cli("list", "checks", "--json", "--hooks", hooks)
        expect(listed.code).toBe(0)
        const rows = JSON.parse(listed.out) as Array<{
          id: string
          severity: string
          meaning: string
        }>
        expect(rows.slice(-2)).toEqual([
          {
            id: "acme.satellites-in-us",
            severity: "major",
            meaning: "Every satellite runs in a US region."
          },
          {
            id: "acme.names-lowercase",
            severity: "minor",
            meaning: "Every satellite name is lower case."
          }
        ])
        const refused = yield* cli(
          "list",
          "checks",
          "--hooks",
          hooksFile(at, `[{ ...lowerCase, id: "auth" }]`, "auth.mjs")
        )
        expect(refused.code).toBe(2)
        expect(refused.err).toContain(`checks[0] ("auth"): the id is a built-in check's`)
        const planned = yield* cli(
          "--dry-run",
          "--operations",
          "ListSatellites",
          "--checks",
          "acme.names-lowercase",
          "--hooks",
          hooks
        )
        expect(planned.code).toBe(0)
        expect(planned.out).toContain("1 checks: acme.names-lowercase")
        expect(planned.out).toMatch(/^ListSatellites\s+\d+\s+[\d,]+\s+all$/m)
      }),
    120_000
  )

  it("a replay id names a custom check with dots of its own; a built-in one reads as before", () => {
    const id = ReplayId.encode({
      family: "valid",
      method: "ListSatellites",
      check: "acme.satellites-in-us" as Hooks.CustomCheckId,
      seed: 7,
      path: "1:0"
    })
    expect(id).toBe("ct1.valid.ListSatellites.acme.satellites-in-us.7.1:0")
    expect(Either.getOrThrow(ReplayId.decode(id))).toMatchObject({
      method: "ListSatellites",
      check: "acme.satellites-in-us",
      seed: 7,
      path: "1:0"
    })
    expect(Either.getOrThrow(ReplayId.decode("ct1.auth._.auth.3.0")).check).toBe("auth")
    expect(Either.isLeft(ReplayId.decode("ct1.valid.ListSatellites.lists.count.7.0"))).toBe(true)
  })
})
