// The analyst experiment's --target aws path with the AWS side pinned (it cannot run against AWS from here): STS
// AssumeRole of the deployed role, then every call the analyst makes signed with the session's credentials, with the
// request shapes AWS receives; AWS's refusals stand in for the deployed policies and grants.
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  ListQueryExecutionsCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
  UpdateWorkGroupCommand,
} from '@aws-sdk/client-athena';
import { FirehoseClient, PutRecordBatchCommand } from '@aws-sdk/client-firehose';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { PutTableMaintenanceConfigurationCommand, S3TablesClient } from '@aws-sdk/client-s3tables';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';
import { buildTarget } from '../target/lab-target';
import type { LabResources } from '../target/resources';
import { ANALYST_WRITES, analystRole } from './analyst-role';
import { ExperimentContext, FULL_SCALE } from './context';

const ANALYST_ROLE = 'arn:aws:iam::123456789012:role/loglake-01-analyst';
const RESOURCES: LabResources = {
  region: 'us-east-1',
  accountId: '123456789012',
  tableBucketName: 'loglake-01-flow-logs',
  namespace: 'network',
  table: 'vpc_flow_logs',
  columns: [],
  sqlNamespaces: ['ref', 'enriched', 'lab'],
  streamName: 'loglake-01-vpc-flow-logs',
  buffering: { sizeMb: 1, intervalSeconds: 60 },
  errorBucketName: 'loglake-01-firehose-errors-123456789012',
  errorPrefix: 'errors/',
  workgroup: 'loglake-01',
  bytesScannedCutoff: 1024 ** 3,
  maintenance: { compactionTargetFileSizeMb: 512, minSnapshotsToKeep: 1, maxSnapshotAgeHours: 120 },
  roles: { analyst: ANALYST_ROLE },
  analystWorkgroup: { name: 'loglake-01-analyst', bytesScannedCutoff: 1024 ** 3 },
};
const SESSION = {
  AccessKeyId: 'ASIAEXAMPLEANALYST01',
  SecretAccessKey: 'analyst-secret',
  SessionToken: 'analyst-token',
};
const DENIED = (action: string) =>
  Object.assign(
    new Error(
      `User: arn:aws:sts::123456789012:assumed-role/loglake-01-analyst/loglake-analyst is not authorized to perform: ${action}`,
    ),
    {
      name: action.startsWith('s3:') ? 'AccessDenied' : 'AccessDeniedException',
      $metadata: {},
    },
  );

const sts = mockClient(STSClient);
const athena = mockClient(AthenaClient);
const firehose = mockClient(FirehoseClient);
const s3 = mockClient(S3Client);
const s3tables = mockClient(S3TablesClient);
let dir: string;

