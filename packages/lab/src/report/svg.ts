// The report's pictures as inline SVG, drawn by this small module rather than a charting library: the pictures are
// a few bar charts and one timeline; a library would either need a DOM or a canvas at render time (Chart.js, D3's
// selections) or bring a runtime of megabytes (Vega) for what is string building. Drawn here, the SVG is static
// (readable without JavaScript, in the page's own file), every text escaped, and a test can count its marks.
import type { LabChart } from './charts';
import { formatBytes, formatCount } from './format';
import type { ExperimentReport, TimelineEvent } from './lab-report';

export const esc = (s: unknown) =>
  String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** Colours by series index (colour-blind-safe Okabe–Ito hues). */
export const SERIES_COLOURS = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00'];

export const OPERATION_COLOURS: Record<string, string> = {
  append: '#0072b2',
  overwrite: '#d55e00',
  delete: '#cc79a7',
  replace: '#009e73',
};

const seriesColour = (series: readonly string[], name: string) =>
  SERIES_COLOURS[Math.max(0, series.indexOf(name)) % SERIES_COLOURS.length] as string;

export function formatValue(unit: LabChart['groups'][number]['unit'], n: number): string {
  if (unit === 'bytes') return formatBytes(n);
  const noun = unit === 'files' ? 'file' : 'snapshot';
  return `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Bars grouped on their own scales (e.g. files, then bytes), one colour per series, every bar labelled. */
export function groupedBarsSvg(chart: LabChart): string {
  const width = 560;
  const left = 190;
  const valueRoom = 100;
  const row = 26;
  const parts: string[] = [];
  let y = 8;
  // Legend: one swatch per series.
  let lx = left;
  for (const s of chart.series) {
    parts.push(
      `<rect class="swatch" x="${lx}" y="${y}" width="12" height="12" fill="${seriesColour(chart.series, s)}"/>` +
        `<text x="${lx + 16}" y="${y + 10}">${esc(s)}</text>`,
    );
    lx += 24 + s.length * 7;
  }
  y += 26;
  for (const group of chart.groups) {
    const max = Math.max(1, ...group.bars.map((b) => b.value));
    parts.push(`<text class="group" x="8" y="${y + 12}">${esc(group.label)}</text>`);
    y += 20;
    for (const bar of group.bars) {
      const w = ((width - left - valueRoom) * bar.value) / max;
      parts.push(
        `<text x="20" y="${y + 15}">${esc(clip(bar.label, 27))}</text>` +
          `<rect class="bar" data-series="${esc(bar.series)}" x="${left}" y="${y}" width="${w.toFixed(1)}" height="20" fill="${seriesColour(chart.series, bar.series)}">` +
          `<title>${esc(`${bar.label}: ${formatValue(group.unit, bar.value)}`)}</title></rect>` +
          `<text class="value" x="${(left + w + 6).toFixed(1)}" y="${y + 15}">${esc(formatValue(group.unit, bar.value))}</text>`,
      );
      y += row;
    }
    y += 8;
  }
  const height = y;
  return (
    `<svg class="chart bars" data-chart="${esc(chart.id)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ` +
    `role="img" aria-label="${esc(chart.title)}">${parts.join('')}</svg>`
  );
}

/** One query's bytes read as a bar on the report's common scale (inline in the query's row). */
export function queryBarSvg(bytes: number, max: number, label: string): string {
  const width = 320;
  const w = (width * bytes) / Math.max(1, max);
  return (
    `<svg class="chart qbar" viewBox="0 0 ${width} 14" width="${width}" height="14" role="img" aria-label="${esc(label)}">` +
    `<rect class="track" x="0" y="2" width="${width}" height="10" fill="#eef1f5"/>` +
    `<rect class="bar" data-series="bytes read" x="0" y="2" width="${w.toFixed(1)}" height="10" fill="${SERIES_COLOURS[0]}"/></svg>`
  );
}

const TICK_STEPS_S = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21_600, 43_200, 86_400];

/** Tick instants every step (a round number of seconds), at most ~`target` of them across [t0, t1]. */
export function timeTicks(t0: number, t1: number, target = 8): number[] {
  const span = Math.max(1, t1 - t0) / 1000;
  const step = (TICK_STEPS_S.find((s) => span / s <= target) ?? 86_400) * 1000;
  const ticks: number[] = [];
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) ticks.push(t);
  return ticks;
}

const clock = (t: number) => new Date(t).toISOString().slice(11, 19);

/**
 * Every commit of every table on a time axis: one lane per table, a dot per snapshot coloured by operation (hollow
 * when the undo window expired it later), and above the lanes the experiments that made commits, labelled.
 */
