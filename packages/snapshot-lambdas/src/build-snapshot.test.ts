// Pins the CTAS step's request sequence (mocked SDK): build under a new prefix, count, compare-and-swap publish,
// drop staging, prune old runs. End-to-end behaviour against the local endpoint is in pipeline.test.ts.
import { describe, test, expect, beforeEach } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import {
  AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import {
  ConcurrentModificationException,
  GlueClient,
  GetTableCommand,
  UpdateTableCommand,
  DeleteTableCommand,
} from '@aws-sdk/client-glue';
import { S3Client, ListObjectsV2Command, DeleteObjectsCommand } from '@aws-sdk/client-s3';
import { buildSnapshot, makeRunId } from './build-snapshot';
import { EmptySnapshotError, PublishError } from './errors';
import type { SnapshotMetricValues } from './metrics';
import { athenaResult, recordingMetrics, testConfig } from '../test/fixtures';

const athena = mockClient(AthenaClient);
const glue = mockClient(GlueClient);
const s3 = mockClient(S3Client);

function countResult(n: number) {
  return athenaResult(
    [
      ['row_count', 'bigint'],
      ['watermarks', 'bigint'],
    ],
    [[String(n), '1']],
  );
}

function deps(published: string | null, seen: SnapshotMetricValues[] = []) {
  glue.on(GetTableCommand).resolves({
    Table: {
      Name: 'vpc_flow_logs_daily',
      VersionId: '7',
      TableType: 'EXTERNAL_TABLE',
      StorageDescriptor: {
        Location: 's3://loglake-01-snapshots/vpc_flow_logs_daily/run=2026-11-26-20261127t060000z-aaaaaa/',
        Columns: [],
      },
      Parameters: {
        classification: 'parquet',
        ...(published ? { 'loglake.snapshot.watermark': published } : {}),
      },
    },
  });
  return {
    athena: new AthenaClient({ region: 'us-east-1' }),
    glue: new GlueClient({ region: 'us-east-1' }),
    s3: new S3Client({ region: 'us-east-1' }),
    config: testConfig(),
    metrics: recordingMetrics(seen),
    now: () => new Date('2026-11-28T06:15:00Z'),
    nonce: () => 'bbbbbb',
  };
}

beforeEach(() => {
  athena.reset();
  glue.reset();
  s3.reset();
  athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-1' });
  athena.on(GetQueryExecutionCommand).resolves({
    QueryExecution: { Status: { State: 'SUCCEEDED' }, Statistics: { DataScannedInBytes: 1000 } },
  });
  athena.on(GetQueryResultsCommand).resolves(countResult(42));
  s3.on(ListObjectsV2Command, { Delimiter: '/' }).resolves({
    CommonPrefixes: [
      { Prefix: 'vpc_flow_logs_daily/run=2026-11-25-20261126t060000z-cccccc/' },
      { Prefix: 'vpc_flow_logs_daily/run=2026-11-26-20261127t060000z-aaaaaa/' },
      { Prefix: 'vpc_flow_logs_daily/run=2026-11-27-20261128t061500z-bbbbbb/' },
    ],
  });
  s3.on(ListObjectsV2Command, { Prefix: 'vpc_flow_logs_daily/run=2026-11-25-20261126t060000z-cccccc/' })
    .resolvesOnce({
      Contents: [{ Key: 'vpc_flow_logs_daily/run=2026-11-25-20261126t060000z-cccccc/part-0.parquet' }],
    })
    .resolves({ Contents: [] });
  s3.on(DeleteObjectsCommand).resolves({});
});

describe('buildSnapshot', () => {
  test('writes a new run, publishes it with a compare-and-swap UpdateTable, keeps runsToKeep runs', async () => {
    const seen: SnapshotMetricValues[] = [];
    // Act
    const out = await buildSnapshot(deps('2026-11-26', seen), {
      snapshot: 'vpc_flow_logs_daily',
      watermark: '2026-11-27',
    });
    // Assess
    const location = 's3://loglake-01-snapshots/vpc_flow_logs_daily/run=2026-11-27-20261128t061500z-bbbbbb/';
    expect(out).toMatchObject({ published: true, location, rows: 42, bytesScanned: 2000 });
    const [ctas, count] = athena.commandCalls(StartQueryExecutionCommand).map((c) => c.args[0].input);
    expect(ctas?.WorkGroup).toBe('loglake-01-lab');
    expect(ctas?.QueryString).toContain(`external_location = '${location}'`);
    expect(count?.QueryString).toContain('"vpc_flow_logs_daily__run_20261128t061500z_bbbbbb"');
    const update = glue.commandCalls(UpdateTableCommand)[0]?.args[0].input;
    expect(update?.VersionId).toBe('7');
    expect(update?.TableInput?.StorageDescriptor?.Location).toBe(location);
    expect(update?.TableInput?.Parameters).toMatchObject({
      classification: 'parquet',
      'loglake.snapshot.watermark': '2026-11-27',
      'loglake.snapshot.rows': '42',
    });
    expect(glue.commandCalls(DeleteTableCommand)[0]?.args[0].input.Name).toBe(
      'vpc_flow_logs_daily__run_20261128t061500z_bbbbbb',
    );
    // runsToKeep 2: the new run and the one it replaced stay; the oldest goes.
    expect(out.deletedRuns).toEqual([
      's3://loglake-01-snapshots/vpc_flow_logs_daily/run=2026-11-25-20261126t060000z-cccccc/',
    ]);
    expect(seen[0]).toMatchObject({ rows: 42, bytesScanned: 2000, watermarkLagSeconds: 6.25 * 3600 });
  });

  test('the published watermark again changes nothing and sends no query', async () => {
    const out = await buildSnapshot(deps('2026-11-27'), {
      snapshot: 'vpc_flow_logs_daily',
      watermark: '2026-11-27',
    });
    expect(out.published).toBe(false);
    expect(athena.commandCalls(StartQueryExecutionCommand)).toHaveLength(0);
    expect(glue.commandCalls(UpdateTableCommand)).toHaveLength(0);
  });

  test('an empty result is not published', async () => {
    athena.on(GetQueryResultsCommand).resolves(countResult(0));
    s3.on(ListObjectsV2Command).resolves({ Contents: [] });
    await expect(
      buildSnapshot(deps('2026-11-26'), { snapshot: 'vpc_flow_logs_daily', watermark: '2026-11-27' }),
    ).rejects.toThrow(EmptySnapshotError);
    expect(glue.commandCalls(UpdateTableCommand)).toHaveLength(0);
  });

  test('a failed publish leaves nothing behind: the staging entry is dropped and the run files deleted', async () => {
    glue
      .on(UpdateTableCommand)
      .rejects(Object.assign(new Error('boom'), { name: 'InternalServiceException' }));
    s3.on(ListObjectsV2Command, { Prefix: 'vpc_flow_logs_daily/run=2026-11-27-20261128t061500z-bbbbbb/' })
      .resolvesOnce({
        Contents: [{ Key: 'vpc_flow_logs_daily/run=2026-11-27-20261128t061500z-bbbbbb/part-0.parquet' }],
      })
      .resolves({ Contents: [] });
    await expect(
      buildSnapshot(deps('2026-11-26'), { snapshot: 'vpc_flow_logs_daily', watermark: '2026-11-27' }),
    ).rejects.toThrow('boom');
    expect(glue.commandCalls(DeleteTableCommand)[0]?.args[0].input.Name).toBe(
      'vpc_flow_logs_daily__run_20261128t061500z_bbbbbb',
    );
    expect(s3.commandCalls(DeleteObjectsCommand)[0]?.args[0].input.Delete?.Objects).toEqual([
      { Key: 'vpc_flow_logs_daily/run=2026-11-27-20261128t061500z-bbbbbb/part-0.parquet' },
    ]);
  });

  test('losing the compare-and-swap is a PublishError', async () => {
    glue
      .on(UpdateTableCommand)
      .rejects(new ConcurrentModificationException({ message: 'version mismatch', $metadata: {} }));
    await expect(
      buildSnapshot(deps('2026-11-26'), { snapshot: 'vpc_flow_logs_daily', watermark: '2026-11-27' }),
    ).rejects.toThrow(PublishError);
  });

  test('run ids sort by build time', () => {
    expect(makeRunId(new Date('2026-11-28T06:15:00.123Z'), 'abc123')).toBe('20261128t061500z-abc123');
  });
});
