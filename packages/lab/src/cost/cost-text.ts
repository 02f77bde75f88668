// The cost estimate for the terminal: one line per service for this run, then the totals per day and per month if
// the lab were left running, and what was not estimated (and why).
import type { CostEstimate, CostLine } from './estimate';

/** Dollars with two significant figures below a cent, cents above; tiny amounts as "<$0.000001". */
export function formatCostUsd(usd: number | null): string {
  // Unknown is never $0; a line says which kind of unknown (lineCostText).
  if (usd === null) return 'unknown';
  if (usd === 0) return '$0';
  if (usd < 0.000001) return '<$0.000001';
  if (usd < 1) return `$${usd.toFixed(Math.max(2, 1 - Math.floor(Math.log10(usd))))}`;
  return `$${usd.toFixed(2)}`;
}

/** A line's dollars, or why there are none: "not measured" / "not estimated" (reports from before say "unknown"). */
export function lineCostText(l: Pick<CostLine, 'usd' | 'unknown' | 'note'>): string {
  if (l.usd !== null) return formatCostUsd(l.usd);
  if (l.unknown) return l.unknown;
  if (l.note?.startsWith('not measured')) return 'not measured';
  if (l.note?.startsWith('not estimated')) return 'not estimated';
  return formatCostUsd(null);
}

/** A total's dollars and what it leaves out: "$0.12 (excluding Lambda, Athena: unknown)". */
export function totalText(usd: number, excluded: readonly string[] | undefined): string {
  return excluded && excluded.length > 0
    ? `${formatCostUsd(usd)} (excluding ${excluded.join(', ')}: unknown)`
    : formatCostUsd(usd);
}

const largest = (lines: CostLine[], n: number) =>
  [...lines]
    .filter((l) => (l.usd ?? 0) > 0)
    .sort((a, b) => (b.usd ?? 0) - (a.usd ?? 0))
    .slice(0, n)
    .map((l) => `${l.service} ${formatCostUsd(l.usd)}`)
    .join(', ');

export function costText(estimate: CostEstimate): string {
  const width = Math.max(...estimate.run.map((l) => l.service.length));
  const rows = estimate.run.flatMap((l) => [
    `  ${lineCostText(l).padStart(13)}  ${l.service.padEnd(width)}  ${l.usage}`,
    // A priced line's caveat (how rough its figure is, what AWS may bill beyond what was measured) under it.
    ...(l.usd !== null && l.note ? [`  ${''.padStart(13)}  ${''.padEnd(width)}  ↳ ${l.note}`] : []),
  ]);
  const unpriced = [...estimate.run, ...estimate.perDay].filter((l) => l.usd === null);
  const services = (kind: string) => [
    ...new Set(unpriced.filter((l) => lineCostText(l) === kind).map((l) => l.service)),
  ];
  const notFound = services('not estimated');
  const notMeasured = services('not measured');
  const t = estimate.totals;
  const left = (names: readonly string[] | undefined) =>
    names && names.length > 0 ? `, excluding the unknown: ${names.join(', ')}` : '';
  return [
    `What this run would cost on AWS (${estimate.region}, list prices read on ${estimate.pricesAsOf}, no free tier):`,
    ...rows,
    `  ${formatCostUsd(t.run).padStart(13)}  this run in all${left(t.excluded?.run)}`,
    `Left running (nothing sent, the daily snapshot once a day): ${formatCostUsd(t.perDay)} a day, ` +
      `${formatCostUsd(t.perMonth)} a month (mostly ${largest(estimate.perMonth, 3)})` +
      left(t.excluded?.perDay),
    ...(notFound.length > 0
      ? [
          `  not in the totals, no price found (the HTML report's price table says where each was looked for): ${notFound.join(', ')}`,
        ]
      : []),
    ...(notMeasured.length > 0
      ? [`  not in the totals, not measured in this run: ${notMeasured.join(', ')}`]
      : []),
  ].join('\n');
}
