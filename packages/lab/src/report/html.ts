// A self-contained HTML report (inline CSS and SVG, no scripts or network): the experiment table with the article's
// figures beside this run's (rule, verdict, why), the snapshot timeline by operation, and bar charts of bytes.
import type { Comparison } from '../article';
import { formatBytes, formatCount } from './format';
import type { BytesBar, ExperimentReport, LabReport, TimelineEvent } from './lab-report';
import { rowVerdict } from './verdict';

const esc = (s: unknown) =>
  String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

const OPERATION_COLOURS: Record<string, string> = {
  append: '#2f7ed8',
  overwrite: '#e4572e',
  delete: '#a23b72',
  replace: '#29a36a',
};

export function timelineSvg(events: TimelineEvent[]): string {
  if (events.length === 0) return '<p>No snapshots.</p>';
  const tables = [...new Set(events.map((e) => e.table))];
  const times = events.map((e) => Date.parse(e.committedAt));
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const width = 900;
  const left = 220;
  const lane = 46;
  const height = tables.length * lane + 50;
  const x = (t: number) => left + (t1 === t0 ? 0 : ((t - t0) / (t1 - t0)) * (width - left - 30));
  const parts: string[] = [];
  tables.forEach((table, i) => {
    const y = 30 + i * lane;
    parts.push(`<text x="8" y="${y + 5}" class="lane">${esc(table)}</text>`);
    parts.push(`<line x1="${left}" y1="${y}" x2="${width - 20}" y2="${y}" stroke="#ccc"/>`);
  });
  for (const e of events) {
    const y = 30 + tables.indexOf(e.table) * lane;
    const colour = OPERATION_COLOURS[e.operation] ?? '#777';
    parts.push(
      `<circle class="snap" cx="${x(Date.parse(e.committedAt)).toFixed(1)}" cy="${y}" r="6" fill="${colour}">` +
        `<title>${esc(e.table)} ${esc(e.operation)} ${esc(e.snapshotId)} at ${esc(e.committedAt)}, +${formatCount(e.addedRecords)} rows</title></circle>`,
    );
  }
  const ops = [...new Set(events.map((e) => e.operation))];
  ops.forEach((op, i) => {
    const lx = left + i * 120;
    parts.push(`<circle cx="${lx}" cy="${height - 12}" r="6" fill="${OPERATION_COLOURS[op] ?? '#777'}"/>`);
    parts.push(
      `<text x="${lx + 10}" y="${height - 8}">${esc(op)} ×${events.filter((e) => e.operation === op).length}</text>`,
    );
  });
  return `<svg class="timeline" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="snapshot timeline">${parts.join('')}</svg>`;
}

export function barChartSvg(bars: BytesBar[]): string {
  const width = 700;
  const left = 260;
  const row = 34;
  const max = Math.max(1, ...bars.map((b) => b.bytes));
  const height = bars.length * row + 10;
  const parts = bars.map((b, i) => {
    const y = 8 + i * row;
    const w = Math.max(b.bytes > 0 ? 2 : 0, ((width - left - 120) * b.bytes) / max);
    return (
      `<text x="8" y="${y + 17}">${esc(b.label)}</text>` +
      `<rect class="bar" x="${left}" y="${y}" width="${w.toFixed(1)}" height="24" fill="#2f7ed8"/>` +
      `<text x="${left + w + 8}" y="${y + 17}">${esc(formatBytes(b.bytes))}</text>`
    );
  });
  return `<svg class="bars" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img">${parts.join('')}</svg>`;
}

/** One figure: the article's and ours side by side, the rule, the verdict and why (or the lab's choice). */
function figureRow(c: Comparison): string {
  const note = [
    c.why ? `<div class="why">Why: ${esc(c.why)}</div>` : '',
    c.labChoice ? `<div class="choice">Lab's choice: ${esc(c.labChoice)}</div>` : '',
  ].join('');
  return (
    `<tr class="figure ${c.verdict}"><td>${esc(c.figure)}</td><td class="seed">${esc(c.article)}</td>` +
    `<td>${esc(c.ours)}</td><td class="rule">${esc(c.rule)}</td><td class="verdict">${esc(c.verdict)}${note}</td></tr>`
  );
}

