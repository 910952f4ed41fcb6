/* global console, fetch, process */
// What the response-schema check pays to decode one 200 answer, as the runner and the proxy's
// judging thread do for every answer text they have not seen pass before: the schema compiled
// (`@data-access/schema/Decode`, what they use) against Effect's parser alone (the baseline, what
// they used before), both collecting every issue, on the reference server's own answers. Prints
// microseconds per answer and their ratio; nothing is asserted.
//
//   node bench/response-decode.mjs
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import { loadavg } from "node:os"
import { Decode, Operations } from "@data-access/schema"
import { ReferenceServer } from "@data-access/reference-server"

/** The answers: (operation, request) pairs the embedded server answers with its demo data. */
const answers = await Effect.runPromise(
  Effect.scoped(
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start({})
      const headers = { "content-type": "application/json", "x-api-key": server.apiKeys[0] }
      const text = (method, body) =>
        Effect.promise(async () => {
          const op = Operations.operations[method]
          const res = await fetch(server.url + op.path, {
            method: "POST",
            headers,
            body: JSON.stringify(body)
          })
          if (res.status !== 200) throw new Error(`${method}: status ${res.status}`)
          return { op, label: `${method} ${JSON.stringify(body)}`, text: await res.text() }
        })
      return [
        yield* text("GetResource", { id: server.knownIds.resources[0] }),
        yield* text("ListSatellites", { limit: 20 }),
        yield* text("ListSatellites", { limit: 100 }),
        yield* text("ListNativeUsers", { resourceId: server.knownIds.resources[0], limit: 100 }),
        yield* text("ListPolicyStageConfigurations", { limit: 100 })
      ]
    })
  )
)

/** Mean microseconds per call over `n` calls, after a warm-up; the median of 5 such rounds. */
const micros = (f, n = 2000) => {
  for (let i = 0; i < 200; i++) f()
  const rounds = []
  for (let r = 0; r < 5; r++) {
    const t0 = process.hrtime.bigint()
    for (let i = 0; i < n; i++) f()
    rounds.push(Number(process.hrtime.bigint() - t0) / 1000 / n)
  }
  return rounds.sort((a, b) => a - b)[2]
}

const rows = answers.map(({ op, label, text }) => {
  const json = JSON.parse(text)
  const parser = ParseResult.decodeUnknownEither(op.response, { errors: "all" })
  const compiled = Decode.makeDecoder(op.response, { errors: "all" })
  if (parser(json)._tag !== "Right" || compiled(json)._tag !== "Right")
    throw new Error(`${label}: the answer does not decode`)
  const baseline = micros(() => parser(json))
  const fast = micros(() => compiled(json))
  return {
    answer: label,
    bytes: text.length,
    "JSON.parse µs": micros(() => JSON.parse(text)).toFixed(1),
    "Effect's parser µs (baseline)": baseline.toFixed(1),
    "compiled µs": fast.toFixed(1),
    "compiled / baseline": (fast / baseline).toFixed(2)
  }
})

console.log(
  `response-schema's decode of one answer, Node ${process.version}, load average ${loadavg()[0].toFixed(1)}`
)
console.table(rows)
