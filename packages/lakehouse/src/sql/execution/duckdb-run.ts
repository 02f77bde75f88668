// Runs front-end SQL on the warehouse connection with Trino's arithmetic (integer / integer is integer
// division) and turns DuckDB's errors into Athena's error names and texts, positioned at the construct they
// name. DuckDB reports errors as text only, so this boundary is the one place that reads error messages.
import type { DuckDBConnection, DuckDBResultReader } from '@duckdb/node-api';
import { sqlIdent } from '../../duckdb/duckdb-session';
import {
  CommitConflictError,
  CorruptTableError,
  InvalidNameError,
  InvalidPropertyError,
  InvalidSchemaError,
  InvalidTransformError,
  NoSuchRefError,
  NoSuchSnapshotError,
  SchemaMismatchError,
} from '../../errors';
import { MetadataTableError } from '../../metadata-tables';
import type { PositionIndex } from '../analyzer/positions';
import { ColumnNotFoundError, GenericUserError, InternalEngineError, SqlError } from '../errors';
import { INTEGER_CAST_FAILURE } from '../translation/integer-casts';
import { registerSqlFunctions } from './sql-functions';

type EngineErrorClass = abstract new (...args: never[]) => Error;

/** The engine's own failures (errors.ts of the table layer), by class, as Athena names them. */
const ENGINE_ERRORS: [EngineErrorClass, { errorName: string; category: 1 | 2; type: number }][] = [
  [CommitConflictError, { errorName: 'ICEBERG_COMMIT_ERROR', category: 1, type: 233 }],
  [SchemaMismatchError, { errorName: 'TYPE_MISMATCH', category: 2, type: 1000 }],
  [InvalidSchemaError, { errorName: 'INVALID_TABLE_PROPERTY', category: 2, type: 1000 }],
  [InvalidTransformError, { errorName: 'INVALID_TABLE_PROPERTY', category: 2, type: 1000 }],
  [InvalidNameError, { errorName: 'INVALID_TABLE_PROPERTY', category: 2, type: 1000 }],
  [InvalidPropertyError, { errorName: 'INVALID_TABLE_PROPERTY', category: 2, type: 1000 }],
  [NoSuchSnapshotError, { errorName: 'INVALID_ARGUMENTS', category: 2, type: 1000 }],
  [NoSuchRefError, { errorName: 'INVALID_ARGUMENTS', category: 2, type: 1000 }],
  [MetadataTableError, { errorName: 'INVALID_ARGUMENTS', category: 2, type: 1000 }],
  [CorruptTableError, { errorName: 'ICEBERG_INVALID_METADATA', category: 1, type: 233 }],
];

