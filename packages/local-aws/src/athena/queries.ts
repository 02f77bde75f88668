// Query executions: QUEUED → RUNNING → SUCCEEDED | FAILED | CANCELLED, run through the SQL front end, with
// Athena's statistics and error shapes. Executions and their results persist in the data directory
// (Athena keeps query history for 45 days; the local endpoint keeps it until the data directory is removed).
import { randomUUID } from 'node:crypto';
import type { SqlEngine, StatementResult } from '@loglake/lakehouse';
import type { JsonStore } from '../store';
import { invalidRequest } from './workgroups';

export type QueryState = 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';

export interface QueryRecord {
  id: string;
  query: string;
  workgroup: string;
  catalog?: string;
  database?: string;
  /** ResultConfiguration.OutputLocation given with the query (used when the workgroup does not enforce its own). */
  outputLocation?: string;
  statementType: 'DDL' | 'DML' | 'UTILITY';
  substatementType?: string;
  state: QueryState;
  stateChangeReason?: string;
  athenaError?: { ErrorCategory: number; ErrorType: number; Retryable: boolean; ErrorMessage: string };
  submittedAt: number;
  startedAt?: number;
  completedAt?: number;
  dataScannedInBytes: number;
  engineExecutionTimeInMillis: number;
  /** Athena's header row comes first for SELECT results (statement type DQL). */
  hasHeaderRow: boolean;
  updateCount?: number;
}

export interface StoredResult {
  columns: StatementResult['columns'];
  rows: StatementResult['rows'];
}

/** Text Athena uses when a query goes over the workgroup's per-query data limit. */
export const CUTOFF_REASON = 'Bytes scanned limit was exceeded';

const recordKey = (id: string) => `athena/queries/${id}`;
const resultKey = (id: string) => `athena/results/${id}`;

