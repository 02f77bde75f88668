// Runs one statement on Athena: StartQueryExecution, GetQueryExecution with exponential backoff (up to a timeout,
// when the caller sets one, then StopQueryExecution), GetQueryResults page by page. A query that ends FAILED or
// CANCELLED is AthenaQueryFailedError, or AthenaTransientError when Athena's error category says the failure was on
// its side (1 SYSTEM; docs.aws.amazon.com/athena/latest/ug/error-reference.html). SDK errors pass through as the
// SDK's classes: access denied, and TooManyRequestsException once a query quota is full
// (docs.aws.amazon.com/athena/latest/ug/service-limits.html) and the SDK's own retries are spent.
import {
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
  type AthenaClient,
  type QueryExecution,
} from '@aws-sdk/client-athena';
import {
  AthenaQueryFailedError,
  AthenaQueryTimeoutError,
  AthenaTransientError,
  type QueryFailure,
} from './errors';

/** Where statements run. */
export interface AthenaTarget {
  client: AthenaClient;
  workgroup: string;
  /** `s3tablescatalog/<table bucket>`, `AwsDataCatalog`, … */
  catalog?: string;
  database?: string;
  /** The workgroup's BytesScannedCutoffPerQuery, to name it when a query hits it. */
  bytesScannedCutoff?: number;
}

export interface RunOptions {
  /** What the query is for, in error messages ("CTAS (vpc_flow_logs_daily 2026-11-27)"). */
  purpose?: string;
  /** Stop the query and throw AthenaQueryTimeoutError once it has run this long; no limit when absent. */
  timeoutMs?: number;
  /** What sets timeoutMs, named in the timeout error so the reader knows what to raise. */
  timeoutSetting?: string;
  /** First poll delay; doubles up to maxPollMs. */
  initialPollMs?: number;
  maxPollMs?: number;
  /** GetQueryResults MaxResults (Athena's maximum is 1000). */
  pageSize?: number;
  signal?: AbortSignal;
}

