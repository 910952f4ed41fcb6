/**
 * The violations of the `secrets` check: the records whose rule `ContractRules` gives to that
 * check, and the helpers only they use.
 *
 * @internal
 */
import * as ConnectError from "../connectError.js"
import type { Check } from "../pipeline-types.js"
import { lenientText } from "../jsonBodies.js"
import { violation } from "../violationRecord.js"

const MAX_QUOTED_BODY = 64 * 1024

export const secretInError = violation({
  name: "secret-in-error",
  rule: "secrets.not-in-errors",
  description:
    "invalid_argument error messages quote the request body as received, secret fields (`apiKey`, `apiSecret`, `certificate`, `privateKey`, `password`...) included.",
  hooks: {
    error: (next) => (e, ex) => {
      const error = next(e, ex)
      if (error.code !== "invalid_argument") return error
      const text = lenientText.decode(
        ex.bytes.length > MAX_QUOTED_BODY ? ex.bytes.subarray(0, MAX_QUOTED_BODY) : ex.bytes
      )
      return ConnectError.make("invalid_argument", `${error.message} (request body: ${text})`)
    }
  }
})

export const keyInError = violation({
  name: "key-in-error",
  rule: "secrets.key-not-in-errors",
  description:
    "An `X-API-KEY` the server does not know is quoted in the unauthenticated error message.",
  hooks: {
    checks: (next) => {
      const quoting = (c: Check): Check =>
        c.name !== "auth"
          ? c
          : {
              name: c.name,
              run: (input, op) => {
                const refusal = c.run(input, op)
                const key = input.headers["x-api-key"]
                return refusal === undefined || key === undefined || key === ""
                  ? refusal
                  : {
                      ...refusal,
                      error: ConnectError.make("unauthenticated", `the API key ${key} is not known`)
                    }
              }
            }
      return { beforeBody: next.beforeBody.map(quoting), afterBody: next.afterBody.map(quoting) }
    }
  }
})
