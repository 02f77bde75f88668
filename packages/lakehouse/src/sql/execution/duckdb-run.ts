// Runs front-end SQL on the warehouse connection with Trino's arithmetic (integer / integer is integer
// division); DuckDB's errors become Athena's (duckdb-errors.ts).
import type { DuckDBConnection, DuckDBResultReader } from '@duckdb/node-api';
import { sqlIdent } from '../../duckdb/duckdb-session';
import type { PositionIndex } from '../analyzer/positions';
import { mapDuckdbError } from './duckdb-errors';
import { registerSqlFunctions } from './sql-functions';

/** Runs one statement with Trino's integer division; returns the materialized result. */
export async function runTrinoSql(
  connection: DuckDBConnection,
  sql: string,
  positions?: PositionIndex,
): Promise<DuckDBResultReader> {
  registerSqlFunctions(connection);
  await connection.run('SET integer_division = true');
  try {
    return await connection.runAndReadAll(sql);
  } catch (error) {
    throw mapDuckdbError(error, positions);
  } finally {
    await connection.run('RESET integer_division');
  }
}

let temporaryCounter = 0;

/**
 * Runs `use` with a fresh name for a statement's temporary table (one per statement: DML computes its rows there
 * so the commit sees exactly what was counted); the table is dropped afterwards, whatever happens.
 */
export async function withTemporaryTable<T>(
  connection: DuckDBConnection,
  purpose: string,
  use: (name: string) => Promise<T>,
): Promise<T> {
  temporaryCounter += 1;
  const name = `__loglake_${purpose}_${process.pid}_${temporaryCounter}`;
  try {
    return await use(name);
  } finally {
    await connection.run(`DROP TABLE IF EXISTS ${sqlIdent(name)}`);
  }
}

/** Materializes front-end SQL as temporary table `name`; returns its columns (name and DuckDB type). */
export async function createTemporaryTable(
  connection: DuckDBConnection,
  name: string,
  sql: string,
  positions: PositionIndex,
): Promise<{ name: string; type: string }[]> {
  await runTrinoSql(connection, `CREATE TEMP TABLE ${sqlIdent(name)} AS ${sql}`, positions);
  const described = (await connection.runAndReadAll(`DESCRIBE ${sqlIdent(name)}`)).getRowObjectsJS();
  return described.map((r) => ({ name: String(r['column_name']), type: String(r['column_type']) }));
}

export async function countRows(connection: DuckDBConnection, table: string): Promise<number> {
  const row = (await connection.runAndReadAll(`SELECT count(*) FROM ${sqlIdent(table)}`)).getRowsJS()[0];
  return Number(row?.[0] ?? 0);
}
