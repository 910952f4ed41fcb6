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
  "proxy.test.ts": 111,
  "safety.test.ts": 89,
  "faithful-1.test.ts": 75,
  "faithful-3.test.ts": 65,
  "faithful-2.test.ts": 60,
  "proxy-wire.test.ts": 58,
  "cli-first-day.test.ts": 52,
  "violations-1.test.ts": 48,
  "answered-first.test.ts": 43,
  "violations-3.test.ts": 42,
  "violations-4.test.ts": 37,
  "unlisted.test.ts": 24,
  "cli-settings.test.ts": 22,
  "violations-2.test.ts": 22,
  "workers.test.ts": 22,
  "deadlines.test.ts": 21,
  "relations.test.ts": 20,
  "neighbours.test.ts": 19,
  "shards.test.ts": 16,
  "latitude-family.test.ts": 15,
  "cli.test.ts": 11,
  "boundaries.test.ts": 10
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
