// Query executions: QUEUED → RUNNING → SUCCEEDED | FAILED | CANCELLED, run through the SQL front end, with
// Athena's statistics and error shapes. The statement is parsed once, at submission (prepare): its statement
// type comes from the engine, and the same parsed statement runs. Errors are read by type: a SqlError carries
// Athena's reason, category, type and state. Executions and their results persist in the data directory
// (Athena keeps query history for 45 days; the local endpoint keeps it until the data directory is removed).
import {
  ScanCutoffError,
  SqlError,
  SqlSyntaxError,
  type PreparedStatement,
  type SqlEngine,
  type StatementResult,
} from '@loglake/lakehouse';
import type { JsonStore } from '../store';
import { AthenaQueryFailure } from './query-failure';
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
  /** What the engine reported when it parsed the query (absent when it could not parse it). */
  statementType?: 'DDL' | 'DML' | 'UTILITY';
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

/** A submitted query as the engine read it: its parsed statement, or why it could not be parsed. */
export type Submission = { prepared: PreparedStatement } | { failure: unknown };

const QUERY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const recordKey = (id: string) => ['athena', 'queries', id];
const resultKey = (id: string) => ['athena', 'results', id];

export class QueryRunner {
  private readonly running = new Map<string, AbortController>();
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly store: JsonStore,
    private readonly sqlEngine: () => Promise<SqlEngine>,
  ) {}

  /**
   * Parses a query for submission (StartQueryExecution): the one parse. A statement Athena's parser rejects is
   * refused by StartQueryExecution itself, an InvalidRequestException whose message is the parser's `line L:C:
   * mismatched input ...` without an error name (as users quote it: guardian/athena-cli#39,
   * awslabs/aws-well-architected-labs#502, aws-solutions-library-samples/cloud-intelligence-dashboards-framework
   * #855 and #1125); no query execution is created. Any other failure to prepare fails the query when it runs.
   */
  async prepare(query: string): Promise<Submission> {
    try {
      return { prepared: (await this.sqlEngine()).prepare(query) };
    } catch (failure) {
      if (failure instanceof SqlSyntaxError) throw invalidRequest(failure.detail);
      return { failure };
    }
  }

  start(input: {
    /** The execution's id (a UUID: StartQueryExecution makes it first, to name the results' object). */
    id: string;
    query: string;
    submission: Submission;
    workgroup: string;
    catalog?: string;
    database?: string;
    outputLocation?: string;
    cutoff?: number;
    /** Called once the statement has succeeded (Lake Formation records a table's creator). */
    onSucceeded?: () => void;
  }): string {
    const id = input.id;
    const prepared = 'prepared' in input.submission ? input.submission.prepared : undefined;
    const record: QueryRecord = {
      id,
      query: input.query,
      workgroup: input.workgroup,
      catalog: input.catalog,
      database: input.database,
      outputLocation: input.outputLocation,
      statementType: prepared?.statementType,
      substatementType: prepared?.substatementType,
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
      .then(() =>
        prepared
          ? this.execute(record, prepared, controller, input.cutoff, input.onSucceeded)
          : this.fail(record, Date.now(), (input.submission as { failure: unknown }).failure),
      )
      .finally(() => {
        this.running.delete(id);
        this.pending.delete(run);
      });
    this.pending.add(run);
    return id;
  }

  get(id: string): QueryRecord {
    // Ids are the UUIDs StartQueryExecution hands out: any other id names no execution (and is never looked up).
    const record = QUERY_ID.test(id) ? this.store.read<QueryRecord>(recordKey(id)) : undefined;
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
      .list(['athena', 'queries'])
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
    prepared: PreparedStatement,
    controller: AbortController,
    cutoff: number | undefined,
    onSucceeded: (() => void) | undefined,
  ): Promise<void> {
    if (controller.signal.aborted) return;
    const startedAt = Date.now();
    this.save({ ...record, state: 'RUNNING', startedAt });
    try {
      const engine = await this.sqlEngine();
      const result = await engine.execute(prepared, {
        catalog: record.catalog,
        database: record.database,
        bytesScannedCutoff: cutoff,
        signal: controller.signal,
      });
      if (controller.signal.aborted) return;
      this.store.write(resultKey(record.id), {
        columns: result.columns,
        rows: result.rows,
      } satisfies StoredResult);
      // Athena puts a header row first for SELECT results only (not for SHOW/DESCRIBE/DDL/DML).
      const isSelect = record.substatementType === 'SELECT';
      this.save({
        ...record,
        startedAt,
        completedAt: Date.now(),
        dataScannedInBytes: result.stats.dataScannedInBytes,
        engineExecutionTimeInMillis: result.stats.engineExecutionTimeInMillis,
        state: 'SUCCEEDED',
        hasHeaderRow: isSelect,
        updateCount: result.stats.rowsAffected,
      });
      onSucceeded?.();
    } catch (error) {
      if (controller.signal.aborted) return;
      this.fail(record, startedAt, error);
    }
  }

  /**
   * Records a failure as Athena reports it: the engine's SqlError fields, Athena's own (AthenaQueryFailure: a
   * permission refused), or a system error for anything else.
   */
  private fail(record: QueryRecord, startedAt: number, error: unknown): void {
    const sqlError = error instanceof SqlError || error instanceof AthenaQueryFailure ? error : undefined;
    const message = error instanceof Error ? error.message : String(error);
    this.save({
      ...record,
      startedAt,
      completedAt: Date.now(),
      state: sqlError?.state ?? 'FAILED',
      stateChangeReason: message,
      // Athena's categories: 1 system, 2 user; types: 1000 user error, 100 internal service error.
      athenaError: athenaError(message, sqlError?.errorCategory ?? 1, sqlError?.errorType ?? 100),
      dataScannedInBytes: error instanceof ScanCutoffError ? error.dataScannedInBytes : 0,
    });
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
