/**
 * `ReferenceServer.startInWorker` on the caller's side: which built worker to start, the options
 * as they cross (fixtures in their wire form), the thread's start and end, and its first word.
 * It imports nothing of `referenceServer.ts`, which imports it: the server's `start` (for the
 * caller's thread) and its `StartError` are given to `start`.
 *
 * The thread runs only from the build: from the TypeScript source there is no built worker beside
 * this module and the server stays in the caller's thread. `test/worker.test.ts` judges it; the
 * mutation runs, which judge the source, leave it out with `worker.ts`.
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as Fs from "node:fs"
import { Worker } from "node:worker_threads"
import * as FixturesModule from "./fixtures.js"
import type {
  FromWorker,
  StartReason,
  ToWorker,
  WireFixtures,
  WireOptions
} from "./worker-protocol.js"

/** What this module reads of the server's options (`ReferenceServer.Options`). */
export interface ThreadOptions {
  readonly store?: { readonly _tag: string }
  readonly data?: "demo" | "empty" | FixturesModule.FixturesInput
  readonly fixtures?: FixturesModule.FixturesInput
  readonly logRequests?: boolean
  readonly tracing?: boolean
}

/** Why the server did not start: the fields of a `ReferenceServer.StartError`. */
export interface Failure {
  readonly reason: StartReason
  readonly message: string
  readonly packageName?: string
  readonly cause?: unknown
}

/** Where the server listens and what it holds (`ReferenceServer.Listening`). */
export type Listening = Omit<Extract<FromWorker, { _tag: "Started" }>, "_tag"> & {
  readonly thread: "worker" | "caller"
}

/**
 * The built worker beside this module: its one-file bundle (`scripts/bundle.mjs`), which
 * starts three times as fast, or, for a SQLite store (whose client is the application's own
 * install, which the bundle's copy of effect would not share tags with) or a build without the
 * bundle, the worker module itself. `undefined` when this module runs from its TypeScript source
 * (a test runner's alias to `src`, the mutation runs), which has no built worker beside it: a
 * worker would then run other code than the caller's.
 */
const workerEntry = (options: ThreadOptions): URL | undefined => {
  const candidates =
    options.store?._tag === "Sqlite" ? ["./worker.js"] : ["./worker.bundle.js", "./worker.js"]
  for (const candidate of candidates) {
    const url = new URL(candidate, import.meta.url)
    if (url.protocol === "file:" && Fs.existsSync(url)) return url
  }
  return undefined
}

/** Fixtures as they cross to the worker: in their wire form (see `WireFixtures`). */
const wireFixtures = (fixtures: FixturesModule.FixturesInput): WireFixtures =>
  Object.fromEntries(FixturesModule.encode(fixtures))

/** The options as the worker receives them; fixtures that cannot be encoded fail as they would in the caller's thread. */
const wireOptions = <O extends ThreadOptions, E>(
  options: O,
  fail: (failure: Failure) => E
): Effect.Effect<WireOptions<O>, E> =>
  Effect.try({
    try: () => {
      const { data, fixtures, ...rest } = options
      return {
        ...rest,
        ...(data === undefined
          ? {}
          : { data: typeof data === "string" ? data : wireFixtures(data) }),
        ...(fixtures === undefined ? {} : { fixtures: wireFixtures(fixtures) })
      }
    },
    catch: (cause) =>
      fail({ reason: "Fixtures", message: "the fixtures could not be stored", cause })
  })

/** How long a worker has to stop its server once the scope closes, before it is terminated. */
const WORKER_CLOSE_MILLIS = 5_000

/** A worker thread and its end. */
interface Thread {
  readonly worker: Worker
  readonly exited: Promise<number>
}

/**
 * A worker thread with the caller's Node options (--cpu-prof, --conditions...). The thread inherits
 * them as Node passes them on, V8's included (a heap size such as --max-semi-space-size), unless
 * the caller was started with `--input-type`: that option only applies to code given on the
 * command line and stops a worker whose code is a file, so the others are given explicitly. Given
 * explicitly, an option of V8 or of the process stops the worker; Node names those it refuses, and
 * the thread starts without them.
 */
