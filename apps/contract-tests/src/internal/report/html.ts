/**
 * A report as one self-contained HTML page (no network: styles and the filter script are inline,
 * so it opens from a CI artifact or `file://`): the verdict and the counts, the findings with their
 * severity, rule, quoted source and minimal reproduction (request and answer, curl, replay id),
 * filterable by severity, operation, rule and side; the operation × check matrix as a heatmap; the
 * coverage of each rule (and why a rule was judged zero times); the notes. A proxy's findings are
 * shown client and server apart. Every text is scrubbed of the secrets given.
 */
import { Secrets } from "@data-access/schema"
import * as Dimensions from "../dimensions.js"
import { checksOf } from "../checkIds.js"
import type * as Report from "./model.js"
import { operationLabel } from "./label.js"
import { shortened } from "./shortened.js"
import { causesOf, findingsCount, SEVERITIES, verdictOf, verdictText } from "./verdict.js"

/** How to render. */
export interface HtmlOptions {
  /** The page's title (default: by what made the report). */
  readonly title?: string | undefined
  /** Secret values (the API key) kept out of the page, besides what the report already hides. */
  readonly secrets?: Iterable<string> | undefined
}

const esc = (s: string): string =>
  s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;")

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

const count = (name: string, n: number, label: string) =>
  `<div class="count" data-count="${name}"><b>${n}</b><span>${esc(label)}</span></div>`

const findingHtml = (
  whole: Report.Finding,
  known: boolean,
  rerun: string | undefined,
  folded = false
): string => {
  const f = shortened(whole)
  const response =
    f.response === undefined
      ? ""
      : f.response._tag === "Response"
        ? `<div class="io"><h4>Answer</h4><pre>HTTP ${f.response.status}${f.response.contentType === undefined ? "" : ` · ${esc(f.response.contentType)}`}\n${esc(f.response.body)}</pre></div>`
        : `<div class="io"><h4>Answer</h4><pre>no response: ${esc(f.response.error)}</pre></div>`
  const request =
    f.request.method === ""
      ? ""
      : `<div class="io"><h4>Request</h4><pre>${esc(`${f.request.method} ${f.request.path}`)}${f.request.body === undefined ? "" : `\n${esc(f.request.body)}`}</pre></div>`
  const origin =
    f.side !== undefined
      ? `<p class="meta">seen ${plural(f.occurrences, "time")} (live traffic: no replay id)</p>`
      : `<p class="meta">seed ${f.seed} · replay: <code>${esc(rerun ?? "contract-tests")} --replay ${esc(f.replayId)}</code>${COPY}${f.occurrences > 1 ? ` · seen in ${f.occurrences} examples` : ""}${f.shrinkSteps > 0 ? ` · shrunk ${plural(f.shrinkSteps, "step")}` : ""}</p>`
  return `<article class="finding sev-${f.severity}" data-severity="${f.severity}" data-operation="${esc(f.operation)}" data-rule="${esc(f.rule)}" data-side="${f.side ?? ""}" data-known="${known}">
<header><span class="badge ${f.severity}">${f.severity}</span>${f.side === undefined ? "" : `<span class="badge side">${f.side}</span>`}${known ? `<span class="badge known">known</span>` : ""} <b>${esc(f.check)}</b> · ${esc(operationLabel(f))} · ${esc(f.cause)}</header>
<p>${esc(f.message)}</p>
<p class="rule">rule <code>${esc(f.rule)}</code>: <q>${esc(f.source)}</q></p>
${f.detail === undefined ? "" : `<p class="detail">detail: ${esc(f.detail)}</p>`}
${origin}
${folded ? `<details class="repro-more"><summary>request, answer and curl</summary>` : ""}<div class="repro">${request}${response}</div>
${f.curl === "" ? "" : `<div class="io"><h4>curl ${COPY}</h4><pre class="curl">${esc(f.curl)}</pre></div>`}${folded ? "</details>" : ""}
</article>`
}

/** A button that copies the text of the element before it (the replay line, the curl command). */
const COPY = `<button type="button" class="copy" title="copy">copy</button>`

/**
 * Findings grouped by cause (side, check and cause), as the terminal groups them: the first in
 * full, the others folded to their header, replay line and a closed reproduction.
 */
