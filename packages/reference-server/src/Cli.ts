/**
 * The command line of the reference server: `data-access-reference-server`.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as FileSystem from "@effect/platform/FileSystem"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as internal from "./internal/cli.js"
import type { CliError } from "./internal/cli.js"

/**
 * The CLI failed before the server ran: a flag, a file or the port.
 *
 * @since 0.1.0
 * @category errors
 */
export { CliError } from "./internal/cli.js"

/**
 * The `data-access-reference-server` command.
 *
 * @since 0.1.0
 * @category commands
 */
export const command: Command.Command<
  "data-access-reference-server",
  FileSystem.FileSystem,
  CliError,
  {
    readonly port: number
    readonly host: string
    readonly apiKey: string[]
    readonly store: Option.Option<string>
    readonly fixtures: Option.Option<string>
    readonly noDemo: boolean
    readonly faults: Option.Option<string>
    readonly writeIds: Option.Option<string>
    readonly emitDefaults: boolean
    readonly maxBodyBytes: number
    readonly latitude: string[]
    readonly latencyMs: number
    readonly quiet: boolean
  }
> = internal.command

/**
 * Runs the command with `process.argv`-style arguments.
 *
 * @since 0.1.0
 * @category commands
 */
export const run: (
  args: ReadonlyArray<string>
) => Effect.Effect<
  void,
  CliError | import("@effect/cli/ValidationError").ValidationError,
  import("@effect/cli/CliApp").CliApp.Environment
> = internal.run