const makeWorker = (entry: URL, workerData: unknown): Worker => {
  const isInputType = (arg: string) => arg.startsWith("--input-type")
  if (!process.execArgv.some(isInputType)) return new Worker(entry, { workerData })
  const execArgv = process.execArgv.filter((arg) => !isInputType(arg))
  try {
    return new Worker(entry, { workerData, execArgv })
  } catch (error) {
    if ((error as { readonly code?: unknown }).code !== "ERR_WORKER_INVALID_EXEC_ARGV") throw error
    const listed = /flags: (.*)$/.exec(String((error as Error).message))?.[1] ?? ""
    const refused = new Set(listed.split(", "))
    return new Worker(entry, { workerData, execArgv: execArgv.filter((arg) => !refused.has(arg)) })
  }
}

const spawn = <O extends ThreadOptions, E>(
  entry: URL,
  workerData: WireOptions<O>,
  fail: (failure: Failure) => E
): Effect.Effect<Thread, E, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.try({
      try: (): Thread => {
        const worker = makeWorker(entry, workerData)
        // An error of the thread ends it; the start or the close below sees it end.
        worker.on("error", () => {})
        return { worker, exited: new Promise((resolve) => worker.once("exit", resolve)) }
      },
      catch: (cause) =>
        fail({
          reason: "Worker",
          message: "the server's worker thread could not be started",
          cause
        })
    }),
    // The server stops after the requests in flight, as in the caller's thread; a thread that has
    // not ended by then is terminated.
    ({ exited, worker }) =>
      Effect.promise(() => {
        worker.postMessage({ _tag: "Close" } satisfies ToWorker)
        let timer: ReturnType<typeof setTimeout> | undefined
        const late = new Promise<void>((resolve) => {
          timer = setTimeout(() => resolve(void worker.terminate()), WORKER_CLOSE_MILLIS)
        })
        return Promise.race([exited, late]).then(() => clearTimeout(timer))
      })
  )

/** The worker's first word: the server listening, or why not (a thread that fails or ends first says so too). */
const startedIn = <E>({ exited, worker }: Thread, fail: (failure: Failure) => E) =>
  Effect.async<Extract<FromWorker, { _tag: "Started" }>, E>((resume) => {
    let errorText: string | undefined
    const onError = (error: Error) => {
      errorText = error.message
    }
    const onMessage = (message: FromWorker) => {
      done()
      resume(
        message._tag === "Started"
          ? Effect.succeed(message)
          : Effect.fail(
              fail({
                reason: message.reason,
                message: message.message,
                ...(message.packageName === undefined ? {} : { packageName: message.packageName }),
                ...(message.cause === undefined ? {} : { cause: message.cause })
              })
            )
      )
    }
    let ended = false
    const done = () => {
      ended = true
      worker.off("message", onMessage)
      worker.off("error", onError)
    }
    worker.once("message", onMessage)
    worker.on("error", onError)
    void exited.then((code) => {
      if (ended) return
      done()
      resume(
        Effect.fail(
          fail({
            reason: "Worker",
            message: `the server's worker thread ended (exit code ${code}) before the server listened${errorText === undefined ? "" : `: ${errorText}`}`
          })
        )
      )
    })
    return Effect.sync(done)
  })

/**
 * Starts the server in a worker thread of its own (see `ReferenceServer.startInWorker`), or with
 * `inCaller` (`ReferenceServer.start`) in the caller's thread when it must stay there: its spans
 * or its request log belong to the caller (`tracing`, `logRequests`), or this module runs from its
 * source. `fail` makes the error of a start that failed (`ReferenceServer.StartError`).
 */
export const start = <O extends ThreadOptions, E>(
  options: O,
  inCaller: (options: O) => Effect.Effect<Omit<Listening, "thread">, E, Scope.Scope>,
  fail: (failure: Failure) => E
): Effect.Effect<Listening, E, Scope.Scope> =>
  Effect.gen(function* () {
    const entry = workerEntry(options)
    if (entry === undefined || options.tracing === true || options.logRequests === true) {
      const server = yield* inCaller(options)
      return {
        url: server.url,
        apiKeys: server.apiKeys,
        knownIds: server.knownIds,
        latitude: server.latitude,
        thread: "caller"
      } satisfies Listening
    }
    const thread = yield* spawn(entry, yield* wireOptions(options, fail), fail)
    const started = yield* startedIn(thread, fail)
    return {
      url: started.url,
      apiKeys: started.apiKeys,
      knownIds: started.knownIds,
      latitude: started.latitude,
      thread: "worker"
    } satisfies Listening
  })
