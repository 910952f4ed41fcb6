/**
 * The registry of the oracles one exchange decides: one module per check of `ContractChecks`, each
 * holding that check's oracles (a check without oracles of its own has no module). The runner's
 * families call the judgements of these modules on the exchanges they make; the conformance proxy
 * applies every oracle of `registry` to the traffic it relays, so the rules the proxy judges are
 * `registryRules`, derived, never listed by hand.
 */
import type { ContractRules } from "@data-access/schema"
import type { CheckId } from "@data-access/schema/ContractChecks"
import type { Verdict } from "../outcome.js"
import * as Auth from "./auth.js"
import * as CreateEcho from "./create-echo.js"
import * as ErrorShape from "./error-shape.js"
import * as InvalidRejected from "./invalid-rejected.js"
import * as NoServerErrors from "./no-server-errors.js"
import type { ExchangeOracle, View } from "../exchangeOracle.js"
import * as Paging from "./paging.js"
import * as Protocol from "./protocol.js"
import * as ResponseSchema from "./response-schema.js"
import * as SearchFilter from "./search-filter.js"
import * as Secrets from "./secrets.js"
import * as StableReads from "./stable-reads.js"
import * as SuccessShape from "./success-shape.js"
import * as Timestamps from "./timestamps.js"
import * as UpdateSemantics from "./update-semantics.js"
import * as ValidAccepted from "./valid-accepted.js"

export type { Breach, ExchangeOracle, View } from "../exchangeOracle.js"

/** Each check's module, named by the check, in the order the registry applies their oracles. */
export const modules: ReadonlyArray<
  readonly [CheckId, { readonly oracles: ReadonlyArray<ExchangeOracle> }]
> = [
  ["no-server-errors", NoServerErrors],
  ["success-shape", SuccessShape],
  ["error-shape", ErrorShape],
  ["response-schema", ResponseSchema],
  ["timestamps", Timestamps],
  ["secrets", Secrets],
  ["invalid-rejected", InvalidRejected],
  ["auth", Auth],
  ["valid-accepted", ValidAccepted],
  ["protocol", Protocol],
  ["paging", Paging],
  ["search-filter", SearchFilter],
  ["create-echo", CreateEcho],
  ["update-semantics", UpdateSemantics],
  ["stable-reads", StableReads]
]

/** Every oracle one exchange decides: the proxy applies them all. */
export const registry: ReadonlyArray<ExchangeOracle> = modules.flatMap(([, m]) => m.oracles)

/** Every oracle's verdicts on one exchange, notes included. */
export const judgeAll = (view: View): ReadonlyArray<Verdict> =>
  registry.flatMap((o) => o.judge(view))

/** The rules the registry's oracles judge. */
export const registryRules: ReadonlyArray<ContractRules.RuleId> = registry.flatMap((o) => o.rules)
