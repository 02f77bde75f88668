// SELECT (and VALUES/TABLE/WITH): bind the scans, enforce the workgroup cutoff on the planned bytes, answer a plain
// `count(*)` from metadata when the engine can, otherwise run the DuckDB SQL and encode rows as Athena does.
import type { StatementResult } from '../../contract';
import { outputName, type Query, type Statement } from '../tree/ast';
import { enforceCutoff, newBinder, writeQuery, type ExecutionContext } from './context';
import { runTrinoSql } from './duckdb-run';
import { toStatementResult } from './typed-result';

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

export async function executeQuery(
  ctx: ExecutionContext,
  statement: Extract<Statement, { k: 'query' }>,
): Promise<StatementResult> {
  const binder = newBinder(ctx);
  await binder.bindQuery(statement.query);
  const { sql, outputTypes } = writeQuery(binder, statement.query);
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
  enforceCutoff(binder.bytesScanned, ctx.bytesScannedCutoff);
  const reader = await runTrinoSql(ctx.connection, sql, ctx.positions);
  return toStatementResult(reader, 'DML', binder.bytesScanned, outputTypes);
}