export function timelineSvg(
  events: readonly TimelineEvent[],
  experiments: readonly Pick<ExperimentReport, 'name' | 'title' | 'startedAt' | 'durationMs'>[] = [],
): string {
  if (events.length === 0)
    return '<p class="missing">No snapshots were read in this run: no timeline to draw.</p>';
  const tables = [...new Set(events.map((e) => e.table))];
  const times = events.map((e) => Date.parse(e.committedAt));
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const width = 1000;
  const left = 230;
  const right = 24;
  const x = (t: number) =>
    left + (t1 === t0 ? (width - left - right) / 2 : ((t - t0) / (t1 - t0)) * (width - left - right));
  // The experiments that made a commit, labelled in up to four rows so their names do not overlap.
  const makers = experiments.filter((e) => e.startedAt && events.some((ev) => ev.experiment === e.name));
  const rows: number[] = [];
  const labels: string[] = [];
  const bands: string[] = [];
  const labelRows = 4;
  const top = 8 + labelRows * 16;
  const lane = 34;
  const lanesBottom = top + 10 + tables.length * lane;
  makers.forEach((e, i) => {
    const start = Math.max(t0, Date.parse(e.startedAt as string));
    const end = Math.min(t1, Date.parse(e.startedAt as string) + e.durationMs);
    const xs = x(start);
    const xe = Math.max(xs + 2, x(end));
    bands.push(
      `<rect class="band" x="${xs.toFixed(1)}" y="${top}" width="${(xe - xs).toFixed(1)}" height="${lanesBottom - top}" fill="${i % 2 ? '#eef2f7' : '#f6f8fb'}"><title>${esc(e.title)}</title></rect>`,
    );
    const text = e.name;
    const w = text.length * 6.5;
    const cx = Math.min(width - right - w / 2, Math.max(left + w / 2, (xs + xe) / 2));
    let r = rows.findIndex((end) => end < cx - w / 2 - 4);
    if (r < 0) r = rows.length < labelRows ? rows.length : rows.indexOf(Math.min(...rows));
    rows[r] = cx + w / 2;
    const ly = 8 + (r + 1) * 16 - 4;
    labels.push(
      `<g class="exp-label"><title>${esc(e.title)}</title>` +
        `<text class="exp" x="${cx.toFixed(1)}" y="${ly}" text-anchor="middle">${esc(text)}</text>` +
        `<line x1="${cx.toFixed(1)}" y1="${ly + 3}" x2="${cx.toFixed(1)}" y2="${top}" stroke="#bbb"/></g>`,
    );
  });
  const parts: string[] = [...bands, ...labels];
  tables.forEach((table, i) => {
    const y = top + 10 + i * lane + lane / 2;
    parts.push(`<text class="lane" x="8" y="${y + 4}">${esc(table)}</text>`);
    parts.push(`<line x1="${left}" y1="${y}" x2="${width - right}" y2="${y}" stroke="#ccc"/>`);
  });
  for (const e of events) {
    const y = top + 10 + tables.indexOf(e.table) * lane + lane / 2;
    const colour = OPERATION_COLOURS[e.operation] ?? '#777';
    const fill = e.expired ? '#fff' : colour;
    const what = [
      `${e.table} ${e.operation} ${e.snapshotId} at ${e.committedAt}`,
      `+${formatCount(e.addedRecords)} rows`,
      e.addedFiles !== undefined ? `+${formatCount(e.addedFiles)} files` : '',
      e.removedFiles ? `−${formatCount(e.removedFiles)} files` : '',
      e.experiment ? `by ${e.experiment}` : '',
      e.expired ? 'expired later by the undo window' : '',
    ].filter(Boolean);
    parts.push(
      `<circle class="snap${e.expired ? ' expired' : ''}" cx="${x(Date.parse(e.committedAt)).toFixed(1)}" cy="${y}" r="6" fill="${fill}" stroke="${colour}" stroke-width="2">` +
        `<title>${esc(what.join(', '))}</title></circle>`,
    );
  }
  // The time axis: ticks on a round number of seconds, in UTC.
  const axisY = lanesBottom + 6;
  parts.push(`<line x1="${left}" y1="${axisY}" x2="${width - right}" y2="${axisY}" stroke="#555"/>`);
  for (const t of timeTicks(t0, t1)) {
    const tx = x(t).toFixed(1);
    parts.push(
      `<line class="tick" x1="${tx}" y1="${axisY}" x2="${tx}" y2="${axisY + 5}" stroke="#555"/>` +
        `<text class="tick" x="${tx}" y="${axisY + 18}" text-anchor="middle">${clock(t)}</text>`,
    );
  }
  parts.push(`<text x="8" y="${axisY + 18}">UTC, ${esc(new Date(t0).toISOString().slice(0, 10))}</text>`);
  // Legend: operations with counts, and what a hollow dot means.
  const legendY = axisY + 40;
  let lx = left;
  for (const op of [...new Set(events.map((e) => e.operation))]) {
    const label = `${op} ×${events.filter((e) => e.operation === op).length}`;
    parts.push(
      `<circle cx="${lx}" cy="${legendY - 4}" r="6" fill="${OPERATION_COLOURS[op] ?? '#777'}"/>` +
        `<text x="${lx + 10}" y="${legendY}">${esc(label)}</text>`,
    );
    lx += 30 + label.length * 7;
  }
  if (events.some((e) => e.expired)) {
    parts.push(
      `<circle cx="${lx}" cy="${legendY - 4}" r="6" fill="#fff" stroke="#555" stroke-width="2"/>` +
        `<text x="${lx + 10}" y="${legendY}">expired by the undo window (${events.filter((e) => e.expired).length})</text>`,
    );
  }
  const height = legendY + 12;
  return `<svg class="timeline" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="snapshot timeline">${parts.join('')}</svg>`;
}
