// Pins the runner's requests and how it reads Athena's answers (mocked SDK). The runner against the real local
// endpoint is exercised by its users' tests: lab/src/target/local-roles.test.ts, snapshot-lambdas' pipeline.test.ts.
import { describe, test, expect, beforeEach } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import {
  AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
  TooManyRequestsException,
} from '@aws-sdk/client-athena';
import { AthenaQueryFailedError, AthenaQueryTimeoutError, AthenaTransientError } from './errors';
import { rowObjects, runQuery, type AthenaTarget } from './run-query';

const athena = mockClient(AthenaClient);
const target: AthenaTarget = {
  client: new AthenaClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } }),
  workgroup: 'loglake-lab',
  catalog: 's3tablescatalog/loglake-lab',
  database: 'network',
  bytesScannedCutoff: 1_000_000_000,
};

beforeEach(() => {
  athena.reset();
});

describe('runQuery', () => {
  test('starts in the workgroup and catalog, waits, pages results and drops the header row', async () => {
    // Prepare
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-1' });
    athena
      .on(GetQueryExecutionCommand)
      .resolvesOnce({ QueryExecution: { Status: { State: 'RUNNING' } } })
      .resolves({
        QueryExecution: {
          StatementType: 'DML',
          Status: { State: 'SUCCEEDED' },
          Statistics: { DataScannedInBytes: 1234, EngineExecutionTimeInMillis: 9 },
        },
      });
    const meta = {
      ColumnInfo: [
        { Name: 'action', Type: 'varchar' },
        { Name: 'n', Type: 'bigint' },
      ],
    };
    athena
      .on(GetQueryResultsCommand, { QueryExecutionId: 'q-1', NextToken: undefined })
      .resolves({
        ResultSet: {
          ResultSetMetadata: meta,
          Rows: [
            { Data: [{ VarCharValue: 'action' }, { VarCharValue: 'n' }] },
            { Data: [{ VarCharValue: 'ACCEPT' }, { VarCharValue: '5' }] },
          ],
        },
        NextToken: 't2',
      })
      .on(GetQueryResultsCommand, { QueryExecutionId: 'q-1', NextToken: 't2' })
      .resolves({
        ResultSet: { ResultSetMetadata: meta, Rows: [{ Data: [{ VarCharValue: 'REJECT' }, {}] }] },
      });
    // Act
    const result = await runQuery(target, 'SELECT action, count(*) AS n FROM vpc_flow_logs GROUP BY 1', {
      initialPollMs: 1,
    });
    // Assess
    expect(athena.commandCalls(StartQueryExecutionCommand)[0]?.args[0].input).toEqual({
      QueryString: 'SELECT action, count(*) AS n FROM vpc_flow_logs GROUP BY 1',
      WorkGroup: 'loglake-lab',
      QueryExecutionContext: { Catalog: 's3tablescatalog/loglake-lab', Database: 'network' },
    });
    expect(result.columns).toEqual([
      { name: 'action', type: 'varchar' },
      { name: 'n', type: 'bigint' },
    ]);
    expect(result.rows).toEqual([
      ['ACCEPT', '5'],
      ['REJECT', null],
    ]);
    expect(result.dataScannedInBytes).toBe(1234);
    expect(athena.commandCalls(GetQueryResultsCommand)[0]?.args[0].input).toEqual({
      QueryExecutionId: 'q-1',
      MaxResults: 1000,
      NextToken: undefined,
    });
    expect(rowObjects(result)).toEqual([
      { action: 'ACCEPT', n: '5' },
      { action: 'REJECT', n: null },
    ]);
  });

  test('a target without catalog and database sends no QueryExecutionContext', async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-0' });
    athena.on(GetQueryExecutionCommand).resolves({ QueryExecution: { Status: { State: 'SUCCEEDED' } } });
    athena.on(GetQueryResultsCommand).resolves({});
    await runQuery({ client: target.client, workgroup: 'loglake-01-lab' }, 'SELECT 1');
    expect(athena.commandCalls(StartQueryExecutionCommand)[0]?.args[0].input).toEqual({
      QueryString: 'SELECT 1',
      WorkGroup: 'loglake-01-lab',
      QueryExecutionContext: undefined,
    });
  });

  test("a failed query throws Athena's reason; hitting the cutoff also names the cutoff", async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-2' });
    athena.on(GetQueryExecutionCommand).resolves({
      QueryExecution: {
        Status: { State: 'FAILED', StateChangeReason: 'Query cancelled! : Bytes scanned limit was exceeded' },
      },
    });
    await expect(runQuery(target, 'SELECT * FROM vpc_flow_logs', { initialPollMs: 1 })).rejects.toThrow(
      /Bytes scanned limit was exceeded. The workgroup loglake-lab stops queries at 1000000000 bytes/,
    );
  });

  test('a user-side failure is AthenaQueryFailedError with the id, reason and category', async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-3' });
    athena.on(GetQueryExecutionCommand).resolves({
      QueryExecution: {
        Status: {
          State: 'FAILED',
          StateChangeReason: "TABLE_NOT_FOUND: line 1:15: Table 'network.nope' does not exist",
          AthenaError: { ErrorCategory: 2, ErrorType: 1301 },
        },
      },
    });
    const error = await runQuery(target, 'SELECT * FROM nope', { initialPollMs: 1, purpose: 'smoke' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AthenaQueryFailedError);
    expect(error).not.toBeInstanceOf(AthenaTransientError);
    const failed = error as AthenaQueryFailedError;
    expect(failed.name).toBe('AthenaQueryFailedError');
    expect(failed.queryExecutionId).toBe('q-3');
    expect(failed.reason).toBe("TABLE_NOT_FOUND: line 1:15: Table 'network.nope' does not exist");
    expect(failed.value).toMatchObject({
      state: 'FAILED',
      errorCategory: 2,
      errorType: 1301,
      sql: 'SELECT * FROM nope',
    });
    expect(failed.message).toMatch(/^Athena smoke query q-3 FAILED: TABLE_NOT_FOUND/);
  });

  test("a failure on Athena's side (category 1) is AthenaTransientError, still a failed query", async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-4' });
    athena.on(GetQueryExecutionCommand).resolves({
      QueryExecution: {
        Status: { State: 'FAILED', StateChangeReason: 'Internal error', AthenaError: { ErrorCategory: 1 } },
      },
    });
    const error = await runQuery(target, 'SELECT 1', { initialPollMs: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AthenaTransientError);
    expect(error).toBeInstanceOf(AthenaQueryFailedError);
    expect((error as Error).name).toBe('AthenaTransientError');
  });

  test('throttling passes through as the SDK error (the state machine retries it by name)', async () => {
    athena
      .on(StartQueryExecutionCommand)
      .rejects(new TooManyRequestsException({ message: 'Rate exceeded', $metadata: {} }));
    const error = await runQuery(target, 'SELECT 1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TooManyRequestsException);
    expect(error).not.toBeInstanceOf(AthenaQueryFailedError);
  });

  test('past its timeout a query is stopped and AthenaQueryTimeoutError names what sets the timeout', async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-5' });
    athena.on(GetQueryExecutionCommand).resolves({ QueryExecution: { Status: { State: 'RUNNING' } } });
    athena.on(StopQueryExecutionCommand).resolves({});
    const error = await runQuery(target, 'SELECT 1', {
      initialPollMs: 5,
      maxPollMs: 5,
      timeoutMs: 30,
      timeoutSetting: 'QUERY_TIMEOUT_SECONDS',
      purpose: 'CTAS',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AthenaQueryTimeoutError);
    expect((error as AthenaQueryTimeoutError).value).toEqual({
      queryExecutionId: 'q-5',
      state: 'RUNNING',
      timeoutMs: 30,
    });
    expect((error as Error).message).toMatch(
      /^Athena CTAS query q-5 still RUNNING .*Raise QUERY_TIMEOUT_SECONDS/,
    );
    expect(athena.commandCalls(StopQueryExecutionCommand)[0]?.args[0].input).toEqual({
      QueryExecutionId: 'q-5',
    });
  });

  test('polling backs off from initialPollMs, doubling up to maxPollMs', async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-6' });
    const polledAt: number[] = [];
    let polls = 0;
    athena.on(GetQueryExecutionCommand).callsFake(() => {
      polledAt.push(Date.now());
      polls += 1;
      return { QueryExecution: { Status: { State: polls < 5 ? 'RUNNING' : 'SUCCEEDED' } } };
    });
    athena.on(GetQueryResultsCommand).resolves({});
    await runQuery(target, 'SELECT 1', { initialPollMs: 20, maxPollMs: 40 });
    const gaps = polledAt.slice(1).map((t, i) => t - (polledAt[i] as number));
    expect(gaps).toHaveLength(4);
    // 20, 40, 40, 40 ms (timers fire late, never early).
    expect(gaps[0]).toBeGreaterThanOrEqual(19);
    expect(gaps[0]).toBeLessThan(38);
    for (const gap of gaps.slice(1)) expect(gap).toBeGreaterThanOrEqual(39);
  });

  test('an aborted signal stops the wait', async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-7' });
    athena.on(GetQueryExecutionCommand).resolves({ QueryExecution: { Status: { State: 'RUNNING' } } });
    const controller = new AbortController();
    controller.abort();
    await expect(runQuery(target, 'SELECT 1', { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