export function mapDuckdbError(error: unknown, positions?: PositionIndex): SqlError {
  if (error instanceof SqlError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const engineError = ENGINE_ERRORS.find(([type]) => error instanceof type)?.[1];
  if (engineError)
    return new GenericUserError(engineError.errorName, message, {
      cause: error,
      errorCategory: engineError.category,
      errorType: engineError.type,
    });
  let m =
    /Referenced column "([^"]+)" not found/.exec(message) ??
    /Column "([^"]+)" referenced that exists in the SELECT clause/.exec(message) ??
    /column "([^"]+)" (?:not found|does not exist)/i.exec(message);
  if (m) {
    const column = m[1] as string;
    return new ColumnNotFoundError(column, positions?.column(column), error);
  }
  m = /Table "([^"]+)" does not have a column named "([^"]+)"/.exec(message);
  if (m) return new ColumnNotFoundError(m[2] as string, positions?.column(m[2] as string), error);
  m = /Referenced table "([^"]+)" not found/.exec(message);
  if (m) {
    const ref = positions?.qualified(m[1] as string);
    return new ColumnNotFoundError(ref?.name ?? (m[1] as string), ref?.pos, error);
  }
  m = /(?:Scalar|Aggregate|Table|Window) Function with name "?([A-Za-z0-9_]+)"? does not exist/i.exec(
    message,
  );
  if (m) {
    const name = m[1] as string;
    return new GenericUserError('FUNCTION_NOT_FOUND', `Function '${name}' not registered`, {
      position: positions?.func(name),
      value: name,
      cause: error,
    });
  }
  m = /Ambiguous reference to column name "([^"]+)"/.exec(message);
  if (m)
    return new GenericUserError('AMBIGUOUS_NAME', `Column '${m[1]}' is ambiguous`, {
      position: positions?.column(m[1] as string),
      value: m[1],
      cause: error,
    });
  m = /column "([^"]+)" must appear in the GROUP BY clause/.exec(message);
  if (m) {
    return new GenericUserError(
      'EXPRESSION_NOT_AGGREGATE',
      `'${m[1]}' must be an aggregate expression or appear in GROUP BY clause`,
      {
        position: positions?.column(m[1] as string),
        value: m[1],
        cause: error,
      },
    );
  }
  // DuckDB names its error class first (`Conversion Error: ...`); some runtimes prefix the message with `Error: `.
  const line = (message.split('\n')[0] ?? message).replace(/^Error: /, '');
  const kind = /^([A-Za-z ]+) Error: /.exec(line)?.[1] ?? '';
  const firstLine = line.replace(/^[A-Za-z ]+ Error: /, '');
  if (/Division by zero/.test(firstLine))
    return new GenericUserError('DIVISION_BY_ZERO', 'Division by zero', { cause: error });
  const cast = castFailure(firstLine);
  if (cast) return new GenericUserError(cast.errorName, cast.text, { cause: error, value: cast.value });
  if (kind === 'Conversion')
    return new GenericUserError('INVALID_CAST_ARGUMENT', firstLine, { cause: error });
  const raised = RAISED.find((pattern) => pattern.test(firstLine));
  if (raised) return new GenericUserError(errorNameOf(firstLine), firstLine, { cause: error });
  if (/No function matches|Cannot compare|Cannot mix|cannot be cast|Could not convert/i.test(message)) {
    return new GenericUserError('TYPE_MISMATCH', firstLine, { cause: error });
  }
  if (kind === 'Binder' || kind === 'Catalog')
    return new GenericUserError('GENERIC_USER_ERROR', firstLine, { cause: error });
  if (kind === 'Invalid Input' || kind === 'Out of Range')
    return new GenericUserError('INVALID_FUNCTION_ARGUMENT', firstLine, { cause: error });
  return new InternalEngineError(`The local engine failed to run the statement: ${firstLine}`, error);
}

/** DuckDB's names of the integer and floating types in its cast errors → Trino's, as its cast messages spell them. */
const CAST_TARGETS: Record<string, string> = {
  INT64: 'BIGINT',
  INT32: 'INT',
  INT16: 'SMALLINT',
  INT8: 'TINYINT',
  DOUBLE: 'DOUBLE',
  FLOAT: 'REAL',
  BOOL: 'BOOLEAN',
};
const RANGE_TARGETS: Record<string, string> = {
  INT64: 'bigint',
  INT32: 'integer',
  INT16: 'smallint',
  INT8: 'tinyint',
};

/** A failed cast in Trino's words (VarcharOperators, DateOperators, the integer casts). */
function castFailure(text: string): { errorName: string; text: string; value: string } | undefined {
  let m = /^Could not convert string '(.*)' to (\w+)(?: when casting from source column \w+)?$/.exec(text);
  if (m && CAST_TARGETS[m[2] as string])
    return {
      errorName: 'INVALID_CAST_ARGUMENT',
      text: `Cannot cast '${m[1]}' to ${CAST_TARGETS[m[2] as string]}`,
      value: m[1] as string,
    };
  m =
    /^invalid (date|timestamp) field format: "(.*)", expected format/.exec(text) ??
    /^(date|timestamp) field value out of range: "(.*)"/.exec(text);
  if (m)
    return {
      errorName: 'INVALID_CAST_ARGUMENT',
      text: `Value cannot be cast to ${m[1]}: ${m[2]}`,
      value: m[2] as string,
    };
  m =
    /^Type \w+ with value (.+) can't be cast because the value is out of range for the destination type (\w+)$/.exec(
      text,
    );
  if (m && RANGE_TARGETS[m[2] as string])
    return {
      errorName: 'NUMERIC_VALUE_OUT_OF_RANGE',
      text: `Out of range for ${RANGE_TARGETS[m[2] as string]}: ${m[1]}`,
      value: m[1] as string,
    };
  return undefined;
}

/** Texts the translated SQL itself raises (error(...) and the engine's scalar functions), in Trino's words. */
const RAISED = [
  /^Cannot cast value to IPADDRESS: /,
  INTEGER_CAST_FAILURE,
  /^Invalid CIDR: /,
  /^Key not present in map: /,
  /^Array subscript /,
  /^SQL array indices start at 1$/,
  /^Index must be greater than zero$/,
];

function errorNameOf(text: string): string {
  return /^Cannot cast/.test(text) ? 'INVALID_CAST_ARGUMENT' : 'INVALID_FUNCTION_ARGUMENT';
}

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
