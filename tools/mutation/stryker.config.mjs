/* global URL */
// StrykerJS over the reference server's source, judged by contract-test runs (test/contract.test.ts).
// Run from the repository's root (`node tools/mutation/run.mjs`): the files are mutated in place,
// where the workspace's packages resolve their dependencies, and put back at the end.
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"

const require = createRequire(import.meta.url)
const here = "tools/mutation"

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  plugins: [
    ...["@stryker-mutator/vitest-runner", "@stryker-mutator/typescript-checker"].map((name) =>
      require.resolve(name)
    ),
    fileURLToPath(new URL("./ignorers.mjs", import.meta.url))
  ],
  // What no run can tell apart is said here, not in the server's source: message texts by their
  // place in the code (the `message-text` ignorer), and the rest by module (`mutate` below) or by
  // declaration and line with its reason (marks.mjs, the `marked` ignorer). The reasons in short:
  // - fault injection: runs only under a fault plan, which a faithful server has none of (the
  //   runner's self-proof, apps/contract-tests/bench/run.mjs, runs each fault);
  // - body limit: a server's limit may be any size of at least 1 MiB (decisions.md section 10), so
  //   no body a judge sends is over every faithful server's limit;
  // - the close: how the server closes when its scope ends, after a judge's run is over (the
  //   reference server's own tests judge it);
  // - in-process: bodies and headers only a caller of the in-process client that is neither the
  //   runner nor the typed client sends (both send Uint8Array bodies with their Content-Type);
  // - hooks (compose.ts): composing the hooks of the switches and violations that are on;
  // - shortcut: work skipped whose result would be the same.
  ignorers: ["message-text", "marked"],
  testRunner: "vitest",
  vitest: { configFile: `${here}/vitest.config.ts`, related: false },
  checkers: ["typescript"],
  tsconfigFile: `${here}/tsconfig.stryker.json`,
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  inPlace: true,
  // vitest strips types without checking them, so mutated files need no `// @ts-nocheck` (which
  // Stryker would otherwise add to every TypeScript file under the root, in place).
  disableTypeChecks: false,
  mutate: [
    "packages/reference-server/src/**/*.ts",
    // The catalogue of faults: a violation record is off in a faithful server, so no faithful run
    // executes it; the self-proof (apps/contract-tests bench) runs each one against the runner.
    "!packages/reference-server/src/internal/violations/**",
    // The helpers only the violation records use, beside their folder.
    ...[
      "violationRecord",
      "violationHooks",
      "requestShapes",
      "jsonBodies",
      "filterRewrites",
      "operationCollections"
    ].map((name) => `!packages/reference-server/src/internal/${name}.ts`),
    "!packages/reference-server/src/internal/faults.ts",
    // Data and entry points, not behaviour of the contract: the demo data set, the command line,
    // the re-exports and the pipeline's types (the other faces re-export internal modules only).
    "!packages/reference-server/src/internal/demo.ts",
    "!packages/reference-server/src/Cli.ts",
    "!packages/reference-server/src/internal/cli.ts",
    "!packages/reference-server/src/bin.ts",
    "!packages/reference-server/src/index.ts",
    "!packages/reference-server/src/internal/pipeline-types.ts",
    // The worker thread of startInWorker, and the code that starts it (workerThread.ts), run the
    // build, never this source: from the source there is no built worker beside it and the server
    // stays in the caller's thread, where these runs judge it (packages/reference-server/test/worker.test.ts
    // judges the worker and its start).
    "!packages/reference-server/src/internal/worker.ts",
    "!packages/reference-server/src/internal/workerThread.ts",
    "!packages/reference-server/src/internal/worker-protocol.ts",
    // Plumbing around the answers, not answers of the API: the HTTP lifecycle (listen, spans, the
    // close), the request log, the seeding of a store at start, fault injection's answers and
    // `domain`'s call (tools/connect-server's tests judge it; no judge here calls it). The
    // reference server's own tests judge each of them.
    "!packages/reference-server/src/internal/httpServer.ts",
    "!packages/reference-server/src/internal/requestLog.ts",
    "!packages/reference-server/src/internal/seeding.ts",
    "!packages/reference-server/src/internal/faultAnswers.ts",
    "!packages/reference-server/src/internal/domain.ts",
    // The code of the public face ReferenceServer.ts: constructors that wire the internal modules
    // (start: core.ts and httpServer.ts; layerHttpClient: inProcess.ts), mutated where they are.
    "!packages/reference-server/src/internal/referenceServer.ts",
    // The texts of error messages, which the documents leave free (decisions.md section 2); the
    // message-text ignorer below finds the ones written inline.
    "!packages/reference-server/src/internal/messages.ts"
  ],
  ignorePatterns: ["**/node_modules", "**/dist", "**/reports", "**/.turbo", "docs", ".git"],
  coverageAnalysis: "perTest",
  incremental: true,
  incrementalFile: `${here}/reports/stryker-incremental.json`,
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 10_000,
  timeoutFactor: 2,
  reporters: ["html", "json", "clear-text", "progress"],
  htmlReporter: { fileName: `${here}/reports/mutation.html` },
  jsonReporter: { fileName: `${here}/reports/mutation.json` },
  tempDirName: `${here}/.stryker-tmp`,
  cleanTempDir: "always"
}