/** Who signed a call: the analyst's session key, or the lab's own credentials. */
async function signer(getClient: () => { config: { credentials: () => Promise<{ accessKeyId: string }> } }) {
  return (await getClient().config.credentials()).accessKeyId === SESSION.AccessKeyId
    ? 'analyst'
    : 'deployer';
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'analyst-aws-'));
  process.env.AWS_ACCESS_KEY_ID = 'AKIAEXAMPLEDEPLOYER1';
  process.env.AWS_SECRET_ACCESS_KEY = 'deployer-secret';
  sts.reset();
  athena.reset();
  firehose.reset();
  s3.reset();
  s3tables.reset();
  sts.on(AssumeRoleCommand).resolves({
    Credentials: { ...SESSION, Expiration: new Date(Date.now() + 3600_000) },
    AssumedRoleUser: {
      Arn: 'arn:aws:sts::123456789012:assumed-role/loglake-01-analyst/loglake-analyst',
      AssumedRoleId: 'AROAEXAMPLE:loglake-analyst',
    },
  });
  // Athena: every query is recorded with its signer; the analyst's writes fail as Lake Formation refuses them.
  const queries: Array<{ sql: string; by: string }> = [];
  athena.on(StartQueryExecutionCommand).callsFake(async (input: { QueryString: string }, getClient) => {
    queries.push({ sql: input.QueryString, by: await signer(getClient as never) });
    return { QueryExecutionId: String(queries.length - 1) };
  });
  athena.on(GetQueryExecutionCommand).callsFake((input: { QueryExecutionId: string }) => {
    const q = queries[Number(input.QueryExecutionId)] as { sql: string; by: string };
    const write = ANALYST_WRITES.some((w) => w.sql === q.sql);
    return {
      QueryExecution: {
        QueryExecutionId: input.QueryExecutionId,
        StatementType: write ? 'DDL' : 'DML',
        Status:
          write && q.by === 'analyst'
            ? {
                State: 'FAILED',
                StateChangeReason:
                  'Insufficient permissions to execute the query. Insufficient Lake Formation permission(s) on analyst_probe',
                AthenaError: { ErrorCategory: 2, ErrorType: 234 },
              }
            : { State: 'SUCCEEDED' },
        Statistics: { DataScannedInBytes: 10, EngineExecutionTimeInMillis: 5 },
      },
    };
  });
  athena.on(GetQueryResultsCommand).callsFake(async (input: { QueryExecutionId: string }, getClient) => {
    const q = queries[Number(input.QueryExecutionId)] as { sql: string; by: string };
    // Athena authorizes results per workgroup: the analyst's role names only its own.
    if (q.by !== 'analyst' && (await signer(getClient as never)) === 'analyst')
      throw DENIED('athena:GetQueryResults');
    const rows = q.sql.includes('hour_start')
      ? [['hour_start'], ['2026-12-01 13:00:00.000000']]
      : q.sql.includes('total_bytes')
        ? [
            ['action', 'flows', 'total_bytes'],
            ['ACCEPT', '3000', '9000'],
            ['REJECT', '422', '900'],
          ]
        : [];
    const columns = rows[0] ?? [];
    return {
      ResultSet: {
        Rows: rows.map((r) => ({ Data: r.map((v) => ({ VarCharValue: v })) })),
        ResultSetMetadata: { ColumnInfo: columns.map((c) => ({ Name: c, Type: 'varchar' })) },
      },
    };
  });
  athena.on(UpdateWorkGroupCommand).rejects(DENIED('athena:UpdateWorkGroup'));
  athena.on(ListQueryExecutionsCommand).rejects(DENIED('athena:ListQueryExecutions'));
  athena.on(StopQueryExecutionCommand).rejects(DENIED('athena:StopQueryExecution'));
  firehose.on(PutRecordBatchCommand).rejects(DENIED('firehose:PutRecordBatch'));
  s3.on(ListObjectsV2Command).rejects(DENIED('s3:ListBucket'));
  s3tables
    .on(PutTableMaintenanceConfigurationCommand)
    .rejects(DENIED('s3tables:PutTableMaintenanceConfiguration'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  delete process.env.AWS_ACCESS_KEY_ID;
  delete process.env.AWS_SECRET_ACCESS_KEY;
});

