/**
 * secrets: an error answer quotes neither a secret field the request sent nor its `X-API-KEY`.
 */
import * as Option from "effect/Option"
import { Secrets } from "@data-access/schema"
import type { Exchange } from "../http.js"
import { fail, type Outcome, passes } from "../outcome.js"
import { summary } from "../answerReading.js"
import { defined, type ExchangeOracle, onAnswer } from "../exchangeOracle.js"

/** secrets: an error answer to a request with secrets carries none of them. */
export const secretsKept = (body: unknown, e: Exchange): Outcome | undefined => {
  const r = Option.getOrUndefined(e.response)
  const secrets = Secrets.values(body)
  if (r === undefined || r.status === 200 || secrets.length === 0) return undefined
  const leaked = secrets.some(
    (s) => r.text.includes(s) || r.text.includes(JSON.stringify(s).slice(1, -1))
  )
  return leaked
    ? fail(
        "secrets.not-in-errors",
        "secret in the error body",
        `the ${summary(e)} answer quotes a secret field's value that the request sent (value not shown)`,
        {
          ...e,
          response: Option.some({
            ...r,
            text: "[not shown: it holds a secret]",
            json: Option.none()
          })
        }
      )
    : passes(["secrets.not-in-errors"])
}

/** secrets: an error answer does not print the `X-API-KEY` the request sent (decisions.md section 8). */
export const keyKept = (key: string | undefined, e: Exchange): Outcome | undefined => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || r.status === 200 || key === undefined || key.length < Secrets.MIN_LENGTH)
    return undefined
  return r.text.includes(key)
    ? fail(
        "secrets.key-not-in-errors",
        "API key in the error body",
        `the ${summary(e)} answer prints the X-API-KEY the request sent (value not shown)`,
        {
          ...e,
          response: Option.some({
            ...r,
            text: "[not shown: it holds the API key]",
            json: Option.none()
          })
        }
      )
    : passes(["secrets.key-not-in-errors"])
}

const secretsOracle = onAnswer(
  "secrets",
  ["secrets.not-in-errors", "secrets.key-not-in-errors"],
  (v) =>
    defined(
      v.body === undefined ? undefined : secretsKept(v.body, v.exchange),
      keyKept(v.apiKey, v.exchange)
    )
)

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [secretsOracle]
