import { describe, test, expect, beforeEach } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import {
  AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import { runQuery, type AthenaTarget } from './athena-runner';

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
      pollIntervalMs: 1,
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
  });

  test("a failed query throws Athena's reason; hitting the cutoff also names the cutoff", async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-2' });
    athena.on(GetQueryExecutionCommand).resolves({
      QueryExecution: {
        Status: { State: 'FAILED', StateChangeReason: 'Query cancelled! : Bytes scanned limit was exceeded' },
      },
    });
    await expect(runQuery(target, 'SELECT * FROM vpc_flow_logs', { pollIntervalMs: 1 })).rejects.toThrow(
      /Bytes scanned limit was exceeded. The workgroup loglake-lab stops queries at 1000000000 bytes/,
    );
  });
});
