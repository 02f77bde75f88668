// A self-contained HTML report (inline CSS and SVG, no scripts that run, nothing fetched): the run's verdict at the
// top (each count linking to its rows), the pictures the articles imply, the snapshot timeline, each experiment
// with the article's figures beside this run's (rule, verdict, why) and the lab's checks, the bytes every query
// read (its SQL one click away), and what the run would cost on AWS. It fits the window from 1280 px up and
// stacks on narrow screens; nothing lives only in a column that can be cut off.
import type { Comparison } from '../article';
import { formatCostUsd, lineCostText, totalText } from '../cost/cost-text';
import type { CostEstimate, CostLine } from '../cost/estimate';
import type { LabChart } from './charts';
import { formatBytes, formatCount } from './format';
import type { ExperimentReport, LabReport } from './lab-report';
import { countText, runVerdict, VERDICT_ORDER, type VerdictCount } from './run-verdict';
import { esc, groupedBarsSvg, queryBarSvg, timelineSvg } from './svg';
import { rowVerdict } from './verdict';

export { esc, timelineSvg } from './svg';

export const rowId = (name: string) => `row-${name.replace(/[^a-zA-Z0-9_-]/g, '-')}`;
export const chartId = (id: string) => `chart-${id.replace(/[^a-zA-Z0-9_-]/g, '-')}`;

const COUNT_ANCHOR: Record<VerdictCount, string> = {
  same: 'v-same',
  differs: 'v-differs',
  'no-figure': 'v-no-figure',
  failed: 'v-failed',
  skipped: 'v-skipped',
  'checks-failed': 'v-checks-failed',
};

const COUNT_HEADING: Record<VerdictCount, string> = {
  same: 'Same as the article',
  differs: 'Differ from the article',
  'no-figure': 'No figure in the article',
  failed: 'Failed',
  skipped: 'Not run or skipped',
  'checks-failed': "The lab's checks that failed",
};

/** The run's verdict line, each count linking to the list of its rows, and the lists. */
function verdictSection(report: LabReport): string {
  const v = runVerdict(report);
  const counts = VERDICT_ORDER.map((k) => {
    const text = esc(countText(k, v.counts[k]));
    const cls = `count ${k}${v.counts[k] > 0 ? ' some' : ''}`;
    return v.counts[k] > 0
      ? `<a class="${cls}" href="#${COUNT_ANCHOR[k]}">${text}</a>`
      : `<span class="${cls}">${text}</span>`;
  }).join(' · ');
  const link = (r: { name: string; title: string }) => `<a href="#${rowId(r.name)}">${esc(r.title)}</a>`;
  const lists = VERDICT_ORDER.filter((k) => v.counts[k] > 0)
    .map((k) => {
      const items =
        k === 'checks-failed'
          ? v.failedChecks.map((f) => `${link(f.row)} · <code>${esc(f.check)}</code>`)
          : v.rows[k].map(link);
      return `<li id="${COUNT_ANCHOR[k]}" class="${k}"><b>${esc(COUNT_HEADING[k])}:</b> ${items.join(', ')}</li>`;
    })
    .join('');
  const head = v.partial
    ? `Partial run, ${v.experiments} experiment${v.experiments === 1 ? '' : 's'}:`
    : `${v.experiments} experiments:`;
  return (
    `<section id="verdict" class="verdict"><p class="verdict-line"><b>${esc(head)}</b> ${counts}</p>` +
    `<ul class="verdict-rows">${lists}</ul></section>`
  );
}

function partialNotice(report: LabReport): string {
  if (!report.partial) return '';
  const names = report.partial.experiments.map((n) => `<code>${esc(n)}</code>`).join(', ');
  return (
    `<p class="partial" id="partial"><b>A partial report.</b> Only ${names} ran (<code>pnpm lab run ${esc(report.partial.experiments.join(' '))}</code>); ` +
    'the other experiments, and the pictures drawn from them, are not in it. <code>pnpm lab</code> runs them all.</p>'
  );
}

