// The contract suite of issue 5: the endpoint driven ONLY through the AWS SDK clients over loopback, on the real
// embedded engine and the real SQL front end.
import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateWorkGroupCommand,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  GetWorkGroupCommand,
  StartQueryExecutionCommand,
  type AthenaClient,
} from '@aws-sdk/client-athena';
import {
  CreateDeliveryStreamCommand,
  DescribeDeliveryStreamCommand,
  PutRecordBatchCommand,
  ServiceUnavailableException,
} from '@aws-sdk/client-firehose';
import {
  CreateNamespaceCommand,
  GetTableMaintenanceJobStatusCommand,
  GetTableMetadataLocationCommand,
  ListTableBucketsCommand,
} from '@aws-sdk/client-s3tables';
import { flushLocalFirehose, localFirehoseStats, runLocalMaintenance } from '../src/admin-client';
import { loadEngineFactories, type EngineFactories } from '../src/engine';
import { startLocalEndpoint, type LocalEndpoint, type LocalEndpointOptions } from '../src/server';
import { FLOW_LOG_V2_SCHEMA } from '@loglake/flowgen';
import { localClients, waitForQuery, type LocalClients } from './support/clients';
import {
  createFlowTable,
  filesUnder,
  icebergStreamInput,
  syntheticFlowRecord as flowRecord,
} from './support/lab-setup';

// The engine and the SQL front end are required: this suite is the proof of issue 5, it never skips.
const factories: EngineFactories = await loadEngineFactories();
if (!factories.createSqlEngine)
  throw new Error(
    '@loglake/lakehouse exports no SQL engine factory (createSqlEngine): the contract suite needs it.',
  );

const BUCKET = 'loglake-lab';
const BUCKET_ARN = `arn:aws:s3tables:us-east-1:123456789012:bucket/${BUCKET}`;
const CATALOG = `s3tablescatalog/${BUCKET}`;

async function query(athena: AthenaClient, sql: string, workgroup = 'loglake-lab') {
  const { QueryExecutionId } = await athena.send(
    new StartQueryExecutionCommand({
      QueryString: sql,
      WorkGroup: workgroup,
      QueryExecutionContext: { Catalog: CATALOG, Database: 'network' },
    }),
  );
  const state = await waitForQuery(athena, QueryExecutionId as string);
  const { QueryExecution } = await athena.send(new GetQueryExecutionCommand({ QueryExecutionId }));
  const rows =
    state === 'SUCCEEDED'
      ? ((await athena.send(new GetQueryResultsCommand({ QueryExecutionId }))).ResultSet?.Rows ?? []).map(
          (r) => r.Data?.map((d) => d.VarCharValue ?? null) ?? [],
        )
      : [];
  return { id: QueryExecutionId as string, state, execution: QueryExecution, rows };
}

