// Types of command.mjs, for the tests.

export interface CommandOptions {
  readonly cwd?: string
  readonly env?: NodeJS.ProcessEnv
  /** Written to the command's stdin (otherwise empty). */
  readonly input?: string
  /** Milliseconds; then SIGTERM (SIGKILL 5 s later) and `timedOut: true`. */
  readonly timeout?: number
  /** Output is always decoded as UTF-8 (the option reads like spawnSync's). */
  readonly encoding?: "utf8"
}

export interface CommandResult {
  /** The exit status; null when killed by a signal or when the command could not start. */
  readonly status: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  /** What it printed to stderr, then a line for a timeout or a failure to start. */
  readonly stderr: string
  readonly timedOut: boolean
  /** Why it could not start (ENOENT...). */
  readonly error?: Error
}

export declare const runCommand: (
  cmd: string,
  args?: ReadonlyArray<string>,
  options?: CommandOptions
) => Promise<CommandResult>

export declare const describeEnd: (result: CommandResult) => string

export declare const commandOutput: (
  cmd: string,
  args?: ReadonlyArray<string>,
  options?: CommandOptions
) => Promise<string>