export interface QueryResult {
  queryExecutionId: string;
  statementType: string;
  columns: { name: string; type: string }[];
  rows: (string | null)[][];
  dataScannedInBytes: number;
  engineExecutionTimeInMillis: number;
  /** Rows written by DML, when Athena reports it. */
  rowsAffected?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runQuery(
  target: AthenaTarget,
  sql: string,
  options: RunOptions = {},
): Promise<QueryResult> {
  const { initialPollMs = 100, maxPollMs = 2000, pageSize = 1000 } = options;
  const subject = options.purpose ? `Athena ${options.purpose} query` : 'Query';
  const started = Date.now();
  const context =
    target.catalog || target.database ? { Catalog: target.catalog, Database: target.database } : undefined;
  const start = await target.client.send(
    new StartQueryExecutionCommand({
      QueryString: sql,
      WorkGroup: target.workgroup,
      QueryExecutionContext: context,
    }),
  );
  const id = start.QueryExecutionId;
  if (!id) {
    throw new AthenaQueryFailedError(`${subject}: Athena returned no QueryExecutionId.`, {
      value: {
        queryExecutionId: undefined,
        state: undefined,
        reason: 'no id',
        errorCategory: undefined,
        errorType: undefined,
        sql,
      },
    });
  }
  let delay = initialPollMs;
  let execution: QueryExecution | undefined;
  for (;;) {
    options.signal?.throwIfAborted();
    execution = (await target.client.send(new GetQueryExecutionCommand({ QueryExecutionId: id })))
      .QueryExecution;
    const state = execution?.Status?.State;
    if (state === 'SUCCEEDED') break;
    if (state === 'FAILED' || state === 'CANCELLED') throw failed(target, subject, id, state, execution, sql);
    const elapsed = Date.now() - started;
    if (options.timeoutMs !== undefined && elapsed + delay > options.timeoutMs) {
      // Best effort: the query may have finished meanwhile; the timeout is reported either way.
      await target.client
        .send(new StopQueryExecutionCommand({ QueryExecutionId: id }))
        .catch(() => undefined);
      const raise = options.timeoutSetting ? `Raise ${options.timeoutSetting}` : 'Allow more time';
      throw new AthenaQueryTimeoutError(
        `${subject} ${id} still ${state ?? 'pending'} after ${elapsed} ms (timeout ${options.timeoutMs} ms); it was cancelled. ${raise} or make the query cheaper.`,
        { value: { queryExecutionId: id, state, timeoutMs: options.timeoutMs } },
      );
    }
    await sleep(delay);
    delay = Math.min(maxPollMs, delay * 2);
  }
  const statementType = execution?.StatementType ?? 'DML';
  const { columns, rows, updateCount } = await readResults(target.client, id, statementType, pageSize);
  return {
    queryExecutionId: id,
    statementType,
    columns,
    rows,
    dataScannedInBytes: execution?.Statistics?.DataScannedInBytes ?? 0,
    engineExecutionTimeInMillis: execution?.Statistics?.EngineExecutionTimeInMillis ?? 0,
    ...(updateCount !== undefined ? { rowsAffected: updateCount } : {}),
  };
}

function failed(
  target: AthenaTarget,
  subject: string,
  id: string,
  state: string,
  execution: QueryExecution | undefined,
  sql: string,
): AthenaQueryFailedError {
  const status = execution?.Status;
  const reason = status?.StateChangeReason ?? status?.AthenaError?.ErrorMessage ?? 'no reason given';
  const failure: QueryFailure = {
    queryExecutionId: id,
    state,
    reason,
    errorCategory: status?.AthenaError?.ErrorCategory,
    errorType: status?.AthenaError?.ErrorType,
    sql,
  };
  if (failure.errorCategory === 1)
    return new AthenaTransientError(`${subject} ${id} failed on Athena's side: ${reason}`, {
      value: failure,
    });
  // Athena's error catalog gives the data-scanned cutoff no error type of its own; its reason is the sentence.
  const cutoff =
    /bytes scanned limit|BytesScannedCutoffPerQuery|scanned.*limit/i.test(reason) && target.bytesScannedCutoff
      ? ` The workgroup ${target.workgroup} stops queries at ${target.bytesScannedCutoff} bytes scanned; narrow the query (filter on start_time).`
      : '';
  return new AthenaQueryFailedError(`${subject} ${id} ${state}: ${reason.replace(/\.?$/, '.')}${cutoff}`, {
    value: failure,
  });
}

async function readResults(
  client: AthenaClient,
  id: string,
  statementType: string,
  pageSize: number,
): Promise<Pick<QueryResult, 'columns' | 'rows'> & { updateCount: number | undefined }> {
  const columns: { name: string; type: string }[] = [];
  const rows: (string | null)[][] = [];
  let nextToken: string | undefined;
  let first = true;
  let updateCount: number | undefined;
  do {
    const page = await client.send(
      new GetQueryResultsCommand({ QueryExecutionId: id, MaxResults: pageSize, NextToken: nextToken }),
    );
    if (first) {
      if (typeof page.UpdateCount === 'number') updateCount = page.UpdateCount;
      for (const c of page.ResultSet?.ResultSetMetadata?.ColumnInfo ?? []) {
        columns.push({ name: c.Name ?? c.Label ?? '?', type: c.Type ?? 'varchar' });
      }
    }
    const pageRows = (page.ResultSet?.Rows ?? []).map((r) =>
      (r.Data ?? []).map((d) => d.VarCharValue ?? null),
    );
    // Athena repeats the column names as the first row of a SELECT's first page.
    if (first && statementType === 'DML' && columns.length > 0 && isHeader(pageRows[0], columns))
      pageRows.shift();
    rows.push(...pageRows);
    nextToken = page.NextToken;
    first = false;
  } while (nextToken);
  return { columns, rows, updateCount };
}

function isHeader(row: (string | null)[] | undefined, columns: { name: string }[]): boolean {
  return row !== undefined && row.length === columns.length && row.every((v, i) => v === columns[i]?.name);
}

/** Rows as objects keyed by column name. */
export function rowObjects(result: Pick<QueryResult, 'columns' | 'rows'>): Record<string, string | null>[] {
  return result.rows.map((row) => Object.fromEntries(result.columns.map((c, i) => [c.name, row[i] ?? null])));
}