const causes = (
  xs: ReadonlyArray<{ f: Report.Finding; known: boolean }>
): Array<Array<{ f: Report.Finding; known: boolean }>> => {
  const groups = new Map<string, Array<{ f: Report.Finding; known: boolean }>>()
  for (const x of xs) {
    const key = `${x.known}\u0000${x.f.side ?? ""}\u0000${x.f.check}\u0000${x.f.cause}`
    groups.set(key, [...(groups.get(key) ?? []), x])
  }
  return [...groups.values()].sort(
    (a, b) => SEVERITIES.indexOf(a[0]!.f.severity) - SEVERITIES.indexOf(b[0]!.f.severity)
  )
}

const options = (values: ReadonlyArray<string>) =>
  values.map((v) => `<option value="${esc(v)}">${esc(v)}</option>`).join("")

const filters = (all: ReadonlyArray<Report.Finding>, proxy: boolean) => {
  const ops = [...new Set(all.map((f) => f.operation))].sort()
  const rules = [...new Set(all.map((f) => f.rule))].sort()
  return `<form class="filters" id="filters" onsubmit="return false">
<label>severity <select id="f-severity" data-filter="severity"><option value="">all</option>${options(SEVERITIES.filter((s) => all.some((f) => f.severity === s)))}</select></label>
<label>operation <select id="f-operation" data-filter="operation"><option value="">all</option>${options(ops)}</select></label>
<label>rule <select id="f-rule" data-filter="rule"><option value="">all</option>${options(rules)}</select></label>
${proxy ? `<label>side <select id="f-side" data-filter="side"><option value="">all</option>${options(["server", "client"])}</select></label>` : ""}
<span id="shown" data-shown="${all.length}">showing ${all.length} of ${all.length}</span>
</form>`
}

/** The operation × check matrix: green by passed examples, red for failures, grey for skips. */
const heatmap = (report: Report.Report): string => {
  const ids = checksOf(report.cells)
  const ops = [...new Set(report.cells.map((c) => c.operation))]
  const max = Math.max(1, ...report.cells.map((c) => c.passed))
  const td = (op: string, id: string) => {
    const c = report.cells.find((x) => x.operation === op && x.check === id)
    if (c === undefined)
      return `<td class="na" title="${esc(`${op} · ${id}: not applicable`)}">·</td>`
    const title = esc(
      `${op} · ${id}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped${c.skipReasons.length > 0 ? ` (${c.skipReasons.join("; ")})` : ""}`
    )
    if (c.failed > 0) return `<td class="fail" title="${title}">F${c.failed}</td>`
    if (c.passed > 0) {
      const level = 0.15 + 0.75 * (Math.log(1 + c.passed) / Math.log(1 + max))
      return `<td class="pass" style="background:rgba(34,139,34,${level.toFixed(2)})" title="${title}">${c.passed}</td>`
    }
    return `<td class="skip" title="${title}">skip</td>`
  }
  return `<table class="heatmap"><thead><tr><th>operation</th>${ids.map((id) => `<th><span>${esc(id)}</span></th>`).join("")}</tr></thead><tbody>
${ops.map((op) => `<tr><th>${esc(op === "_" ? "(api)" : op)}</th>${ids.map((id) => td(op, id)).join("")}</tr>`).join("\n")}
</tbody></table>`
}

const coverage = (report: Report.Report): string => {
  if (report.coverage === undefined)
    return `<p>Rule coverage is counted by the runner; see the matrix for the checks this traffic exercised.</p>`
  const judged = report.coverage.filter((c) => c.judged > 0)
  const zero = report.coverage.filter((c) => c.judged === 0)
  return `<p data-count="rules-judged">${judged.length} of ${report.coverage.length} rules judged.</p>
${zero.length === 0 ? "" : `<h3>Rules judged zero times (${zero.length})</h3><table class="zero"><thead><tr><th>rule</th><th>check</th><th>why</th></tr></thead><tbody>${zero.map((c) => `<tr><td><code>${esc(c.rule)}</code></td><td>${esc(c.check)}</td><td>${esc(c.reason ?? "no case")}</td></tr>`).join("")}</tbody></table>`}
<details><summary>Rules judged (${judged.length})</summary><table class="cov"><thead><tr><th>rule</th><th>check</th><th>cases</th><th>operations</th></tr></thead><tbody>${judged.map((c) => `<tr><td><code>${esc(c.rule)}</code></td><td>${esc(c.check)}</td><td>${c.judged}</td><td>${esc(c.operations.join(", "))}</td></tr>`).join("")}</tbody></table></details>${fieldCoverage(report)}`
}