function costSummary(report: LabReport): string {
  const c = report.cost;
  if (!c)
    return `<p class="cost-summary">No cost estimate${report.usageError ? `: ${esc(report.usageError)}` : ''}.</p>`;
  return (
    `<p class="cost-summary"><b>On AWS this run would cost about ${esc(totalText(c.totals.run, c.totals.excluded?.run))}</b> ` +
    `(${esc(c.region)}, list prices read on ${esc(c.pricesAsOf)}, no free tier); left running with the daily ` +
    `snapshot, ${esc(totalText(c.totals.perDay, c.totals.excluded?.perDay))} a day, ${esc(totalText(c.totals.perMonth, c.totals.excluded?.perMonth))} a month. ` +
    `<a href="#cost">Per service</a>.</p>`
  );
}

/** One picture, or why it cannot be drawn. */
function chartFigure(chart: LabChart, report: LabReport): string {
  const row = report.experiments.some((e) => e.name === chart.experiment)
    ? ` <a class="to-row" href="#${rowId(chart.experiment)}">the experiment</a>`
    : '';
  const body = chart.missing
    ? `<p class="missing">No picture: ${esc(chart.missing)}.</p>`
    : groupedBarsSvg(chart);
  return (
    `<figure class="chart" id="${chartId(chart.id)}"><figcaption><b>${esc(chart.title)}</b>` +
    `${chart.caption ? ` ${esc(chart.caption)}` : ''}${row}</figcaption>${body}</figure>`
  );
}

/** One figure: the article's and ours side by side, the rule, the verdict and why (or the lab's choice). */
function figureRow(c: Comparison): string {
  const note = [
    c.why ? `<div class="why">Why: ${esc(c.why)}</div>` : '',
    c.labChoice ? `<div class="choice">Lab's choice: ${esc(c.labChoice)}</div>` : '',
  ].join('');
  return (
    `<tr class="figure ${c.verdict}"><td data-label="Figure">${esc(c.figure)}</td>` +
    `<td data-label="The article" class="seed">${esc(c.article)}</td><td data-label="This run">${esc(c.ours)}</td>` +
    `<td data-label="Rule" class="rule">${esc(c.rule)}</td><td data-label="Verdict" class="verdict">${esc(c.verdict)}${note}</td></tr>`
  );
}

/** An experiment's itemized outcomes under its result (e.g. each refusal with its error). */
function detailList(details: ExperimentReport['details']): string {
  if (!details || details.length === 0) return '';
  const items = details.map((d) => `<li><b>${esc(d.label)}</b>: ${esc(d.text)}</li>`).join('');
  return `<ul class="details">${items}</ul>`;
}

function experimentCard(e: ExperimentReport, charts: readonly LabChart[]): string {
  const v = rowVerdict(e);
  const checks = Object.entries(e.checks);
  const checkList =
    checks.length > 0
      ? `<p class="checks"><span class="label">The lab's checks:</span> ${checks
          .map(([k, ok]) => `<span class="check ${ok ? 'ok' : 'bad'}">${ok ? '✓' : '✗'} ${esc(k)}</span>`)
          .join(' ')}</p>`
      : '';
  const figures =
    e.comparisons.length > 0
      ? `<table class="figures"><thead><tr><th>Figure</th><th>The article</th><th>This run</th><th>Rule</th><th>Verdict</th></tr></thead><tbody>${e.comparisons.map(figureRow).join('')}</tbody></table>`
      : '<p class="nofigure">The article gives no figure for this row.</p>';
  const pictures = charts
    .filter((c) => c.experiment === e.name)
    .map((c) => `<a href="#${chartId(c.id)}">${esc(c.title)}</a>`);
  return (
    `<article class="exp ${v.status}" id="${rowId(e.name)}">` +
    `<header><h3><span class="part">Part ${e.part}</span> ${esc(e.title)}</h3><span class="badge ${v.status}">${esc(v.summary)}</span></header>` +
    `<div class="cols"><div class="seed-col"><h4>The article</h4><p class="seed">${esc(e.article)}</p></div>` +
    `<div class="ours-col"><h4>This run (measured)</h4><p>${esc(e.error ? `FAILED: ${e.error}` : e.skipped !== undefined && !e.result ? `not run: ${e.skipped}` : e.result)}</p>${detailList(e.details)}</div></div>` +
    `${figures}${checkList}` +
    (pictures.length > 0 ? `<p class="pictures">Picture: ${pictures.join(', ')}</p>` : '') +
    `</article>`
  );
}

