/** The probes of the body size limit, which a server may set anywhere from 1 MiB up, and of a body mislabelled as gzip. */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type Context, type Op, send } from "../../context.js"
import { type Exchange, post } from "../../http.js"
import * as Inspect from "../../inspect.js"
import { fail, type Outcome, pass } from "../../outcome.js"
import { MiB, padded, plainList } from "../shared/sizes.js"
import { answered, encodingLeftOut, excerpt, got, type Probe, single } from "./probe.js"

/** Body sizes between the 1 MiB every server serves and the 4 MiB the reference server serves. */
const BODY_SIZES: ReadonlyArray<number> = [1.5 * MiB, 3.5 * MiB]

const mib = (bytes: number) => `${bytes / MiB} MiB`

/**
 * The answer to a body over 1 MiB: served, or refused for its size with resource_exhausted; a
 * server that served a larger body has a limit above this one, so it serves this one too.
 */
const judgeSize = (
  op: Op,
  bytes: number,
  largestServed: number,
  e: Exchange,
  skewMillis: number
): ReadonlyArray<Outcome> => {
  const within = largestServed > bytes
  if (Option.isNone(e.response)) {
    if (Inspect.slowNotHung(e)) return []
    // A server may refuse a body above its limit before reading it and close the connection.
    return within
      ? [
          fail(
            "errors.no-internal-for-client-faults",
            "no response to a body within the limit",
            `no response to a valid read of ${mib(bytes)} (${e.transportError ?? "connection closed"}), though a body of ${mib(largestServed)} was served`,
            e
          )
        ]
      : []
  }
  const answer = answered("body-limit-1mib", e)
  const status = Inspect.statusOf(e)!
  const code = Inspect.codeOf(e)
  if (status >= 500) return answer
  if (status === 200)
    return [
      ...answer,
      ...Inspect.basic(op, e, skewMillis).filter((o) => !o.ok),
      pass("protocol", ["protocol.body-limit"])
    ]
  if (code === "resource_exhausted") {
    // A rate limit says when to retry; a refusal for the size is of a body above the limit.
    const rateLimited = Option.getOrUndefined(e.response)!.headers["retry-after"] !== undefined
    return within && !rateLimited
      ? [
          ...answer,
          fail(
            "protocol.body-limit",
            "a body refused for its size, a larger one served",
            `a valid read of ${mib(bytes)} was refused with resource_exhausted, but one of ${mib(largestServed)} was served: no size limit refuses the smaller`,
            e,
            excerpt(e)
          )
        ]
      : [...answer, pass("protocol", ["protocol.body-limit"])]
  }
  return [
    ...answer,
    fail(
      "protocol.body-limit",
      `a body over 1 MiB: got ${code ?? `HTTP ${status}`}`,
      `a valid read of ${mib(bytes)} got ${got(e)}; a server serves it or refuses it for its size with resource_exhausted`,
      e,
      excerpt(e)
    )
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
    (e) => {
      const status = Inspect.statusOf(e)
      if (status === undefined || status >= 500 || Inspect.answeredFirst(e)) return []
      if (status === 200)
        return [...Inspect.basic(op, e, ctx.skewMillis).filter((o) => !o.ok), pass("protocol")]
      if ((status === 400 && Inspect.codeOf(e) === "invalid_argument") || encodingLeftOut(e))
        return [pass("protocol")]
      return [
        fail(
          "wire.json-object-body",
          `${what}: got ${Inspect.codeOf(e) ?? `HTTP ${status}`}`,
          `${what} got ${got(e)}; a server refuses it as malformed (invalid_argument) or for its encoding (415, unimplemented)`,
          e,
          excerpt(e)
        )
      ]
    }
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
        return answers.flatMap(([bytes, e]) =>
          contentEncoding !== undefined && encodingLeftOut(e)
            ? [pass("protocol")]
            : judgeSize(op, bytes, largestServed, e, ctx.skewMillis)
        )
      })
    }))
  ]
}