/** The dimensions of each field's inputs the run sent, per operation. */
const fieldCoverage = (report: Report.Report): string =>
  report.fields === undefined
    ? ""
    : `<p data-count="input-coverage">Input coverage: ${esc(Dimensions.summary(report.fields))}.</p>
<details><summary>Dimensions sent per field (${report.fields.length})</summary><table class="cov"><thead><tr><th>operation</th><th>field</th><th>valid</th><th>refused</th></tr></thead><tbody>${report.fields.map((f) => `<tr><td>${esc(f.operation)}</td><td><code>${esc(f.field)}</code></td><td>${esc(f.valid.join(", "))}</td><td>${esc(f.refused.join(", "))}</td></tr>`).join("")}</tbody></table></details>`

const notes = (report: Report.Report): string => {
  const items = [
    ...report.observations.map(
      (o) =>
        `<li><span class="badge note">${esc(o.note)}</span> ${esc(o.operation)}: ${esc(o.message)}<pre class="curl">${esc(o.curl)}</pre></li>`
    ),
    ...report.fixed.map(
      (f) =>
        `<li><span class="badge fixed">fixed</span> in the baseline, no longer found: ${esc(f.rule)} · ${esc(f.operation)} · ${esc(f.cause)}</li>`
    ),
    ...report.notes.map((n) => `<li>${esc(n)}</li>`)
  ]
  return items.length === 0 ? "<p>None.</p>" : `<ul class="notes">${items.join("\n")}</ul>`
}

const STYLE = `
:root{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d232a;background:#f6f7f9}
body{margin:0 auto;max-width:1200px;padding:16px 24px}
h1{margin:0 0 4px;font-size:22px}h2{margin:28px 0 8px;font-size:18px;border-bottom:1px solid #d7dbe0;padding-bottom:4px}h3{font-size:15px}
.sub{color:#59636e;font-size:13px;margin:0 0 12px}
.verdict{display:flex;gap:12px;flex-wrap:wrap;align-items:stretch;margin:12px 0}
.verdict .v{font-size:26px;font-weight:700;padding:10px 20px;border-radius:8px;color:#fff;display:flex;align-items:center}
.v.pass{background:#1f883d}.v.fail{background:#cf222e}
.count{background:#fff;border:1px solid #d7dbe0;border-radius:8px;padding:8px 14px;min-width:90px}
.count b{display:block;font-size:20px}.count span{font-size:12px;color:#59636e}
.filters{display:flex;gap:14px;flex-wrap:wrap;align-items:center;background:#fff;border:1px solid #d7dbe0;border-radius:8px;padding:8px 12px;margin-bottom:10px;font-size:13px}
.filters select{margin-left:4px;max-width:260px}#shown{margin-left:auto;color:#59636e}
.finding{background:#fff;border:1px solid #d7dbe0;border-left:5px solid #999;border-radius:6px;padding:10px 14px;margin:10px 0}
.finding.sev-critical{border-left-color:#8250df}.finding.sev-major{border-left-color:#cf222e}.finding.sev-minor{border-left-color:#bf8700}
.finding header{font-size:14px}.finding p{margin:6px 0;font-size:14px}.finding .meta,.finding .rule{color:#59636e;font-size:13px}
.badge{display:inline-block;font-size:11px;font-weight:600;text-transform:uppercase;padding:1px 6px;border-radius:10px;margin-right:6px;background:#eaeef2}
.badge.critical{background:#8250df;color:#fff}.badge.major{background:#cf222e;color:#fff}.badge.minor{background:#bf8700;color:#fff}.badge.side{background:#0969da;color:#fff}
.repro{display:grid;grid-template-columns:1fr 1fr;gap:10px}.io h4{margin:6px 0 2px;font-size:12px;color:#59636e}
pre{background:#f3f4f6;border-radius:4px;padding:6px 8px;margin:0;font-size:12px;white-space:pre-wrap;word-break:break-all;max-height:220px;overflow:auto}
table{border-collapse:collapse;font-size:12px;background:#fff}th,td{border:1px solid #d7dbe0;padding:3px 6px;text-align:left}
.heatmap td{text-align:center;min-width:34px}.heatmap thead th{vertical-align:bottom;height:120px}.heatmap thead th span{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap}
.heatmap td.fail{background:#cf222e;color:#fff;font-weight:700}.heatmap td.skip{background:#d0d7de;color:#59636e}.heatmap td.na{color:#afb8c1}
.wrap{overflow-x:auto}.notes li{margin:4px 0;font-size:13px}.notes pre{margin-top:2px}
.empty{color:#59636e;font-style:italic}
body{overflow-wrap:anywhere}code{overflow-wrap:anywhere;word-break:break-all}
.top{position:sticky;top:0;z-index:2;background:#f6f7f9;padding:6px 0 4px;border-bottom:1px solid #d7dbe0}
.top .verdict{margin:4px 0}.toc{font-size:13px;display:flex;gap:14px;flex-wrap:wrap}.toc a{color:#0969da}
.covers{font-size:13px;color:#1d232a;margin:4px 0 0}
.cause{margin:14px 0}.cause>h3{margin:4px 0;font-size:14px}.finding.occurrence{padding:6px 14px}
details.repro-more summary{cursor:pointer;font-size:12px;color:#59636e}
button.copy{font-size:11px;padding:0 6px;margin-left:6px;border:1px solid #d7dbe0;border-radius:4px;background:#fff;cursor:pointer}
h2[id]{scroll-margin-top:130px}.cause[id]{scroll-margin-top:130px}
`

