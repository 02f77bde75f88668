// The verifier's table: what is left, by kind; plus kinds that could not be checked.
import type { VerifyResult } from './verify';

function table(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export function formatReport(result: VerifyResult, label: string): string {
  if (result.clean)
    return `Nothing left of ${label} (checked after ${result.attempts} attempt${result.attempts === 1 ? '' : 's'}).`;
  const parts: string[] = [];
  if (result.leftovers.length > 0) {
    parts.push(
      `${result.leftovers.length} leftover${result.leftovers.length === 1 ? '' : 's'} of ${label} after ${result.attempts} attempt(s):`,
    );
    parts.push(
      table(
        ['KIND', 'NAME', 'DETAIL'],
        result.leftovers.map((l) => [l.kind, l.name, l.detail ?? '']),
      ),
    );
  }
  if (result.unverified.length > 0) {
    parts.push(`Could not check ${result.unverified.length} kind(s) (fix access, then run again):`);
    parts.push(
      table(
        ['KIND', 'REASON'],
        result.unverified.map((u) => [u.kind, u.reason]),
      ),
    );
  }
  if (result.leftovers.length > 0)
    parts.push('Delete what is listed (or run the destroy again), then re-run the check.');
  return parts.join('\n');
}
