// Runs front-end SQL on the warehouse connection with Trino's arithmetic (integer / integer is integer
// division) and turns DuckDB's errors into Athena's error names, positioned at the construct they name.
import type { DuckDBConnection, DuckDBResultReader } from '@duckdb/node-api';
import { sqlIdent } from '../duckdb/duckdb-session';
import type { Statement } from './ast';
import { walkExpr, walkQuery, type AstVisitor } from './ast-walk';
import {
  ColumnNotFoundError,
  GenericUserError,
  InternalEngineError,
  SqlError,
  type SourcePosition,
} from './errors';

/** Positions of named columns and functions in a statement, for error messages. */
export class PositionIndex {
  private readonly columns = new Map<string, SourcePosition>();
  private readonly functions = new Map<string, SourcePosition>();

  constructor(statement: Statement) {
    const visitor: AstVisitor = {
      expr: (e) => {
        if (e.k === 'column') {
          const name = (e.parts[e.parts.length - 1] as { name: string }).name;
          if (!this.columns.has(name)) this.columns.set(name, e.pos);
          const full = e.parts.map((p) => p.name).join('.');
          if (!this.columns.has(full)) this.columns.set(full, e.pos);
        }
        if (e.k === 'func' && !this.functions.has(e.name)) this.functions.set(e.name, e.pos);
      },
    };
    const walkAny = (value: unknown): void => {
      // Statements hold queries, relations and expressions in different fields: walk whatever is there.
      if (!value || typeof value !== 'object') return;
      if (Array.isArray(value)) return value.forEach(walkAny);
      const node = value as { k?: string; body?: unknown };
      if (node.body && 'pos' in node && !('k' in node))
        return walkQuery(value as Parameters<typeof walkQuery>[0], visitor);
      if (typeof node.k === 'string' && EXPR_KINDS.has(node.k))
        return walkExpr(value as Parameters<typeof walkExpr>[0], visitor);
      Object.values(value).forEach(walkAny);
    };
    walkAny(statement);
  }

  column(name: string): SourcePosition | undefined {
    return this.columns.get(name.toLowerCase());
  }

  /** The first column reference qualified by `qualifier` (`z.a` for `z`), with its position. */
  qualified(qualifier: string): { name: string; pos: SourcePosition } | undefined {
    const prefix = `${qualifier.toLowerCase()}.`;
    for (const [name, pos] of this.columns) if (name.startsWith(prefix)) return { name, pos };
    return undefined;
  }

  func(name: string): SourcePosition | undefined {
    return this.functions.get(name.toLowerCase());
  }
}

const EXPR_KINDS = new Set([
  'string',
  'number',
  'bool',
  'null',
  'typed',
  'interval',
  'column',
  'star',
  'func',
  'binary',
  'unary',
  'between',
  'in-list',
  'in-query',
  'like',
  'is-null',
  'is-distinct',
  'case',
  'cast',
  'extract',
  'subquery',
  'exists',
  'quantified',
  'array',
  'row',
  'subscript',
  'dereference',
  'lambda',
  'at-time-zone',
  'current',
  'grouping-sets',
]);

/** The engine's own failures (errors.ts of the table layer), by class name. */
const ENGINE_ERRORS: Record<string, { errorName: string; category: 1 | 2; type: number }> = {
  CommitConflictError: { errorName: 'ICEBERG_COMMIT_ERROR', category: 1, type: 233 },
  SchemaMismatchError: { errorName: 'TYPE_MISMATCH', category: 2, type: 1000 },
  InvalidSchemaError: { errorName: 'INVALID_TABLE_PROPERTY', category: 2, type: 1000 },
  InvalidTransformError: { errorName: 'INVALID_TABLE_PROPERTY', category: 2, type: 1000 },
  InvalidNameError: { errorName: 'INVALID_TABLE_PROPERTY', category: 2, type: 1000 },
  NoSuchSnapshotError: { errorName: 'INVALID_ARGUMENTS', category: 2, type: 1000 },
  NoSuchRefError: { errorName: 'INVALID_ARGUMENTS', category: 2, type: 1000 },
  MetadataTableError: { errorName: 'INVALID_ARGUMENTS', category: 2, type: 1000 },
  CorruptTableError: { errorName: 'ICEBERG_INVALID_METADATA', category: 1, type: 233 },
};

export function mapDuckdbError(error: unknown, positions?: PositionIndex): SqlError {
  if (error instanceof SqlError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const engineError = error instanceof Error ? ENGINE_ERRORS[error.name] : undefined;
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
  const firstLine = (message.split('\n')[0] ?? message).replace(/^[A-Za-z ]+ Error: /, '');
  if (/Division by zero/.test(firstLine))
    return new GenericUserError('DIVISION_BY_ZERO', 'Division by zero', { cause: error });
  if (/^Conversion Error/.test(message))
    return new GenericUserError('INVALID_CAST_ARGUMENT', firstLine, { cause: error });
  if (/No function matches|Cannot compare|Cannot mix|cannot be cast|Could not convert/i.test(message)) {
    return new GenericUserError('TYPE_MISMATCH', firstLine, { cause: error });
  }
  if (/^(Binder|Catalog) Error/.test(message))
    return new GenericUserError('GENERIC_USER_ERROR', firstLine, { cause: error });
  if (/^Invalid Input Error|^Out of Range Error/.test(message))
    return new GenericUserError('INVALID_FUNCTION_ARGUMENT', firstLine, { cause: error });
  return new InternalEngineError(`The local engine failed to run the statement: ${firstLine}`, error);
}

/** Runs one statement with Trino's integer division; returns the materialized result. */
export async function runTrinoSql(
  connection: DuckDBConnection,
  sql: string,
  positions?: PositionIndex,
): Promise<DuckDBResultReader> {
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