/** Bytes read by every query, grouped by experiment, on one scale; each query's SQL one click away. */
function querySection(report: LabReport): string {
  if (report.queries.length === 0) return '<p class="missing">No query ran in this report.</p>';
  const max = Math.max(1, ...report.queries.map((q) => q.dataScannedInBytes));
  const order = [...new Set(report.queries.map((q) => q.experiment))];
  return order
    .map((name) => {
      const queries = report.queries.filter((q) => q.experiment === name);
      const e = report.experiments.find((x) => x.name === name);
      const total = queries.reduce((n, q) => n + q.dataScannedInBytes, 0);
      const title = e ? `<a href="#${rowId(name)}">${esc(e.title)}</a>` : esc(name);
      const rows = queries
        .map(
          (q) =>
            `<details class="sql"><summary><span class="qname"><code>${esc(q.query)}</code></span>` +
            `${queryBarSvg(q.dataScannedInBytes, max, `${q.query}: ${formatBytes(q.dataScannedInBytes)}`)}` +
            `<span class="qbytes">${esc(formatBytes(q.dataScannedInBytes))}</span><span class="qms">${formatCount(q.ms)} ms</span></summary>` +
            `<pre><code>${esc(q.sql ?? '(the SQL was not recorded for this query)')}</code></pre></details>`,
        )
        .join('');
      return (
        `<section class="qgroup" id="q-${esc(name)}"><h3>${title} <span class="sub">${formatCount(queries.length)} quer${queries.length === 1 ? 'y' : 'ies'}, ${esc(formatBytes(total))} read</span></h3>` +
        `${rows}</section>`
      );
    })
    .join('\n');
}

function costRows(lines: readonly CostLine[], extra?: readonly CostLine[]): string {
  return lines
    .map((l, i) => {
      const more = extra
        ? `<td data-label="A month" class="num">${esc(extra[i] ? lineCostText(extra[i]) : formatCostUsd(null))}</td>`
        : '';
      return (
        `<tr class="${l.usd === null ? 'unpriced' : ''}"><td data-label="Service">${esc(l.service)}</td>` +
        `<td data-label="Measured">${esc(l.usage)}${l.note ? `<div class="why">${esc(l.note)}</div>` : ''}</td>` +
        `<td data-label="Priced as" class="rule">${esc(l.rule)}</td>` +
        `<td data-label="${extra ? 'A day' : 'Cost'}" class="num">${esc(lineCostText(l))}</td>${more}</tr>`
      );
    })
    .join('');
}

function costSection(report: LabReport): string {
  const c: CostEstimate | undefined = report.cost;
  if (!c)
    return `<p class="missing">No estimate for this run${report.usageError ? `: ${esc(report.usageError)}` : ' (the report predates it)'}.</p>`;
  const prices = c.prices
    .map(
      (p) =>
        `<tr class="${p.usd === null ? 'unpriced' : ''}"><td data-label="Item">${esc(p.item)}</td>` +
        `<td data-label="Price" class="num">${p.usd === null ? 'not found' : esc(`$${p.usd} per ${p.unit}`)}</td>` +
        `<td data-label="AWS's page"><a href="${esc(p.source)}">${esc(p.source.replace(/^https:\/\//, ''))}</a></td>` +
        `<td data-label="Read in">${esc(p.seen)}</td></tr>`,
    )
    .join('');
  return (
    `<p>An estimate of this run's bill had it run on AWS, from what it measured: ${esc(c.assumptions.join(' '))}</p>` +
    `<h3>This run: ${esc(totalText(c.totals.run, c.totals.excluded?.run))}</h3>` +
    `<table class="cost"><thead><tr><th>Service</th><th>Measured</th><th>Priced as</th><th>Cost</th></tr></thead><tbody>${costRows(c.run)}</tbody></table>` +
    `<h3>Left running with the daily snapshot: ${esc(totalText(c.totals.perDay, c.totals.excluded?.perDay))} a day, ${esc(totalText(c.totals.perMonth, c.totals.excluded?.perMonth))} a month</h3>` +
    `<table class="cost"><thead><tr><th>Service</th><th>A day of it</th><th>Priced as</th><th>A day</th><th>A month</th></tr></thead><tbody>${costRows(c.perDay, c.perMonth)}</tbody></table>` +
    `<h3>Prices (${esc(c.region)}, as read on ${esc(c.pricesAsOf)})</h3>` +
    `<table class="cost prices"><thead><tr><th>Item</th><th>Price</th><th>AWS's page</th><th>Where the figure was read</th></tr></thead><tbody>${prices}</tbody></table>`
  );
}

