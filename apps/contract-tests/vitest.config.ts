import { availableParallelism } from "node:os"
import { basename } from "node:path"
import { BaseSequencer, type TestSpecification } from "vitest/node"
import { defineConfig } from "vitest/config"
import { packageTests } from "../../vitest.shared.mjs"

/**
 * Seconds each file took on a 2-core machine (vitest's report of a full run of this package, with
 * other work on the machine), to start the longest files
 * first: on a fresh clone vitest knows no durations and starts the largest files first, and the
 * shares of the two longest lists are the smallest files. Only the order of files comes from here
 * (after the WAITING files below); a file not listed starts after those that are, largest first as
 * vitest would.
 */
const SECONDS: Record<string, number> = {
  "faithful-2.test.ts": 98,
  "safety.test.ts": 95,
  "faithful-3.test.ts": 93,
  "faithful-1.test.ts": 74,
  "proxy.test.ts": 68,
  "cli-first-day.test.ts": 57,
  "answered-first.test.ts": 39,
  "unlisted.test.ts": 28,
  "deadlines.test.ts": 23,
  "proxy-wire.test.ts": 22,
  "violations-3.test.ts": 21,
  "violations-1.test.ts": 20,
  "latitude-family.test.ts": 19,
  "violations-2.test.ts": 16,
  "workers.test.ts": 15,
  "shards.test.ts": 15,
  "violations-4.test.ts": 15,
  "neighbours.test.ts": 15,
  "relations.test.ts": 14,
  "cli.test.ts": 12,
  "cli-settings.test.ts": 11,
  "reproductions.test.ts": 10,
  "boundaries.test.ts": 9
}

/**
 * Files that spend most of their time waiting on real time (retries and their backoff, latency
 * faults, timeouts), not on a core: they start before every other file. At the start the machine
 * has more work than cores, so their waits cost nothing; at the end of a run, when this package's
 * tests are the last left, a waiting file leaves a core idle.
 */
const WAITING = new Set(["answered-first.test.ts", "safety.test.ts", "deadlines.test.ts"])

class LongestFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>) {
    const byVitest = await super.sort(files)
    const waiting = (file: TestSpecification) => (WAITING.has(basename(file.moduleId)) ? 1 : 0)
    const seconds = (file: TestSpecification) => SECONDS[basename(file.moduleId)] ?? 0
    // a stable sort: files not listed keep vitest's order among themselves
    return byVitest.sort((a, b) => waiting(b) - waiting(a) || seconds(b) - seconds(a))
  }
}

export default defineConfig({
  test: {
    ...packageTests,
    // The proxy's judging thread runs the built JavaScript: build first when `src/` is newer.
    globalSetup: ["test/build.setup.ts"],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    // Every file runs the runner against servers it starts itself: files are independent and
    // CPU-bound, so one per core (vitest's default leaves one core idle on a 2-core machine).
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: LongestFirst },
    // The runner allocates short-lived objects fast (fibers, decoded answers): with 64 MiB
    // semi-spaces, not V8's 16, fewer of them outlive a scavenge and are copied again or promoted.
    // A run took 0.92 of the CPU for 1.1 times the resident memory (BENCHMARKS.md).
    poolOptions: { forks: { execArgv: ["--max-semi-space-size=64"] } },
    // Each worker imports the runner, effect and the reference server once, not once per file
    // (a minute of a full run's CPU): the files keep no state between them (their servers,
    // proxies and scopes end with each test; cliRun puts stdout and stderr back).
    isolate: false
  }
})
