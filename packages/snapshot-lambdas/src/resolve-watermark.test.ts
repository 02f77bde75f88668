// Pins the request shapes of the pre-processor (mocked SDK); the end-to-end behaviour against the local endpoint
// is in pipeline.test.ts.
import { describe, test, expect, beforeEach } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import {
  AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import { GlueClient, GetTableCommand } from '@aws-sdk/client-glue';
import { resolveWatermark, parseAthenaTimestamp } from './resolve-watermark';
import { InvalidParameterError, NoCompleteDayError } from './errors';
import type { SnapshotMetricValues } from './metrics';
import { athenaResult, recordingMetrics, testConfig } from '../test/fixtures';

const athena = mockClient(AthenaClient);
const glue = mockClient(GlueClient);

function hoursResult(rows: [string, number, number, string][]) {
  return athenaResult(
    ['day', 'hour', 'records', 'last_record'].map((name) => [name, 'varchar'] as const),
    rows.map((r) => r.map(String)),
  );
}

const day = (d: string, hours: number[]) =>
  hours.map((h): [string, number, number, string] => [
    d,
    h,
    3,
    `${d} ${String(h).padStart(2, '0')}:58:00.000`,
  ]);

function deps(published: string | null, metricsSeen: SnapshotMetricValues[] = []) {
  glue.on(GetTableCommand).resolves({
    Table: {
      Name: 'vpc_flow_logs_daily',
      DatabaseName: 'loglake_01_snapshots',
      VersionId: '3',
      StorageDescriptor: { Location: 's3://loglake-01-snapshots/vpc_flow_logs_daily/initial/' },
      Parameters: published ? { 'loglake.snapshot.watermark': published } : {},
    },
  });
  return {
    athena: new AthenaClient({ region: 'us-east-1' }),
    glue: new GlueClient({ region: 'us-east-1' }),
    config: testConfig(),
    metrics: recordingMetrics(metricsSeen),
    now: () => new Date('2026-11-28T06:00:00Z'),
  };
}

beforeEach(() => {
  athena.reset();
  glue.reset();
  athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-1' });
  athena.on(GetQueryExecutionCommand).resolves({
    QueryExecution: { Status: { State: 'SUCCEEDED' }, Statistics: { DataScannedInBytes: 4096 } },
  });
});

describe('resolveWatermark', () => {
  test('asks Athena in the lab workgroup for the hours after the published day and returns the newest complete one', async () => {
    // Prepare
    athena
      .on(GetQueryResultsCommand)
      .resolves(
        hoursResult([...day('2026-11-27', [...Array(24).keys()]), ...day('2026-11-28', [0, 1, 2, 3, 4, 5])]),
      );
    const seen: SnapshotMetricValues[] = [];
    // Act
    const out = await resolveWatermark(deps('2026-11-26', seen), { snapshot: 'vpc_flow_logs_daily' });
    // Assess
    expect(out).toMatchObject({
      watermark: '2026-11-27',
      lastPublished: '2026-11-26',
      alreadyPublished: false,
      bytesScanned: 4096,
    });
    const start = athena.commandCalls(StartQueryExecutionCommand)[0]?.args[0].input;
    expect(start?.WorkGroup).toBe('loglake-01-lab');
    expect(start?.QueryString).toContain(`"start_time" >= TIMESTAMP '2026-11-27 00:00:00.000'`);
    expect(glue.commandCalls(GetTableCommand)[0]?.args[0].input).toEqual({
      DatabaseName: 'loglake_01_snapshots',
      Name: 'vpc_flow_logs_daily',
    });
    expect(seen).toEqual([{ watermarkLagSeconds: 86_400 + 6 * 3600 }]);
  });

  test('a partial day fails with NoCompleteDayError naming the missing hours', async () => {
    athena
      .on(GetQueryResultsCommand)
      .resolves(hoursResult([...day('2026-11-27', [...Array(14).keys()]), ...day('2026-11-28', [0, 1])]));
    await expect(resolveWatermark(deps('2026-11-26'), { snapshot: 'vpc_flow_logs_daily' })).rejects.toThrow(
      NoCompleteDayError,
    );
    await expect(resolveWatermark(deps('2026-11-26'), { snapshot: 'vpc_flow_logs_daily' })).rejects.toThrow(
      /hours missing 14-23/,
    );
  });

  test.each([
    { snapshot: 'vpc_flow_logs_daily', date: "2026-11-27'; DROP TABLE x; --" },
    { snapshot: 'vpc_flow_logs_daily; DROP TABLE x', date: null },
    { snapshot: 'other', date: null },
  ])('refuses %p before any query is sent', async (event) => {
    await expect(resolveWatermark(deps(null), event)).rejects.toThrow(InvalidParameterError);
    expect(athena.commandCalls(StartQueryExecutionCommand)).toHaveLength(0);
  });

  test('parses the timestamp text Athena and the local engine return', () => {
    expect(parseAthenaTimestamp('2026-11-27 23:59:59.123').toISOString()).toBe('2026-11-27T23:59:59.123Z');
    expect(parseAthenaTimestamp('2026-11-27 23:59:59').toISOString()).toBe('2026-11-27T23:59:59.000Z');
    expect(parseAthenaTimestamp('2026-11-27T23:59:59.123456Z').toISOString()).toBe(
      '2026-11-27T23:59:59.123Z',
    );
  });
});
