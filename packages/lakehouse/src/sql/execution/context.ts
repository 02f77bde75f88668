// What every executor of a statement shares: the engine's connection, the catalogs names resolve through, the
// query context and limits of this run, and the few steps all of them take (bind, analyze and write a query,
// check the cutoff and cancellation, shape a result). Executors import from here and from the layers below,
// never from the engine that dispatches to them.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { QueryContext, StatementResult } from '../../contract';
import { boundColumns, StatementBinder } from '../analyzer/binder';
import { ExpressionTypes } from '../analyzer/expression-types';
import type { PositionIndex } from '../analyzer/positions';
import type { SqlType } from '../analyzer/types';
import type { CatalogServices } from '../catalog/catalog';
import type { CatalogRegistry } from '../catalog/registry';
import { GenericUserError, InvalidArgumentsError, ScanCutoffError, SqlError } from '../errors';
import type { Expr, Query } from '../tree/ast';
import { DuckdbWriter } from '../translation/duckdb-writer';
import type { ExternalStorage } from './external-storage';

export interface ExecutionContext {
  /** The engine's DuckDB connection (one per warehouse; statements run one at a time on it). */
  connection: DuckDBConnection;
  catalogs: CatalogRegistry;
  services: CatalogServices;
  session: QueryContext;
  bytesScannedCutoff?: number;
  externalStorage: ExternalStorage;
  signal?: AbortSignal;
  /** Where the statement's names are, for errors found while running it. */
  positions: PositionIndex;
}

/** Stops a statement that was cancelled (StopQueryExecution) before it commits anything. */
export function throwIfCancelled(ctx: ExecutionContext): void {
  if (ctx.signal?.aborted) throw new GenericUserError('USER_CANCELLED', 'Query was cancelled by user');
}

/** Athena cancels a query whose scan exceeds the workgroup's per-query cutoff. */
export function enforceCutoff(bytes: number, cutoff: number | undefined): void {
  if (cutoff !== undefined && bytes > cutoff) throw new ScanCutoffError(bytes, cutoff);
}

/** A binder whose version clauses evaluate their constants on the engine's connection. */
export function newBinder(ctx: ExecutionContext): StatementBinder {
  return new StatementBinder({
    catalogs: ctx.catalogs,
    session: ctx.session,
    services: ctx.services,
    evaluate: async (expr: Expr, as) => {
      const value = new DuckdbWriter({ relationOf: () => undefined }).expr(expr);
      const sql =
        as === 'snapshot-id' ? `CAST(${value} AS BIGINT)` : `epoch_ms(CAST(${value} AS TIMESTAMPTZ))`;
      try {
        const reader = await ctx.connection.runAndReadAll(`SELECT ${sql}`);
        return Number(reader.getRowsJS()[0]?.[0]);
      } catch (error) {
        if (error instanceof SqlError) throw error;
        throw new InvalidArgumentsError(
          `Cannot evaluate version clause: ${(error as Error).message}`,
          expr.pos,
          sql,
        );
      }
    },
  });
}

export interface WrittenQuery {
  sql: string;
  /** The analyzer's types of the query's output columns (undefined where it could not tell). */
  outputTypes: (SqlType | undefined)[];
}

/** Analyzes a bound query (Trino's type rules) and writes it as DuckDB SQL over the bound relations. */
export function writeQuery(binder: StatementBinder, query: Query): WrittenQuery {
  const types = new ExpressionTypes(boundColumns(binder));
  const outputTypes = types.query(query);
  return { sql: new DuckdbWriter(binder, types).query(query), outputTypes };
}

export const done = (statementType: StatementResult['statementType']): StatementResult => ({
  statementType,
  columns: [],
  rows: [],
  stats: { dataScannedInBytes: 0, engineExecutionTimeInMillis: 0 },
});

export function rowsResult(count: number, bytes: number): StatementResult {
  return {
    statementType: 'DML',
    columns: [{ name: 'rows', type: 'bigint' }],
    rows: [[String(count)]],
    stats: { dataScannedInBytes: bytes, engineExecutionTimeInMillis: 0, rowsAffected: count },
  };
}

/** A utility statement's result: named varchar columns and rows of text. */
export function textResult(columns: string[], rows: (string | null)[][]): StatementResult {
  return { ...done('UTILITY'), columns: columns.map((name) => ({ name, type: 'varchar' })), rows };
}
