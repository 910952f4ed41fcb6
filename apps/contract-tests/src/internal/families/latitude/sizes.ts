/** The probes of the body size limit, which a server may set anywhere from 1 MiB up, and of a body mislabelled as gzip. */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type Context, type Op, send } from "../../context.js"
import { type Exchange, post } from "../../http.js"
import * as Inspect from "../../inspect.js"
import { mib } from "../../answerReading.js"
import { mislabelledBody } from "../../oracles/invalid-rejected.js"
import { closedWithinLimit } from "../../oracles/no-server-errors.js"
import { defined } from "../../exchangeOracle.js"
import { bodySizeAnswered, compressionLeftOut } from "../../oracles/protocol.js"
import type { Outcome } from "../../outcome.js"
import { MiB, padded, plainList } from "../shared/sizes.js"
import { answered, type Probe, single } from "./probe.js"

/** Body sizes between the 1 MiB every server serves and the 4 MiB the reference server serves. */
const BODY_SIZES: ReadonlyArray<number> = [1.5 * MiB, 3.5 * MiB]

/**
 * The answer to a body over 1 MiB: served (and judged as any answer), or refused for its size
 * (protocol's `bodySizeAnswered`); no answer at all, only when above the limit (no-server-errors'
 * `closedWithinLimit`).
 */
const judgeSize = (
  op: Op,
  bytes: number,
  largestServed: number,
  e: Exchange,
  skewMillis: number
): ReadonlyArray<Outcome> => {
  if (Option.isNone(e.response)) return defined(closedWithinLimit(bytes, largestServed, e))
  return [
    ...answered("body-limit-1mib", e),
    ...(Inspect.statusOf(e) === 200 ? Inspect.basic(op, e, skewMillis).filter((o) => !o.ok) : []),
    ...defined(bodySizeAnswered(bytes, largestServed, e))
  ]
}

/**
 * The probe of the body size limit, which a server may set anywhere from 1 MiB up: valid reads
 * padded with an unknown field to sizes between 1 MiB and 4 MiB, sent to the read the protocol
 * family sends its 1 MiB and 5 MiB bodies to (nothing is written).
 */
export const sizeProbes = (ctx: Context, op: Op): ReadonlyArray<Probe> => {
  if (op !== plainList) return []
  // A body that says gzip and is not: refused as malformed (invalid_argument) or for its encoding
  // (415, unimplemented), or read as it came; never refused as something else.
  const what = "a body that says gzip and is plain JSON"
  const mislabelled = single(
    ctx,
    what,
    "connect-get",
    post(op.path, { limit: 1 }, { headers: { "content-encoding": "gzip" } }),
    (e) => [
      ...(Inspect.statusOf(e) === 200 && !Inspect.answeredFirst(e)
        ? Inspect.basic(op, e, ctx.skewMillis).filter((o) => !o.ok)
        : []),
      ...defined(mislabelledBody(e, what))
    ]
  )
  // Plain, and gzip-compressed: the limit applies to what a body decompresses to, and a server
  // may leave compression out (415, unimplemented).
  return [
    mislabelled,
    ...([undefined, "gzip"] as const).map((contentEncoding): Probe => ({
      name: `valid reads of ${BODY_SIZES.map(mib).join(" and ")}${contentEncoding === undefined ? "" : `, ${contentEncoding}-compressed`}`,
      latitude: "body-limit-1mib",
      run: Effect.gen(function* () {
        const answers = yield* Effect.forEach(BODY_SIZES, (bytes) =>
          Effect.map(
            send(ctx, { ...post(op.path, undefined), body: padded(bytes), contentEncoding }),
            (e) => [bytes, e] as const
          )
        )
        const largestServed = Math.max(
          0,
          ...answers.filter(([, e]) => Inspect.statusOf(e) === 200).map(([bytes]) => bytes)
        )
        return answers.flatMap(([bytes, e]) => {
          const leftOut = contentEncoding === undefined ? undefined : compressionLeftOut(e)
          return leftOut !== undefined
            ? [leftOut]
            : judgeSize(op, bytes, largestServed, e, ctx.skewMillis)
        })
      })
    }))
  ]
}