const CSS = `
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2430;background:#fff;overflow-wrap:anywhere}
.page{max-width:1560px;margin:0 auto;padding:1.25rem 1.5rem 3rem}
h1{margin:.2rem 0 .4rem;font-size:1.7rem}h2{margin:2rem 0 .6rem;border-bottom:2px solid #e3e7ee;padding-bottom:.2rem}
h3{margin:1.1rem 0 .4rem;font-size:1.05rem}h4{margin:0 0 .2rem;font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:#5a6474}
nav.sections a{margin-right:.9rem}
.meta{color:#444;margin:.2rem 0}
.verdict{background:#f5f7fa;border:1px solid #dde3ea;border-radius:8px;padding:.7rem 1rem;margin:.8rem 0}
.verdict-line{font-size:1.15rem;margin:0}.verdict-rows{margin:.4rem 0 0;padding-left:1.1rem;font-size:.92rem}
.count{white-space:nowrap}.count.differs.some{color:#9a5b00}.count.failed.some,.count.checks-failed.some{color:#c62828;font-weight:700}
.count.same.some{color:#1b7f4b}
.partial{background:#fff4e0;border:1px solid #f0c36d;border-radius:6px;padding:.5rem .8rem}
.cost-summary{font-size:1.02rem}
.banner{font-size:.85rem;color:#444}.banner code{white-space:pre-wrap}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85em}
code{background:#f2f4f7;padding:0 .2rem;border-radius:3px}
pre{background:#f6f8fa;border:1px solid #e3e7ee;border-radius:6px;padding:.6rem;white-space:pre-wrap;overflow-wrap:anywhere;margin:.3rem 0 .6rem}
pre code{background:none;padding:0}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,480px),1fr));gap:1rem}
figure.chart{margin:0;border:1px solid #e3e7ee;border-radius:8px;padding:.6rem .8rem;min-width:0}
figcaption{font-size:.92rem;margin-bottom:.3rem}
svg{display:block;max-width:100%;height:auto}svg text{font:12px system-ui,sans-serif;fill:#1d2430}
svg text.group,svg text.lane{font-weight:600}svg text.exp{font-size:11px;fill:#3a4556}svg text.value,svg text.tick{fill:#444}
.missing{color:#6b7280;font-style:italic;background:#fafafa;border:1px dashed #ccc;border-radius:6px;padding:.6rem}
article.exp{border:1px solid #dde3ea;border-left:6px solid #bbb;border-radius:8px;padding:.6rem .9rem;margin:.8rem 0}
article.exp.same{border-left-color:#1b9e5a}article.exp.differs{border-left-color:#e0a010}article.exp.error{border-left-color:#d33}article.exp.skipped{border-left-color:#bbb}
article.exp header{display:flex;flex-wrap:wrap;gap:.3rem 1rem;align-items:baseline;justify-content:space-between}
article.exp h3{margin:.1rem 0}.part{font-size:.75rem;color:#fff;background:#5a6474;border-radius:4px;padding:0 .35rem;margin-right:.3rem;vertical-align:middle}
.badge{font-size:.85rem;border-radius:999px;padding:.05rem .6rem;background:#eef1f5}.badge.differs{background:#fff1d6}
.badge.same{background:#e2f5ea}.badge.error{background:#fde2e2;color:#a00}.badge.skipped{background:#eee;color:#555}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:1rem;margin:.4rem 0}
.seed{color:#5a6474;font-style:italic}.cols p{margin:.1rem 0}
table{border-collapse:collapse;width:100%;table-layout:fixed;margin:.5rem 0}
td,th{border:1px solid #e1e5eb;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f4f6f9;font-size:.85rem}table.figures{font-size:.88rem}
table.figures th:nth-child(1){width:18%}table.figures th:nth-child(2),table.figures th:nth-child(3){width:17%}
table.figures th:nth-child(4){width:22%}
tr.figure.differs td.verdict{color:#9a5b00;font-weight:600}tr.figure.same td.verdict{color:#1b7f4b}
.why,.choice{font-weight:normal;color:#3d4654;margin-top:.2rem;font-size:.85rem}.rule{color:#4b5563}.nofigure{color:#6b7280}
ul.details{margin:.3rem 0 0;padding-left:1.2rem;font-size:.85rem;color:#3d4654}
.checks{font-size:.85rem;margin:.4rem 0 0}.checks .label{color:#5a6474;margin-right:.2rem}
.check{display:inline-block;margin:0 .5rem .15rem 0}.check.ok{color:#1b7f4b}.check.bad{color:#c62828;font-weight:700}
.pictures{font-size:.85rem;margin:.3rem 0 0}
.qgroup h3 .sub{font-weight:normal;color:#5a6474;font-size:.9rem}
details.sql summary{cursor:pointer;font-size:.88rem;display:flex;flex-wrap:wrap;align-items:center;gap:.2rem .8rem;padding:.1rem 0}
details.sql summary::before{content:'▸';color:#5a6474}details.sql[open] summary::before{content:'▾'}
details.sql summary::-webkit-details-marker{display:none}details.sql summary{list-style:none}
.qname{flex:0 1 22rem;min-width:0}.qbar{flex:0 1 320px;min-width:80px}.qbytes{width:6rem;text-align:right}.qms{color:#6b7280;width:5rem}
table.cost{font-size:.88rem}table.cost th:nth-child(1){width:17%}table.cost th:nth-child(3){width:27%}
table.cost th:last-child{width:10%}table.cost.prices th:nth-child(2){width:14%}table.cost.prices th:nth-child(3){width:22%}
table.cost.prices th:nth-child(4){width:auto}
td.num{text-align:right;white-space:nowrap}tr.unpriced td{color:#6b7280}
@media (max-width:800px){
 .page{padding:.8rem}.cols{grid-template-columns:1fr}
 table,thead,tbody,tr,td,th{display:block;width:auto!important}thead{display:none}
 tr{border:1px solid #e1e5eb;border-radius:6px;margin:.4rem 0}td{border:none;border-top:1px solid #eef0f3}
 td::before{content:attr(data-label);display:block;font-size:.75rem;color:#5a6474;text-transform:uppercase}
 td.num{text-align:left}
}
`;

