// Prints a query's results as a table with what it cost to read.
import { athenaCostUsd, formatBytes, formatCount, formatUsd, renderTable } from '../report/format';
import type { QueryResult } from './athena-runner';

export function describeResult(result: QueryResult): string {
  const lines: string[] = [];
  if (result.columns.length > 0) {
    lines.push(
      renderTable(
        result.columns.map((c) => c.name),
        result.rows,
      ),
    );
    lines.push(`${formatCount(result.rows.length)} row${result.rows.length === 1 ? '' : 's'}`);
  } else {
    lines.push(
      result.rowsAffected !== undefined
        ? `${formatCount(result.rowsAffected)} rows written`
        : `OK (${result.statementType})`,
    );
  }
  const { billedBytes, usd } = athenaCostUsd(result.dataScannedInBytes);
  lines.push(
    `data scanned: ${formatBytes(result.dataScannedInBytes)} (${formatCount(result.dataScannedInBytes)} bytes) · ` +
      `cost at $5/TB: ${formatUsd(usd)}${billedBytes > 0 ? ` (billed as ${formatBytes(billedBytes)})` : ''} · ` +
      `engine ${result.engineExecutionTimeInMillis} ms · query ${result.queryExecutionId}`,
  );
  return lines.join('\n');
}
