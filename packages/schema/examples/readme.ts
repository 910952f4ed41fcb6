// The examples of README.md, compiled by `pnpm --filter @data-access/schema typecheck`; test/Readme.test.ts
// checks the values the README shows.
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { ConnectError, Operations, Timestamp } from "../src/index.js"

// --- Decoding a response --------------------------------------------------------------------
const ListSatellites = Operations.operations.ListSatellites

// a proto3 JSON body: zero values left out, an unknown field present
const body: unknown = JSON.parse(`{
  "satellites": [{ "id": "satellite_01", "name": "edge", "createdAt": "2024-05-01T12:00:00.123456789+02:00", "region": "eu" }],
  "listMetadata": { "count": 1 }
}`)
const page = Schema.decodeUnknownSync(ListSatellites.response)(body)
export const isProtected = page.satellites[0]?.terminationProtection // false: absent reads as the zero value
export const nextCursor = page.listMetadata.nextCursor // "": the last page
export const createdAt = String(page.satellites[0]?.createdAt) // "2024-05-01T10:00:00.123456789Z"

// --- Calling an operation with the table ----------------------------------------------------
export const call = <M extends Operations.MethodName>(
  baseUrl: string,
  apiKey: Redacted.Redacted,
  method: M,
  request: Operations.RequestOf<M>
) =>
  Effect.gen(function* () {
    const op: Operations.Operation = Operations.operations[method]
    const response = yield* Effect.promise(() =>
      fetch(`${baseUrl}${op.path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "connect-protocol-version": "1",
          "x-api-key": Redacted.value(apiKey),
          ...op.requiredHeaders
        },
        body: JSON.stringify(Schema.encodeSync(op.request)(request))
      })
    )
    const json = yield* Effect.promise(() => response.json() as Promise<unknown>)
    if (response.status !== 200) {
      const error = Schema.decodeUnknownOption(ConnectError.ErrorBody)(json)
      return yield* error._tag === "Some"
        ? ConnectError.make(error.value.code, error.value.message ?? "", {
            httpStatus: response.status
          })
        : ConnectError.make(
            ConnectError.codeFromStatus(response.status),
            `HTTP ${response.status}`,
            { httpStatus: response.status }
          )
    }
    return (yield* Schema.decodeUnknown(op.response)(json)) as Operations.ResponseOf<M>
  })

export const firstPage = call("http://127.0.0.1:8080", Redacted.make("key"), "ListSatellites", {
  limit: 100
}).pipe(
  Effect.map((page) => page.satellites.map((s) => s.name)),
  Effect.catchTag("ConnectError", (e) =>
    e.code === "unavailable" ? Effect.succeed([]) : Effect.fail(e)
  )
)

// --- Timestamp ------------------------------------------------------------------------------
export const t = Schema.decodeUnknownSync(Timestamp.TimestampString)("2024-12-31T23:30:00.5-01:30")
export const text = Timestamp.format(t) // "2025-01-01T01:00:00.500Z"
export const nanos = t.nanos // 500000000
export const date = Timestamp.toDate(t) // a Date (milliseconds)
export const dateTime = Timestamp.toDateTime(t) // a DateTime.Utc
export const created = Timestamp.now // Effect<Timestamp>, from the Clock

// --- Connect errors -------------------------------------------------------------------------
export const status = ConnectError.statusOf("invalid_argument") // 400
export const fallback = ConnectError.codeFromStatus(503) // "unavailable", only when the body is not a Connect error
export const retryable = ConnectError.make("unavailable", "try later").isRetryable // true
