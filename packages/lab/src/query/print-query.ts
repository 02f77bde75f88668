// Prints a query's results as a table with what it cost to read.
import { athenaCostUsd, formatBytes, formatCount, formatUsd, renderTable, wrapText } from '../report/format';
import type { QueryResult } from '@loglake/athena-sql';

/** The result table, its row count and what reading it cost; fitted to `width` columns when given. */
export function describeResult(result: QueryResult, width?: number): string {
  const lines: string[] = [];
  if (result.columns.length > 0) {
    lines.push(
      renderTable(
        result.columns.map((c) => c.name),
        result.rows,
        60,
        width,
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
  const footer =
    `data scanned: ${formatBytes(result.dataScannedInBytes)} (${formatCount(result.dataScannedInBytes)} bytes) · ` +
    `cost at $5/TB: ${formatUsd(usd)}${billedBytes > 0 ? ` (billed as ${formatBytes(billedBytes)})` : ''} · ` +
    `engine ${result.engineExecutionTimeInMillis} ms · query ${result.queryExecutionId}`;
  lines.push(...(width === undefined ? [footer] : wrapText(footer, width)));
  return lines.join('\n');
}
