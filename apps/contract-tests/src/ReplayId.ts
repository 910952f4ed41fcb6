/**
 * Replay ids: a short text that names exactly one generated case, so that `--replay <id>` runs
 * that case again and nothing else. It carries the run seed, the suite (a family of cases of one
 * operation), the check and fast-check's counterexample path (the example index, then the
 * shrink steps): `ct1.valid.GetResource.response-schema.42.3:1:0`.
 *
 * @since 0.1.0
 */
export * from "./internal/replayId.js"
