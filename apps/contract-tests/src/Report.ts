/**
 * The report of a run: a cell per operation and check (passed, failed, skipped examples), the
 * findings (one per check, operation and cause, each with its minimal reproduction), and its
 * renderings: a terminal summary, JSON, JUnit XML and a self-contained HTML page. Nothing in a report holds the API key or
 * a secret field's value.
 *
 * @since 0.1.0
 */
export * from "./internal/report/model.js"
export * from "./internal/report/render.js"
export { merge } from "./internal/report/merge.js"
export { fromJson } from "./internal/report/schema.js"
export { operationLabel } from "./internal/report/label.js"
export {
  type Cause,
  causesOf,
  findingsCount,
  judgeReport,
  type Policy,
  verdictOf,
  verdictText,
  withVerdict
} from "./internal/report/verdict.js"