export class QueryRunner {
  private readonly running = new Map<string, AbortController>();
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly store: JsonStore,
    private readonly sqlEngine: () => Promise<SqlEngine>,
  ) {}

  start(input: {
    query: string;
    workgroup: string;
    catalog?: string;
    database?: string;
    outputLocation?: string;
    cutoff?: number;
  }): string {
    const id = randomUUID();
    const record: QueryRecord = {
      id,
      query: input.query,
      workgroup: input.workgroup,
      catalog: input.catalog,
      database: input.database,
      outputLocation: input.outputLocation,
      ...classify(input.query),
      state: 'QUEUED',
      submittedAt: Date.now(),
      dataScannedInBytes: 0,
      engineExecutionTimeInMillis: 0,
      hasHeaderRow: false,
    };
    this.save(record);
    const controller = new AbortController();
    this.running.set(id, controller);
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.execute(record, controller, input.cutoff))
      .finally(() => {
        this.running.delete(id);
        this.pending.delete(run);
      });
    this.pending.add(run);
    return id;
  }

  get(id: string): QueryRecord {
    const record = this.store.read<QueryRecord>(recordKey(id));
    if (!record) throw invalidRequest(`QueryExecution ${id} was not found`);
    return record;
  }

  results(id: string): StoredResult {
    const record = this.get(id);
    if (record.state !== 'SUCCEEDED') {
      if (record.state === 'QUEUED' || record.state === 'RUNNING')
        throw invalidRequest(`Query has not yet finished. Current state: ${record.state}`);
      throw invalidRequest(
        `Query did not finish successfully. Final query state: ${record.state}${record.stateChangeReason ? `\n${record.stateChangeReason}` : ''}`,
      );
    }
    return this.store.read<StoredResult>(resultKey(id)) ?? { columns: [], rows: [] };
  }

  stop(id: string): void {
    const record = this.get(id);
    if (record.state !== 'QUEUED' && record.state !== 'RUNNING') return;
    this.running.get(id)?.abort();
    this.save({
      ...record,
      state: 'CANCELLED',
      stateChangeReason: 'Query cancelled by user',
      completedAt: Date.now(),
    });
  }

  /** Most recent first, as Athena lists them. */
  list(workgroup: string): string[] {
    return this.store
      .list('athena/queries')
      .map((id) => this.store.read<QueryRecord>(recordKey(id)))
      .filter((r): r is QueryRecord => r !== undefined && r.workgroup === workgroup)
      .sort((a, b) => b.submittedAt - a.submittedAt)
      .map((r) => r.id);
  }

  /** Waits for every running query (shutdown). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  private async execute(
    record: QueryRecord,
    controller: AbortController,
    cutoff: number | undefined,
  ): Promise<void> {
    if (controller.signal.aborted) return;
    const startedAt = Date.now();
    this.save({ ...record, state: 'RUNNING', startedAt });
    try {
      const engine = await this.sqlEngine();
      const result = await engine.execute(record.query, {
        catalog: record.catalog,
        database: record.database,
        bytesScannedCutoff: cutoff,
        signal: controller.signal,
      });
      if (controller.signal.aborted) return;
      const scanned = result.stats.dataScannedInBytes;
      const base = {
        ...record,
        startedAt,
        completedAt: Date.now(),
        dataScannedInBytes: scanned,
        engineExecutionTimeInMillis: result.stats.engineExecutionTimeInMillis,
      };
      // The SQL front end enforces the cutoff; this is the backstop so a result over the limit is never served.
      if (cutoff !== undefined && scanned > cutoff) {
        this.save({
          ...base,
          state: 'CANCELLED',
          stateChangeReason: CUTOFF_REASON,
          athenaError: athenaError(CUTOFF_REASON, 2, 1000),
        });
        return;
      }
      this.store.write(resultKey(record.id), {
        columns: result.columns,
        rows: result.rows,
      } satisfies StoredResult);
      // Athena puts a header row first for SELECT results only (not for SHOW/DESCRIBE/DDL/DML).
      const isSelect =
        record.substatementType === 'SELECT' ||
        (result.statementType === 'DQL' && record.statementType !== 'UTILITY');
      this.save({
        ...base,
        statementType: result.statementType === 'DQL' ? 'DML' : result.statementType,
        substatementType: isSelect ? 'SELECT' : record.substatementType,
        state: 'SUCCEEDED',
        hasHeaderRow: isSelect,
        updateCount: result.stats.rowsAffected,
      });
    } catch (error) {
      if (controller.signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      const details = error as {
        dataScannedInBytes?: unknown;
        errorCategory?: unknown;
        errorType?: unknown;
        state?: unknown;
      };
      const name = (error as Error)?.name ?? '';
      const isCutoff = /bytes scanned limit/i.test(message) || /Cutoff|ScanLimit/i.test(name);
      // Athena's categories: 1 system, 2 user (a cutoff is the user's limit).
      const category =
        typeof details.errorCategory === 'number'
          ? details.errorCategory
          : !isCutoff && /Internal/i.test(name)
            ? 1
            : 2;
      const type = typeof details.errorType === 'number' ? details.errorType : 1000;
      this.save({
        ...record,
        startedAt,
        completedAt: Date.now(),
        state: isCutoff ? 'CANCELLED' : 'FAILED',
        stateChangeReason: message,
        athenaError: athenaError(message, category, type),
        dataScannedInBytes: typeof details.dataScannedInBytes === 'number' ? details.dataScannedInBytes : 0,
      });
    }
  }

  private save(record: QueryRecord): void {
    this.store.write(recordKey(record.id), record);
  }
}

function athenaError(
  message: string,
  category: number,
  type: number,
): NonNullable<QueryRecord['athenaError']> {
  return { ErrorCategory: category, ErrorType: type, Retryable: false, ErrorMessage: message };
}

/** Athena reports the statement type at submission: SELECT is DML; CREATE/ALTER/DROP are DDL; SHOW/DESCRIBE utility. */
function classify(query: string): { statementType: QueryRecord['statementType']; substatementType?: string } {
  const first =
    query
      .replace(/^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)+/, '')
      .split(/\s+/)[0]
      ?.toUpperCase() ?? '';
  if (['SELECT', 'WITH', 'VALUES', 'TABLE', '(SELECT', '('].includes(first))
    return { statementType: 'DML', substatementType: 'SELECT' };
  if (['INSERT', 'UPDATE', 'DELETE', 'MERGE'].includes(first))
    return { statementType: 'DML', substatementType: first };
  if (['CREATE', 'ALTER', 'DROP', 'OPTIMIZE', 'VACUUM', 'MSCK'].includes(first)) {
    return /^\s*CREATE\s+TABLE\b[\s\S]*\bAS\b/i.test(query)
      ? { statementType: 'DML', substatementType: 'CREATE_TABLE_AS_SELECT' }
      : { statementType: 'DDL' };
  }
  return { statementType: 'UTILITY' };
}