async function waitForDelivery(url: string, stream: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const stats = (await localFirehoseStats(url))[stream];
    if (
      stats &&
      stats.pendingRecords === 0 &&
      stats.recordsDelivered + stats.recordsFailed >= stats.recordsReceived
    )
      return;
    if (Date.now() > deadline) throw new Error(`stream ${stream} did not deliver: ${JSON.stringify(stats)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('local endpoint contract (real engine, real SQL front end, SDK clients over loopback)', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let clients: LocalClients;
  const options = (): LocalEndpointOptions => ({
    dataDir: dir,
    engine: factories,
    firehoseBufferIntervalOverrideSeconds: 1,
    athenaMinCutoffBytes: 1,
  });
  const versionToken = async (namespace: string, name: string) =>
    (
      await clients.s3tables.send(
        new GetTableMetadataLocationCommand({ tableBucketARN: BUCKET_ARN, namespace, name }),
      )
    ).versionToken;
  let smokeTestTime = '';
  let countQueryId = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-contract-'));
    endpoint = await startLocalEndpoint(options());
    clients = localClients(endpoint.url);
  });
  afterAll(async () => {
    clients?.destroy();
    await endpoint?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('creates the lab: table bucket, namespaces, table, stream, workgroups', async () => {
    // The lab's own table schema (the records leave version and log_status null).
    const arn = await createFlowTable(
      clients.s3tables,
      BUCKET,
      FLOW_LOG_V2_SCHEMA.map((c) => ({ ...c })),
    );
    await clients.s3tables.send(new CreateNamespaceCommand({ tableBucketARN: arn, namespace: ['ref'] }));
    await clients.firehose.send(
      new CreateDeliveryStreamCommand(
        icebergStreamInput({
          name: 'loglake-flows',
          bucket: BUCKET,
          role: 'loglake-firehose',
          errorBucket: 'loglake-errors',
          errorPrefix: 'firehose-errors/',
        }),
      ),
    );
    const managed = {
      ManagedQueryResultsConfiguration: { Enabled: true },
      EnforceWorkGroupConfiguration: true,
    };
    await clients.athena.send(
      new CreateWorkGroupCommand({
        Name: 'loglake-lab',
        Configuration: { ...managed, BytesScannedCutoffPerQuery: 1_000_000_000 },
      }),
    );
    await clients.athena.send(
      new CreateWorkGroupCommand({
        Name: 'tight',
        Configuration: { ...managed, BytesScannedCutoffPerQuery: 1_000 },
      }),
    );
  });

  test('a 10-record smoke test, then 10,000 records in batches of 500: Athena counts them exactly', async () => {
    // Prepare
    const put = (records: Buffer[]) =>
      clients.firehose.send(
        new PutRecordBatchCommand({
          DeliveryStreamName: 'loglake-flows',
          Records: records.map((Data) => ({ Data })),
        }),
      );

    // Act
    await put(Array.from({ length: 10 }, (_, i) => flowRecord(i)));
    await waitForDelivery(endpoint.url, 'loglake-flows');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    smokeTestTime = new Date().toISOString().replace('T', ' ').replace('Z', '');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // Four calls in flight, as the lab's loader sends (each call waits for its records to be synced in the log).
    const starts = Array.from({ length: 20 }, (_, i) => 10 + i * 500);
    const sender = async () => {
      for (let start = starts.shift(); start !== undefined; start = starts.shift()) {
        const result = await put(Array.from({ length: 500 }, (_, i) => flowRecord((start as number) + i)));
        expect(result.FailedPutCount).toBe(0);
      }
    };
    await Promise.all([sender(), sender(), sender(), sender()]);
    await waitForDelivery(endpoint.url, 'loglake-flows');
    const count = await query(clients.athena, 'SELECT count(*) FROM vpc_flow_logs');
    countQueryId = count.id;
    const stats = (await localFirehoseStats(endpoint.url))['loglake-flows'];

    // Assess
    expect(count.state).toBe('SUCCEEDED');
    expect(count.rows).toEqual([['_col0'], ['10010']]);
    expect(stats?.recordsDelivered).toBe(10_010);
    // ~2.7 MiB of JSON with 1 MiB hints and a 1 s interval: one commit per interval's worth (the smoke test's,
    // then the load's, which spans two intervals only on a very slow machine), not one per MiB.
    expect(stats?.commits).toBe(stats?.flushes);
    expect(stats?.commits).toBeGreaterThanOrEqual(2);
    expect(stats?.commits).toBeLessThanOrEqual(3);
    // The table's own diary agrees: one append snapshot per flush.
    const snapshots = await query(
      clients.athena,
      'SELECT operation, count(*) FROM "vpc_flow_logs$snapshots" GROUP BY operation',
    );
    expect(snapshots.rows.slice(1)).toEqual([['append', String(stats?.commits)]]);
  });

  test('time travel to the smoke test returns its 10 rows', async () => {
    const result = await query(
      clients.athena,
      `SELECT count(*) FROM vpc_flow_logs FOR TIMESTAMP AS OF TIMESTAMP '${smokeTestTime} UTC'`,
    );
    expect(result.state).toBe('SUCCEEDED');
    expect(result.rows[1]).toEqual(['10']);
  });

  test('a duplicate-key MERGE is refused and commits nothing', async () => {
    // Prepare
    const create = await query(
      clients.athena,
      "CREATE TABLE ref.inventory (ip string, host string, tier string) TBLPROPERTIES ('table_type'='ICEBERG')",
    );
    expect(create.state).toBe('SUCCEEDED');
    expect(
      (
        await query(
          clients.athena,
          "INSERT INTO ref.inventory VALUES ('10.0.0.1','web-01','web'), ('10.0.0.2','app-01','app')",
        )
      ).state,
    ).toBe('SUCCEEDED');
    const tokenBefore = await versionToken('ref', 'inventory');

    // Act
    const merge = await query(
      clients.athena,
      `MERGE INTO ref.inventory t USING (SELECT * FROM (VALUES ('10.0.0.1','web-01','batch'), ('10.0.0.1','web-01','db')) AS s(ip, host, tier)) s
       ON t.ip = s.ip WHEN MATCHED THEN UPDATE SET tier = s.tier WHEN NOT MATCHED THEN INSERT VALUES (s.ip, s.host, s.tier)`,
    );
    const tokenAfter = await versionToken('ref', 'inventory');
    const rows = await query(clients.athena, 'SELECT tier FROM ref.inventory ORDER BY ip');

    // Assess
    expect(merge.state).toBe('FAILED');
    expect(merge.execution?.Status?.StateChangeReason).toMatch(/MERGE/i);
    expect(merge.execution?.Status?.AthenaError?.ErrorCategory).toBe(2);
    expect(tokenAfter).toBe(tokenBefore);
    expect(rows.rows.slice(1)).toEqual([['web'], ['app']]);
  });

  test('a query over the workgroup cutoff is cancelled with Athena reason', async () => {
    const result = await query(clients.athena, 'SELECT * FROM vpc_flow_logs', 'tight');
    expect(result.state).toBe('CANCELLED');
    expect(result.execution?.Status?.StateChangeReason).toMatch(/Bytes scanned limit was exceeded/);
  });

  test('malformed records go to the error output, whole, and never into the table', async () => {
    const bad = [
      '{"srcaddr": "10.9.9.9", "bytes": ',
      '[1,2,3]',
      JSON.stringify({ srcaddr: '10.9.9.9', packets: 'lots' }),
    ];
    await clients.firehose.send(
      new PutRecordBatchCommand({
        DeliveryStreamName: 'loglake-flows',
        Records: bad.map((b) => ({ Data: Buffer.from(b) })),
      }),
    );
    await flushLocalFirehose(endpoint.url);
    const files = filesUnder(join(dir, 's3', 'loglake-errors', 'firehose-errors'));
    const lines = files
      .flatMap((f) => readFileSync(f, 'utf8').trim().split('\n'))
      .map((l) => JSON.parse(l) as { errorCode: string; rawData: string });
    const count = await query(
      clients.athena,
      "SELECT count(*) FROM vpc_flow_logs WHERE srcaddr = '10.9.9.9'",
    );
    expect(lines.map((l) => Buffer.from(l.rawData, 'base64').toString()).sort()).toEqual([...bad].sort());
    expect(lines.every((l) => l.errorCode.startsWith('Iceberg.'))).toBe(true);
    expect(count.rows[1]).toEqual(['0']);
    expect((await localFirehoseStats(endpoint.url))['loglake-flows']?.recordsFailed).toBe(3);
  });

  test('maintenance runs the engine jobs and reports them as S3 Tables does', async () => {
    const runs = await runLocalMaintenance(endpoint.url, {
      bucket: BUCKET,
      namespace: 'network',
      table: 'vpc_flow_logs',
    });
    const status = await clients.s3tables.send(
      new GetTableMaintenanceJobStatusCommand({
        tableBucketARN: BUCKET_ARN,
        namespace: 'network',
        name: 'vpc_flow_logs',
      }),
    );
    const compaction = runs.find((r) => r.type === 'icebergCompaction');
    expect(compaction?.status).toBe('Successful');
    // What compaction really did is reported beside the AWS-shaped status (here: 14+ small files rewritten).
    expect(compaction?.compaction?.rewrittenDataFiles).toBeGreaterThan(0);
    expect(runs.find((r) => r.type === 'icebergSnapshotManagement')?.status).toBe('Successful');
    expect(status.status?.icebergCompaction?.status).toBe('Successful');
    const after = await query(clients.athena, 'SELECT count(*) FROM vpc_flow_logs');
    expect(after.rows[1]).toEqual(['10010']);
  });

  test('after a restart everything is still there', async () => {
    clients.destroy();
    await endpoint.stop();
    endpoint = await startLocalEndpoint(options());
    clients = localClients(endpoint.url);
    const buckets = await clients.s3tables.send(new ListTableBucketsCommand({}));
    const stream = await clients.firehose.send(
      new DescribeDeliveryStreamCommand({ DeliveryStreamName: 'loglake-flows' }),
    );
    const workgroup = await clients.athena.send(new GetWorkGroupCommand({ WorkGroup: 'tight' }));
    const old = await clients.athena.send(new GetQueryExecutionCommand({ QueryExecutionId: countQueryId }));
    const count = await query(clients.athena, 'SELECT count(*) FROM vpc_flow_logs');
    expect(buckets.tableBuckets?.map((b) => b.name)).toEqual([BUCKET]);
    expect(stream.DeliveryStreamDescription?.DeliveryStreamStatus).toBe('ACTIVE');
    expect(workgroup.WorkGroup?.Configuration?.BytesScannedCutoffPerQuery).toBe(1_000);
    expect(old.QueryExecution?.Status?.State).toBe('SUCCEEDED');
    expect(count.rows[1]).toEqual(['10010']);
  });

  test('with fault injection on, the SDK sees the errors AWS would send', async () => {
    clients.destroy();
    await endpoint.stop();
    endpoint = await startLocalEndpoint({
      ...options(),
      faults: { throttleShare: 0.5, recordFailureShare: 0.2, seed: 11 },
    });
    clients = localClients(endpoint.url);
    let throttled = 0;
    let failedRecords = 0;
    for (let i = 0; i < 10; i++) {
      try {
        const result = await clients.firehose.send(
          new PutRecordBatchCommand({
            DeliveryStreamName: 'loglake-flows',
            Records: Array.from({ length: 50 }, (_, j) => ({ Data: flowRecord(20_000 + i * 50 + j) })),
          }),
        );
        failedRecords += result.FailedPutCount ?? 0;
        expect(
          result.RequestResponses?.filter((r) => r.ErrorCode === 'ServiceUnavailableException'),
        ).toHaveLength(result.FailedPutCount ?? 0);
      } catch (error) {
        expect(error).toBeInstanceOf(ServiceUnavailableException);
        throttled++;
      }
    }
    await waitForDelivery(endpoint.url, 'loglake-flows');
    const count = await query(clients.athena, 'SELECT count(*) FROM vpc_flow_logs');
    expect(throttled).toBeGreaterThan(0);
    expect(failedRecords).toBeGreaterThan(0);
    expect(Number(count.rows[1]?.[0])).toBe(10_010 + (10 - throttled) * 50 - failedRecords);
  });
});