/** An experiment's itemized outcomes under its result (e.g. each refusal with its error). */
function detailList(details: ExperimentReport['details']): string {
  if (!details || details.length === 0) return '';
  const items = details.map((d) => `<li><b>${esc(d.label)}</b>: ${esc(d.text)}</li>`).join('');
  return `<ul class="details">${items}</ul>`;
}

export function renderHtml(report: LabReport): string {
  const rows = report.experiments
    .map((e) => {
      const v = rowVerdict(e);
      const checks = Object.entries(e.checks)
        .map(([k, ok]) => `<span class="check ${ok ? 'ok' : 'bad'}">${ok ? '✓' : '✗'} ${esc(k)}</span>`)
        .join(' ');
      const figures =
        e.comparisons.length > 0
          ? `<table class="figures"><thead><tr><th>Figure</th><th>The article</th><th>This run</th><th>Rule</th><th>Verdict</th></tr></thead><tbody>${e.comparisons.map(figureRow).join('')}</tbody></table>`
          : '<span class="nofigure">the article gives no figure</span>';
      return (
        `<tr class="${v.status}"><td>${esc(e.title)}</td><td class="seed">${esc(e.article)}</td>` +
        `<td>${esc(e.error ? `FAILED: ${e.error}` : e.skipped !== undefined && !e.result ? `not run: ${e.skipped}` : e.result)}${detailList(e.details)}</td><td class="summary">${esc(v.summary)}</td>` +
        `<td>${figures}</td><td>${checks}</td></tr>`
      );
    })
    .join('\n');
  const charts = report.charts.map((c) => `<h3>${esc(c.title)}</h3>${barChartSvg(c.bars)}`).join('\n');
  const queries = report.queries
    .map(
      (q) =>
        `<tr><td>${esc(q.experiment)}</td><td>${esc(q.query)}</td><td class="num">${esc(formatCount(q.dataScannedInBytes))}</td><td class="num">${q.ms}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>loglake lab report</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#222;max-width:1600px}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ddd;padding:.35rem .6rem;text-align:left;vertical-align:top}
th{background:#f4f4f4}tr.differs td:first-child{border-left:4px solid #e4a11b}tr.error td:first-child{border-left:4px solid #d33}
tr.same td:first-child{border-left:4px solid #29a36a}tr.no-figure td:first-child{border-left:4px solid #bbb}
.seed{color:#666;font-style:italic}.num{text-align:right}table.figures{margin:0;font-size:12px}
tr.figure.differs td.verdict{color:#b36b00;font-weight:600}tr.figure.same td.verdict{color:#29a36a}
.why,.choice{font-weight:normal;color:#444;margin-top:.2rem}.rule{color:#555}.nofigure{color:#888}
ul.details{margin:.4rem 0 0;padding-left:1.2rem;font-size:12px;color:#444}
.check{white-space:nowrap;font-size:12px}.check.ok{color:#29a36a}.check.bad{color:#d33}svg text{font:12px system-ui,sans-serif}
code{background:#f4f4f4;padding:0 .2rem}
</style></head><body>
<h1>loglake lab report</h1>
<p>Target <b>${esc(report.target)}</b> · ${esc(report.startedAt)} → ${esc(report.finishedAt)} · wall time ${(report.wallMs / 1000).toFixed(1)} s ·
${formatCount(report.scale.records)} records over ${report.scale.hours} h, ${report.scale.bursts} bursts of ${report.scale.burstSize}, seed ${report.scale.seed}</p>
<ul>${report.banner.map((l) => `<li><code>${esc(l)}</code></li>`).join('')}</ul>
<h2>Experiments</h2>
<table id="experiments"><thead><tr><th>Experiment</th><th>The article</th><th>This run (measured)</th><th>Verdict</th><th>The article's figures beside this run's</th><th>The lab's checks</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<h2>Snapshot timeline by operation</h2>
${timelineSvg(report.timeline)}
<h2>Bytes scanned</h2>
${charts}
<h2>Every query</h2>
<table id="queries"><thead><tr><th>Experiment</th><th>Query</th><th>Bytes scanned</th><th>ms</th></tr></thead><tbody>
${queries}
</tbody></table>
<script type="application/json" id="report-data">${JSON.stringify(report).replace(/</g, '\\u003c')}</script>
</body></html>
`;
}