describe('the analyst experiment on --target aws', () => {
  test('assumes the deployed role, asks the one-hour question and tries each write as the session', async () => {
    // Prepare
    const target = {
      ...buildTarget('aws', RESOURCES, { region: 'us-east-1' }, [], async () => {}),
      outputsFile: 'outputs.json',
    };
    const ctx = new ExperimentContext(target, FULL_SCALE, {}, join(dir, 'state.json'), () => undefined);
    ctx.current = 'analyst-role';

    // Act
    const outcome = await analystRole.run(ctx);
    await target.close();

    // Assess: STS AssumeRole of the role the outputs name, with the lab's own credentials
    expect(sts.commandCalls(AssumeRoleCommand).map((c) => c.args[0].input)).toEqual([
      { RoleArn: ANALYST_ROLE, RoleSessionName: 'loglake-analyst' },
    ]);
    // The analyst's statements: in the analysts' own workgroup, `ref` as the database, signed with the session
    const starts = athena.commandCalls(StartQueryExecutionCommand);
    const analystStarts = [];
    for (const call of starts) {
      const credentials = await (call.thisValue as AthenaClient).config.credentials();
      if (credentials.accessKeyId === SESSION.AccessKeyId) analystStarts.push(call.args[0].input);
    }
    expect(analystStarts.filter((i) => ANALYST_WRITES.some((w) => w.sql === i.QueryString))).toEqual(
      ANALYST_WRITES.map((w) => ({
        QueryString: w.sql,
        WorkGroup: 'loglake-01-analyst',
        QueryExecutionContext: { Catalog: 's3tablescatalog/loglake-01-flow-logs', Database: 'ref' },
      })),
    );
    expect(analystStarts.map((i) => i.QueryString).filter((q) => q?.includes('total_bytes'))).toHaveLength(2);
    // The APIs, with the shapes AWS receives
    expect(firehose.commandCalls(PutRecordBatchCommand)[0]?.args[0].input).toMatchObject({
      DeliveryStreamName: 'loglake-01-vpc-flow-logs',
      Records: [{ Data: expect.any(Uint8Array) }],
    });
    expect(athena.commandCalls(UpdateWorkGroupCommand)[0]?.args[0].input).toEqual({
      WorkGroup: 'loglake-01',
      ConfigurationUpdates: { BytesScannedCutoffPerQuery: 1024 ** 3 },
    });
    expect(s3.commandCalls(ListObjectsV2Command)[0]?.args[0].input).toEqual({
      Bucket: 'loglake-01-firehose-errors-123456789012',
      MaxKeys: 10,
    });
    expect(s3tables.commandCalls(PutTableMaintenanceConfigurationCommand)[0]?.args[0].input).toEqual({
      tableBucketARN: 'arn:aws:s3tables:us-east-1:123456789012:bucket/loglake-01-flow-logs',
      namespace: 'network',
      name: 'vpc_flow_logs',
      type: 'icebergCompaction',
      value: { status: 'enabled', settings: { icebergCompaction: { targetFileSizeMB: 512 } } },
    });
    for (const client of [firehose, s3, s3tables]) {
      const call = client.calls()[0];
      const credentials = await (
        call?.thisValue as { config: { credentials: () => Promise<{ accessKeyId: string }> } }
      ).config.credentials();
      expect(credentials.accessKeyId).toBe(SESSION.AccessKeyId);
    }
    // The lab's query history, as the session: the shared workgroup's list, a lab query's results, stopping it.
    expect(athena.commandCalls(ListQueryExecutionsCommand).map((c) => c.args[0].input)).toEqual([
      { WorkGroup: 'loglake-01', MaxResults: 5 },
    ]);
    const labQuery = athena.commandCalls(StopQueryExecutionCommand)[0]?.args[0].input.QueryExecutionId;
    expect(athena.commandCalls(GetQueryResultsCommand).map((c) => c.args[0].input)).toContainEqual({
      QueryExecutionId: labQuery,
      MaxResults: 1,
    });
    expect(outcome.checks).toEqual({
      oneHourAnswered: true,
      sameAnswer: true,
      everyWriteRefused: true,
      othersQueriesRefused: true,
      labRanTheSameSql: true,
    });
    expect(outcome.measures).toMatchObject({
      refused: 10,
      refusedByLakeFormation: 6,
      historyRefused: 3,
      analystWorkgroup: 'loglake-01-analyst',
    });
  });

  test('an analyst stack deployed before its own workgroup: skipped, saying to deploy it again', async () => {
    const { analystWorkgroup: _, ...older } = RESOURCES;
    const target = {
      ...buildTarget('aws', older, { region: 'us-east-1' }, [], async () => {}),
      outputsFile: 'outputs.json',
    };
    const ctx = new ExperimentContext(target, FULL_SCALE, {}, join(dir, 'state.json'), () => undefined);
    const outcome = await analystRole.run(ctx);
    await target.close();
    expect(outcome.result).toMatch(
      /^skipped: no analyst\.analyst_workgroup in outputs\.json: .*deploy it again/,
    );
    expect(sts.calls()).toHaveLength(0);
  });

  test('without the analyst unit deployed, the experiment is skipped and says what to deploy', async () => {
    const target = buildTarget(
      'aws',
      { ...RESOURCES, roles: {} },
      { region: 'us-east-1' },
      [],
      async () => {},
    );
    const ctx = new ExperimentContext(target, FULL_SCALE, {}, join(dir, 'state.json'), () => undefined);
    const outcome = await analystRole.run(ctx);
    await target.close();
    expect(outcome.result).toMatch(
      /^skipped: no analyst\.role_arn in .*; deploy the analyst unit and write its outputs$/,
    );
    expect(sts.calls()).toHaveLength(0);
  });
});