/** The filter script: hides the findings that do not match every chosen filter and counts the others. */
const SCRIPT = `
(function(){
  var selects = Array.prototype.slice.call(document.querySelectorAll("select[data-filter]"));
  var findings = Array.prototype.slice.call(document.querySelectorAll("article.finding"));
  var shown = document.getElementById("shown");
  function apply(){
    var n = 0;
    findings.forEach(function(f){
      var ok = selects.every(function(s){ return s.value === "" || f.getAttribute("data-" + s.getAttribute("data-filter")) === s.value; });
      f.hidden = !ok;
      if (ok) n++;
    });
    document.querySelectorAll("section.side").forEach(function(s){
      var any = s.querySelector("article.finding:not([hidden])") !== null;
      s.querySelector(".none-shown").hidden = any;
    });
    if (shown) { shown.textContent = "showing " + n + " of " + findings.length; shown.setAttribute("data-shown", String(n)); }
  }
  selects.forEach(function(s){ s.addEventListener("change", apply); });
  document.querySelectorAll("section.cause").forEach(function(c){ c.setAttribute("data-group", "1"); });
  var applyGroups = function(){
    document.querySelectorAll("section.cause").forEach(function(c){
      c.hidden = c.querySelector("article.finding:not([hidden])") === null;
    });
  };
  selects.forEach(function(s){ s.addEventListener("change", applyGroups); });
  document.querySelectorAll("button.copy").forEach(function(b){
    b.addEventListener("click", function(){
      var source = b.parentElement && b.parentElement.tagName === "H4" ? b.parentElement.nextElementSibling : b.previousElementSibling;
      var text = source ? source.textContent : "";
      if (navigator.clipboard) navigator.clipboard.writeText(text).then(function(){ b.textContent = "copied"; }, function(){ b.textContent = "select and copy"; });
    });
  });
  apply();
  applyGroups();
})();
`

