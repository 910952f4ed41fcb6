/**
 * The types the judge, the proxy, the HAR judge and `Proxy` share, in a module of their own so
 * that no internal module imports `Proxy` back. `Proxy.Side` and `Proxy.Finding` are these.
 */
import type * as Report from "../report/model.js"

/**
 * Which party an exchange's finding blames: the `client` sent a request that breaks a rule, the
 * `server` answered in a way that breaks one.
 *
 * @since 0.3.0
 * @category models
 */
export type Side = "client" | "server"

/**
 * A finding of the proxy: a run's finding with the side it blames. `seed` is 0 and `replayId`
 * empty (live traffic is not replayable); `curl` reproduces the request.
 *
 * @since 0.3.0
 * @category models
 */
export interface Finding extends Report.Finding {
  readonly side: Side
}

/** Why a body was relayed without being judged. */
export type UnreadReason = "binary-codec" | "encoding" | "not-kept"

/**
 * What judged exchanges tell the metrics, summed by the judging thread and sent to the relay's
 * (where the metrics are served): how many were judged, the bodies not judged by reason, and the
 * rules broken, keyed by side, rule and operation joined with NUL.
 */
export interface Tally {
  judged: number
  readonly unread: { [R in UnreadReason]?: number }
  readonly findings: Record<string, number>
}
