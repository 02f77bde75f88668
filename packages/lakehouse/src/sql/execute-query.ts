// SELECT (and VALUES/TABLE/WITH): bind the scans, enforce the workgroup cutoff on the planned bytes, answer a plain
// `count(*)` from metadata when the engine can, otherwise run the DuckDB SQL and encode rows as Athena does.
import type { DuckDBResultReader } from '@duckdb/node-api';
import type { StatementResult } from '../contract';
import type { Query, Statement } from './ast';
import { StatementBinder, type BindEnvironment } from './binder';
import { outputName } from './duckdb-writer';
import { runTrinoSql, type PositionIndex } from './duckdb-run';
import { GenericUserError, ScanCutoffError } from './errors';
import { athenaTypeName, formatValue } from './result-format';

export interface ExecutionEnvironment extends BindEnvironment {
  bytesScannedCutoff?: number;
  signal?: AbortSignal;
}

/** Stops a statement that was cancelled (StopQueryExecution) before it commits anything. */
export function throwIfCancelled(env: ExecutionEnvironment): void {
  if (env.signal?.aborted) throw new GenericUserError('USER_CANCELLED', 'Query was cancelled by user');
}

/** Athena cancels a query whose scan exceeds the workgroup's per-query cutoff. */
export function enforceCutoff(bytes: number, cutoff: number | undefined): void {
  if (cutoff !== undefined && bytes > cutoff) throw new ScanCutoffError(bytes, cutoff);
}

/** `SELECT count(*) [AS c] FROM t [FOR ... AS OF ...]` with nothing else: the output column name, else null. */
export function metadataCountColumn(query: Query): string | null {
  const body = query.body;
  if (query.with || query.orderBy || query.offset || body.k !== 'select') return null;
  if (
    body.distinct ||
    body.where ||
    body.groupBy ||
    body.having ||
    body.items.length !== 1 ||
    body.from.length !== 1
  )
    return null;
  const from = body.from[0];
  if (from?.k !== 'table' || from.columnAliases) return null;
  if (from.name.parts.some((p) => p.name.includes('$'))) return null;
  const item = body.items[0];
  const e = item?.expr;
  if (
    e?.k !== 'func' ||
    e.name !== 'count' ||
    e.distinct ||
    e.filter ||
    e.over ||
    e.args.length !== 1 ||
    e.args[0]?.k !== 'star'
  )
    return null;
  return outputName(e, item?.alias?.name, 0);
}

export function toStatementResult(
  reader: DuckDBResultReader,
  statementType: StatementResult['statementType'],
  bytes: number,
): StatementResult {
  const types = reader.columnTypes();
  const columns = reader.columnNames().map((name, i) => ({ name, type: athenaTypeName(types[i]!) }));
  const rows = reader.getRows().map((row) => row.map((value, i) => formatValue(value, types[i]!)));
  return {
    statementType,
    columns,
    rows,
    stats: { dataScannedInBytes: bytes, engineExecutionTimeInMillis: 0 },
  };
}

export async function executeQuery(
  env: ExecutionEnvironment,
  statement: Extract<Statement, { k: 'query' }>,
  positions: PositionIndex,
): Promise<StatementResult> {
  const binder = new StatementBinder(env);
  const sql = await binder.bindQuery(statement.query);
  const countColumn = metadataCountColumn(statement.query);
  const plan = binder.scans[0]?.plan;
  if (countColumn && plan && plan.metadataRowCount !== null) {
    return {
      statementType: 'DML',
      columns: [{ name: countColumn, type: 'bigint' }],
      rows: [[String(plan.metadataRowCount)]],
      stats: { dataScannedInBytes: 0, engineExecutionTimeInMillis: 0 },
    };
  }
  enforceCutoff(binder.bytesScanned, env.bytesScannedCutoff);
  const reader = await runTrinoSql(env.connection, sql, positions);
  return toStatementResult(reader, 'DML', binder.bytesScanned);
}