/** The report as a self-contained HTML page. */
export const render = (report: Report.Report, options: HtmlOptions = {}): string => {
  const scrub = Secrets.scrubber(options.secrets ?? [])
  const proxy =
    report.findings.some((f) => f.side !== undefined) ||
    report.runId.startsWith("proxy-") ||
    report.runId.startsWith("har-")
  const title =
    options.title ??
    (proxy
      ? report.runId.startsWith("har-")
        ? "Recorded traffic judged by the contract"
        : "Conformance proxy report"
      : "Contract tests report")
  const totals = report.cells.reduce(
    (t, c) => ({
      passed: t.passed + c.passed,
      failed: t.failed + c.failed,
      skipped: t.skipped + c.skipped
    }),
    { passed: 0, failed: 0, skipped: 0 }
  )
  const verdict = verdictOf(report)
  const pass = verdict.pass
  const all = [
    ...report.findings.map((f) => ({ f, known: false })),
    ...report.known.map((f) => ({ f, known: true }))
  ]
  let groupIndex = 0
  const toc: Array<string> = []
  const list = (xs: ReadonlyArray<{ f: Report.Finding; known: boolean }>) =>
    causes(xs)
      .map((group) => {
        const id = `cause-${++groupIndex}`
        const first = group[0]!.f
        const title = `${first.side === undefined ? "" : `${first.side} · `}${first.check} · ${first.cause}`
        const ops = [...new Set(group.map((x) => x.f.operation))]
        toc.push(`<a href="#${id}">${esc(title)} (${group.length})</a>`)
        return `<section class="cause" id="${id}"><h3>${esc(title)}${group[0]!.known ? " · known" : ""} · ${plural(ops.length, "operation")}</h3>
${group.map(({ f, known }, i) => findingHtml(f, known, report.rerun, i > 0)).join("\n")}</section>`
      })
      .join("\n")
  const findingsHtml = proxy
    ? (["server", "client"] as const)
        .map((side) => {
          const xs = all.filter(({ f }) => f.side === side)
          return `<section class="side" data-side="${side}"><h3>${side === "server" ? "Server findings: answers that break the contract" : "Client findings: requests that break the interface"} (<span data-count="${side}-findings">${causesOf(xs.filter((x) => !x.known).map((x) => x.f)).length}</span>)</h3>${list(xs)}<p class="empty none-shown">${xs.length === 0 ? "None." : "None matches the filters."}</p></section>`
        })
        .join("\n")
    : `<section class="side" data-side="">${list(all)}<p class="empty none-shown">${all.length === 0 ? "None." : "None matches the filters."}</p></section>`
  const causeList =
    toc.length === 0 ? "" : `<nav class="toc causes" id="causes">${toc.join("")}</nav>`
  const serverCount = causesOf(report.findings.filter((f) => f.side === "server")).length
  const clientCount = causesOf(report.findings.filter((f) => f.side === "client")).length
  const covers = proxy
    ? `The verdict covers both sides of the traffic: ${plural(serverCount, "server finding")} (answers that break the contract) and ${plural(clientCount, "client finding")} (requests that break the interface; the invalid requests a contract-test run sends on purpose are client findings by design). A baseline's known findings do not count.`
    : `The verdict covers the server under test: each finding is an answer that breaks a must of the contract. The runner's own invalid requests are the test, not findings; skipped examples and notes do not fail it${report.known.length > 0 ? ", nor do the baseline's known findings" : ""}.`
  const coverageLine =
    report.coverage === undefined
      ? ""
      : count(
          "rules",
          report.coverage.filter((c) => c.judged > 0).length,
          `of ${report.coverage.length} rules judged`
        )
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>${esc(title)}: ${pass ? "PASS" : "FAIL"}</title><style>${STYLE}</style></head>
<body>
<h1>${esc(title)}</h1>
<p class="sub">${esc(report.target)} · run ${esc(report.runId)}${proxy ? "" : ` · seed ${report.seed}`} · started ${esc(report.startedAt)} · ${(report.durationMs / 1000).toFixed(1)} s${report.readOnly ? " · read-only" : ""}${report.replay === undefined ? "" : ` · replay ${esc(report.replay)}`}</p>
<div class="top" id="top"><div class="verdict" id="verdict"><div class="v ${pass ? "pass" : "fail"}" data-verdict="${pass ? "PASS" : "FAIL"}">${pass ? "PASS" : "FAIL"}</div>
${count("findings", causesOf(report.findings).length, findingsCount(report.findings).replace(/^\d+ /, ""))}
${report.known.length > 0 ? count("known", report.known.length, "known (baseline)") : ""}
${count("notes", report.observations.length, "notes")}
${count("passed", totals.passed, "passed")}
${count("failed", totals.failed, "failed")}
${count("skipped", totals.skipped, "skipped")}
${count("requests", report.requests, proxy ? "exchanges" : "requests")}
${coverageLine}
</div>
<nav class="toc" id="toc"><a href="#findings">Findings</a><a href="#matrix">Operations × checks</a><a href="#coverage">Rule coverage</a><a href="#notes">Notes</a></nav>
</div>
<p class="covers" id="covers"><b id="verdict-why">${esc(verdictText(verdict))}.</b> ${esc(covers)}</p>
<h2 id="matrix">Operations × checks</h2>
<p class="sub">Passed examples (darker: more), F with the failed count, skip, · where the check does not apply. Hover a cell for its counts and skip reasons.</p>
<div class="wrap">${heatmap(report)}</div>
<h2 id="findings">Findings</h2>
${causeList}
${
  all.length === 0
    ? ""
    : filters(
        all.map(({ f }) => f),
        proxy
      )
}
${findingsHtml}
<h2 id="coverage">Rule coverage</h2>
${coverage(report)}
<h2 id="notes">Notes</h2>
${notes(report)}
<script>${SCRIPT}</script>
</body></html>
`
  return scrub(page)
}
