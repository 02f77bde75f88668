// Runs the conformance corpus against a running local endpoint the way a user would: the AWS SDK's Athena client
// over loopback (StartQueryExecution, GetQueryExecution, GetQueryResults), in one S3 Tables bucket created with
// the S3 Tables client. Independent cases run a few at a time; sequential ones (the Iceberg DDL/DML walk) run
// after them, in corpus order.
import {
  AthenaClient,
  CreateWorkGroupCommand,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  InvalidRequestException,
  StartQueryExecutionCommand,
  type QueryExecution,
} from '@aws-sdk/client-athena';
import { CreateNamespaceCommand, CreateTableBucketCommand, S3TablesClient } from '@aws-sdk/client-s3tables';
import { localClientConfig } from '../../../src/client-config';
import { judge, type CaseOutcome, type CorpusCase, type Family, type Verdict } from './case';
import { CORPUS, CORPUS_FIXTURES } from './cases';

export const CORPUS_BUCKET = 'corpus';
export const CORPUS_NAMESPACE = 'docs';
const WORKGROUP = 'corpus';

export interface CaseResult {
  case: CorpusCase;
  outcome: CaseOutcome;
  verdict: Verdict;
  ms: number;
}

export interface CorpusReport {
  results: CaseResult[];
  /** Passing ÷ all cases, overall and by family (a listed gap counts as not passing). */
  passRate: number;
  byFamily: { family: Family; cases: number; passing: number; gaps: number; failing: number }[];
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One statement through the Athena API: its final state, reason, columns and rows (header row removed). */
export async function runStatement(athena: AthenaClient, sql: string): Promise<CaseOutcome> {
  let QueryExecutionId: string | undefined;
  try {
    ({ QueryExecutionId } = await athena.send(
      new StartQueryExecutionCommand({
        QueryString: sql,
        WorkGroup: WORKGROUP,
        QueryExecutionContext: { Catalog: `s3tablescatalog/${CORPUS_BUCKET}`, Database: CORPUS_NAMESPACE },
      }),
    ));
  } catch (error) {
    // Refused at submission (a statement Athena's parser rejects): no query execution exists.
    if (error instanceof InvalidRequestException)
      return { state: 'REFUSED', reason: error.message, columns: [], rows: [] };
    throw error;
  }
  let execution: QueryExecution | undefined;
  for (;;) {
    execution = (await athena.send(new GetQueryExecutionCommand({ QueryExecutionId }))).QueryExecution;
    const state = execution?.Status?.State;
    if (state !== 'QUEUED' && state !== 'RUNNING') break;
    await pause(2);
  }
  const state = execution?.Status?.State ?? 'UNKNOWN';
  if (state !== 'SUCCEEDED')
    return { state, reason: execution?.Status?.StateChangeReason, columns: [], rows: [] };
  const rows: (string | null)[][] = [];
  let columns: CaseOutcome['columns'] = [];
  let NextToken: string | undefined;
  do {
    const page = await athena.send(new GetQueryResultsCommand({ QueryExecutionId, NextToken }));
    columns =
      page.ResultSet?.ResultSetMetadata?.ColumnInfo?.map((c) => ({
        name: c.Name ?? '',
        type: c.Type ?? '',
      })) ?? columns;
    for (const row of page.ResultSet?.Rows ?? [])
      rows.push(row.Data?.map((d) => d.VarCharValue ?? null) ?? []);
    NextToken = page.NextToken;
  } while (NextToken);
  // Athena puts the column names first for SELECT results.
  if (execution?.SubstatementType === 'SELECT') rows.shift();
  return { state, columns, rows };
}

async function runCase(athena: AthenaClient, c: CorpusCase): Promise<CaseResult> {
  const started = performance.now();
  const outcome = await runStatement(athena, c.sql);
  return { case: c, outcome, verdict: judge(c, outcome), ms: performance.now() - started };
}

/** Runs the whole corpus against the endpoint at `url`; the endpoint's data directory should be fresh. */
export async function runCorpus(url: string, options: { concurrency?: number } = {}): Promise<CorpusReport> {
  const config = localClientConfig(url);
  const athena = new AthenaClient(config);
  const s3tables = new S3TablesClient(config);
  try {
    const { arn } = await s3tables.send(new CreateTableBucketCommand({ name: CORPUS_BUCKET }));
    await s3tables.send(new CreateNamespaceCommand({ tableBucketARN: arn, namespace: [CORPUS_NAMESPACE] }));
    await athena.send(
      new CreateWorkGroupCommand({
        Name: WORKGROUP,
        Configuration: { ManagedQueryResultsConfiguration: { Enabled: true } },
      }),
    );
    for (const sql of CORPUS_FIXTURES) {
      const outcome = await runStatement(athena, sql);
      if (outcome.state !== 'SUCCEEDED') throw new Error(`corpus fixture failed: ${outcome.reason}\n${sql}`);
    }
    const independent = CORPUS.filter((c) => !c.sequential);
    const results: CaseResult[] = new Array(independent.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < independent.length) {
        const index = next++;
        results[index] = await runCase(athena, independent[index] as CorpusCase);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency ?? 6 }, worker));
    for (const c of CORPUS.filter((k) => k.sequential)) results.push(await runCase(athena, c));
    return summarise(results);
  } finally {
    athena.destroy();
    s3tables.destroy();
  }
}

export function summarise(results: CaseResult[]): CorpusReport {
  const families = [...new Set(results.map((r) => r.case.family))];
  const byFamily = families.map((family) => {
    const of = results.filter((r) => r.case.family === family);
    return {
      family,
      cases: of.length,
      passing: of.filter((r) => r.verdict.kind === 'pass').length,
      gaps: of.filter((r) => r.verdict.kind === 'gap').length,
      failing: of.filter((r) => r.verdict.kind === 'fail').length,
    };
  });
  const passing = results.filter((r) => r.verdict.kind === 'pass').length;
  return { results, passRate: results.length ? passing / results.length : 0, byFamily };
}
