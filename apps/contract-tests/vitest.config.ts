import { availableParallelism } from "node:os"
import { basename } from "node:path"
import { BaseSequencer, type TestSpecification } from "vitest/node"
import { defineConfig } from "vitest/config"

/**
 * Seconds each file took on a 2-core machine (vitest's report of a full run, the shares of
 * faithful.ts and violations.ts estimated as their part of the whole), to start the longest files
 * first: on a fresh clone vitest knows no durations and starts the largest files first, and the
 * shares of the two longest lists are the smallest files. Only the order of files comes from here;
 * a file not listed starts after those that are, largest first as vitest would.
 */
const SECONDS: Record<string, number> = {
  "violations-1.test.ts": 65,
  "violations-2.test.ts": 65,
  "violations-3.test.ts": 65,
  "violations-4.test.ts": 65,
  "faithful-1.test.ts": 90,
  "faithful-2.test.ts": 90,
  "faithful-3.test.ts": 90,
  "proxy.test.ts": 89,
  "proxy-wire.test.ts": 67,
  "answered-first.test.ts": 43,
  "safety.test.ts": 32,
  "cli.test.ts": 28,
  "neighbours.test.ts": 23,
  "relations.test.ts": 21,
  "latitude-family.test.ts": 19,
  "deadlines.test.ts": 17,
  "report-browser.test.ts": 11,
  "boundaries.test.ts": 8,
  "proxy-cli.test.ts": 8,
  "coverage.test.ts": 7,
  "har.test.ts": 6
}

class LongestFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>) {
    const byVitest = await super.sort(files)
    const seconds = (file: TestSpecification) => SECONDS[basename(file.moduleId)] ?? 0
    // a stable sort: files not listed keep vitest's order among themselves
    return byVitest.sort((a, b) => seconds(b) - seconds(a))
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The proxy's judging thread runs the built JavaScript: build first when `src/` is newer.
    globalSetup: ["test/build.setup.ts"],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    // Every file runs the runner against servers it starts itself: files are independent and
    // CPU-bound, so one per core (vitest's default leaves one core idle on a 2-core machine).
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: LongestFirst }
  }
})
