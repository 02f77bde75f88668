// Runs one statement on Athena: submit, wait with exponential backoff up to a timeout (cancelling the query when
// it runs out), read all result pages. Failures become named errors: a system-side failure (Athena's error
// category 1) or throttling is AthenaTransientError, which the state machine retries; anything else is final.
import {
  type AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
  type QueryExecution,
} from '@aws-sdk/client-athena';
import { AthenaQueryFailedError, AthenaQueryTimeoutError, AthenaTransientError } from './errors';

export interface QueryOptions {
  workgroup: string;
  catalog?: string;
  database?: string;
  timeoutMs: number;
  /** First poll delay; doubles up to maxPollMs. */
  initialPollMs?: number;
  maxPollMs?: number;
  /** What the query is for, in error messages ("hours present for vpc_flow_logs_daily"). */
  purpose: string;
}

export interface QueryOutcome {
  queryExecutionId: string;
  columns: string[];
  rows: (string | null)[][];
  dataScannedInBytes: number;
  engineExecutionTimeMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isThrottle(error: unknown): boolean {
  const name = (error as { name?: string }).name ?? '';
  return name === 'TooManyRequestsException' || name === 'ThrottlingException';
}

async function call<T>(purpose: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isThrottle(error)) {
      throw new AthenaTransientError(`Athena throttled the ${purpose} query; retry later`, { cause: error });
    }
    throw error;
  }
}

export async function runQuery(
  athena: AthenaClient,
  sql: string,
  options: QueryOptions,
): Promise<QueryOutcome> {
  const started = Date.now();
  const context =
    options.catalog || options.database
      ? { Catalog: options.catalog, Database: options.database }
      : undefined;
  const start = await call(options.purpose, () =>
    athena.send(
      new StartQueryExecutionCommand({
        QueryString: sql,
        WorkGroup: options.workgroup,
        QueryExecutionContext: context,
      }),
    ),
  );
  const id = start.QueryExecutionId;
  if (!id) throw new AthenaQueryFailedError(`Athena returned no query id for the ${options.purpose} query`);
  let delay = options.initialPollMs ?? 250;
  let execution: QueryExecution | undefined;
  for (;;) {
    const got = await call(options.purpose, () =>
      athena.send(new GetQueryExecutionCommand({ QueryExecutionId: id })),
    );
    execution = got.QueryExecution;
    const state = execution?.Status?.State;
    if (state === 'SUCCEEDED') break;
    if (state === 'FAILED' || state === 'CANCELLED') {
      const reason = execution?.Status?.StateChangeReason ?? 'no reason given';
      const category = execution?.Status?.AthenaError?.ErrorCategory;
      const ctx = { queryExecutionId: id, state, reason, errorCategory: category, sql };
      // Error category 1 = SYSTEM (Athena's side); 2 = USER, 3 = OTHER.
      if (category === 1) {
        throw new AthenaTransientError(
          `Athena ${options.purpose} query ${id} failed on Athena's side: ${reason}`,
          {
            value: ctx,
          },
        );
      }
      throw new AthenaQueryFailedError(`Athena ${options.purpose} query ${id} ${state}: ${reason}`, {
        value: ctx,
      });
    }
    const elapsed = Date.now() - started;
    if (elapsed + delay > options.timeoutMs) {
      await athena.send(new StopQueryExecutionCommand({ QueryExecutionId: id })).catch(() => undefined);
      throw new AthenaQueryTimeoutError(
        `Athena ${options.purpose} query ${id} still ${state ?? 'pending'} after ${elapsed} ms (timeout ${options.timeoutMs} ms); it was cancelled. Raise QUERY_TIMEOUT_SECONDS or make the query cheaper.`,
        { value: { queryExecutionId: id, state, timeoutMs: options.timeoutMs } },
      );
    }
    await sleep(delay);
    delay = Math.min(delay * 2, options.maxPollMs ?? 5000);
  }
  const columns: string[] = [];
  const rows: (string | null)[][] = [];
  let nextToken: string | undefined;
  let first = true;
  do {
    const page = await call(options.purpose, () =>
      athena.send(new GetQueryResultsCommand({ QueryExecutionId: id, NextToken: nextToken })),
    );
    const info = page.ResultSet?.ResultSetMetadata?.ColumnInfo ?? [];
    if (first) columns.push(...info.map((c) => c.Name ?? ''));
    const pageRows = (page.ResultSet?.Rows ?? []).map((r) =>
      (r.Data ?? []).map((d) => d.VarCharValue ?? null),
    );
    // Athena repeats the header as the first row of the first page of a SELECT.
    if (
      first &&
      pageRows.length > 0 &&
      columns.length > 0 &&
      pageRows[0]?.every((v, i) => v === columns[i])
    ) {
      pageRows.shift();
    }
    rows.push(...pageRows);
    nextToken = page.NextToken;
    first = false;
  } while (nextToken);
  return {
    queryExecutionId: id,
    columns,
    rows,
    dataScannedInBytes: execution?.Statistics?.DataScannedInBytes ?? 0,
    engineExecutionTimeMs: execution?.Statistics?.EngineExecutionTimeInMillis ?? 0,
  };
}

/** Rows as objects keyed by column name. */
export function rowObjects(outcome: QueryOutcome): Record<string, string | null>[] {
  return outcome.rows.map((row) => Object.fromEntries(outcome.columns.map((c, i) => [c, row[i] ?? null])));
}
