// The one module that owns DuckDB access: opens the instance, holds the warehouse connection and runs the
// engine's statements on it (so scans' relations and callers' temp tables share one connection).
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { QueryFailedError } from '../errors';

export type SqlRow = Record<string, unknown>;

export class DuckDbSession {
  private siblingSession: Promise<DuckDbSession> | null = null;
  private siblingOpened: DuckDbSession | null = null;

  private constructor(
    private readonly instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
    /** The session that opened the instance closes it; a sibling only closes its own connection. */
    private readonly ownsInstance: boolean,
  ) {}

  static async open(): Promise<DuckDbSession> {
    const instance = await DuckDBInstance.create(':memory:');
    return DuckDbSession.connect(instance, true);
  }

  private static async connect(instance: DuckDBInstance, owns: boolean): Promise<DuckDbSession> {
    const session = new DuckDbSession(instance, await instance.connect(), owns);
    // Iceberg `timestamp` has no zone and `timestamptz` is stored as UTC: keep DuckDB's session zone in UTC
    // so casts and transforms never shift values by the host's zone.
    await session.run(`SET TimeZone='UTC'`);
    return session;
  }

  /**
   * A second connection on the same database (opened once), for statements that can run beside this one's:
   * it sees the database's tables but not this connection's TEMP tables.
   */
  sibling(): Promise<DuckDbSession> {
    this.siblingSession ??= DuckDbSession.connect(this.instance, false).then(
      (sibling) => (this.siblingOpened = sibling),
    );
    return this.siblingSession;
  }

  /** Runs a statement for its effect. */
  async run(sql: string): Promise<void> {
    try {
      await this.connection.run(sql);
    } catch (error) {
      throw queryFailed(sql, error);
    }
  }

  /** Runs a query and returns rows as JS values (BIGINT/HUGEINT → bigint, DATE/TIMESTAMP → DuckDB value objects). */
  async all(sql: string): Promise<SqlRow[]> {
    try {
      const reader = await this.connection.runAndReadAll(sql);
      return reader.getRowObjectsJS() as SqlRow[];
    } catch (error) {
      throw queryFailed(sql, error);
    }
  }

  /** Column names and DuckDB type names of a query's result, without running it to completion. */
  async describe(sql: string): Promise<{ name: string; type: string }[]> {
    const rows = await this.all(`DESCRIBE ${sql}`);
    return rows.map((row) => ({ name: String(row['column_name']), type: String(row['column_type']) }));
  }

  close(): void {
    this.siblingOpened?.close();
    this.connection.closeSync();
    if (this.ownsInstance) this.instance.closeSync();
  }
}

function queryFailed(sql: string, error: unknown): QueryFailedError {
  const reason = error instanceof Error ? error.message : String(error);
  const shown = sql.length > 300 ? `${sql.slice(0, 300)}…` : sql;
  return new QueryFailedError(`DuckDB failed: ${reason}\n  statement: ${shown}`, {
    cause: error,
    value: sql,
  });
}

/** DuckDB's own message for a failed statement (without the statement text), for errors that blame the rows. */
export function duckdbReason(error: unknown): string {
  return error instanceof QueryFailedError
    ? String((error.cause as Error)?.message ?? error.message)
    : String(error);
}

export { sqlIdent, sqlString } from './sql-text';
