/** The HAR file `judge` and `replay` read: one that cannot be read or is not HAR is a `HarError` naming it. */
import type * as FileSystem from "@effect/platform/FileSystem"
import * as Effect from "effect/Effect"
import * as Har from "../Har.js"

/** Reads and decodes the HAR file at `file`. */
export const readHar = (fs: FileSystem.FileSystem, file: string) =>
  Effect.gen(function* () {
    const text = yield* fs
      .readFileString(file)
      .pipe(
        Effect.mapError(
          (e) => new Har.HarError({ message: `${file} cannot be read: ${e.message}` })
        )
      )
    return yield* Har.decodeJson(text).pipe(
      Effect.mapError((e) => new Har.HarError({ message: `${file}: ${e.message}` }))
    )
  })