export function renderHtml(report: LabReport): string {
  const charts = report.charts ?? [];
  const cards = report.experiments.map((e) => experimentCard(e, charts)).join('\n');
  const pictures = charts.map((c) => chartFigure(c, report)).join('\n');
  const s = report.scale;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>loglake lab report</title>
<style>${CSS}</style></head><body><div class="page">
<header>
<h1>loglake lab report</h1>
<p class="meta">Target <b>${esc(report.target)}</b> · ${esc(report.startedAt)} → ${esc(report.finishedAt)} · wall time ${(report.wallMs / 1000).toFixed(1)} s ·
${formatCount(s.records)} records over ${s.hours} h, ${s.bursts} bursts of ${s.burstSize}, seed ${s.seed}</p>
${partialNotice(report)}
${verdictSection(report)}
${costSummary(report)}
<nav class="sections"><a href="#pictures">Pictures</a><a href="#timeline">Snapshot timeline</a><a href="#experiments">Experiments</a><a href="#queries">Bytes read per query</a><a href="#cost">Cost on AWS</a></nav>
<details class="banner" open><summary>Where it ran (the banner)</summary><ul>${report.banner.map((l) => `<li><code>${esc(l)}</code></li>`).join('')}</ul></details>
</header>
<main>
<h2 id="pictures">Pictures</h2>
<div class="grid">
${pictures}
</div>
<h2 id="timeline">Snapshot timeline</h2>
<p>Every commit of every table, on a time axis (hover a dot for its snapshot); above the lanes, the experiments that made them.</p>
${timelineSvg(report.timeline, report.experiments)}
<h2 id="experiments">Experiments</h2>
${cards}
<h2 id="queries">Bytes read, query by query</h2>
<p>Every query the experiments ran, grouped by experiment, its bytes read on one scale for the whole run; open a query for its SQL.</p>
${querySection(report)}
<h2 id="cost">What it would cost on AWS</h2>
${costSection(report)}
</main>
<script type="application/json" id="report-data">${JSON.stringify(report).replace(/</g, '\\u003c')}</script>
</div></body></html>
`;
}
