// Runs one statement in the lab workgroup through the Athena SDK: start, wait, page the results.
import {
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  type AthenaClient,
  type QueryExecution,
} from '@aws-sdk/client-athena';
import { QueryFailedError } from '../errors';

export interface AthenaTarget {
  client: AthenaClient;
  workgroup: string;
  /** `s3tablescatalog/<table bucket>` */
  catalog: string;
  database: string;
  /** The workgroup's BytesScannedCutoffPerQuery, to name it when a query hits it. */
  bytesScannedCutoff?: number;
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

export interface RunOptions {
  pollIntervalMs?: number;
  maxPollIntervalMs?: number;
  pageSize?: number;
  signal?: AbortSignal;
}

export async function runQuery(
  target: AthenaTarget,
  sql: string,
  options: RunOptions = {},
): Promise<QueryResult> {
  const { pollIntervalMs = 100, maxPollIntervalMs = 2000, pageSize = 1000 } = options;
  const started = await target.client.send(
    new StartQueryExecutionCommand({
      QueryString: sql,
      WorkGroup: target.workgroup,
      QueryExecutionContext: { Catalog: target.catalog, Database: target.database },
    }),
  );
  const id = started.QueryExecutionId;
  if (!id) throw new QueryFailedError('Athena returned no QueryExecutionId.', undefined, 'no id');
  let delay = pollIntervalMs;
  let execution: QueryExecution | undefined;
  for (;;) {
    options.signal?.throwIfAborted();
    execution = (await target.client.send(new GetQueryExecutionCommand({ QueryExecutionId: id })))
      .QueryExecution;
    const state = execution?.Status?.State;
    if (state === 'SUCCEEDED') break;
    if (state === 'FAILED' || state === 'CANCELLED') {
      const reason =
        execution?.Status?.StateChangeReason ?? execution?.Status?.AthenaError?.ErrorMessage ?? state;
      const cutoff =
        /bytes scanned limit|BytesScannedCutoffPerQuery|scanned.*limit/i.test(reason) &&
        target.bytesScannedCutoff
          ? ` The workgroup ${target.workgroup} stops queries at ${target.bytesScannedCutoff} bytes scanned; narrow the query (filter on start_time).`
          : '';
      throw new QueryFailedError(`Query ${id} ${state}: ${reason.replace(/\.?$/, '.')}${cutoff}`, id, reason);
    }
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(maxPollIntervalMs, delay * 2);
  }
  const statementType = execution?.StatementType ?? 'DML';
  const columns: { name: string; type: string }[] = [];
  const rows: (string | null)[][] = [];
  let nextToken: string | undefined;
  let first = true;
  let updateCount: number | undefined;
  do {
    const page = await target.client.send(
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
  const stats = execution?.Statistics;
  return {
    queryExecutionId: id,
    statementType,
    columns,
    rows,
    dataScannedInBytes: stats?.DataScannedInBytes ?? 0,
    engineExecutionTimeInMillis: stats?.EngineExecutionTimeInMillis ?? 0,
    ...(updateCount !== undefined ? { rowsAffected: updateCount } : {}),
  };
}

function isHeader(row: (string | null)[] | undefined, columns: { name: string }[]): boolean {
  return row !== undefined && row.length === columns.length && row.every((v, i) => v === columns[i]?.name);
}
