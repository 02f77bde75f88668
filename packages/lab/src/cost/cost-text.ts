// The cost estimate for the terminal: one line per service for this run, then the totals per day and per month if
// the lab were left running, and what was not estimated (and why).
import type { CostEstimate, CostLine } from './estimate';

/** Dollars with two significant figures below a cent, cents above; tiny amounts as "<$0.000001". */
export function formatCostUsd(usd: number | null): string {
  if (usd === null) return 'n/a';
  if (usd === 0) return '$0';
  if (usd < 0.000001) return '<$0.000001';
  if (usd < 1) return `$${usd.toFixed(Math.max(2, 1 - Math.floor(Math.log10(usd))))}`;
  return `$${usd.toFixed(2)}`;
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
    `  ${formatCostUsd(l.usd).padStart(10)}  ${l.service.padEnd(width)}  ${l.usage}${l.usd === null ? ' (not estimated)' : ''}`,
    // A priced line's caveat (an upper bound, what AWS may bill beyond what was measured) under it.
    ...(l.usd !== null && l.note ? [`  ${''.padStart(10)}  ${''.padEnd(width)}  ↳ ${l.note}`] : []),
  ]);
  const unpriced = [...estimate.run, ...estimate.perDay].filter((l) => l.usd === null);
  const notFound = [...new Set(unpriced.filter((l) => l.prices.length > 0).map((l) => l.service))];
  const notMeasured = [...new Set(unpriced.filter((l) => l.prices.length === 0).map((l) => l.service))];
  const t = estimate.totals;
  return [
    `What this run would cost on AWS (${estimate.region}, list prices read on ${estimate.pricesAsOf}, no free tier):`,
    ...rows,
    `  ${formatCostUsd(t.run).padStart(10)}  this run in all`,
    `Left running (nothing sent, the daily snapshot once a day): ${formatCostUsd(t.perDay)} a day, ` +
      `${formatCostUsd(t.perMonth)} a month (mostly ${largest(estimate.perMonth, 3)})`,
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
