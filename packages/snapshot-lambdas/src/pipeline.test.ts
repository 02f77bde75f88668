// The snapshot pipeline end to end, offline: the real state-machine definition run by aws-local-stepfunctions,
// both handlers in-process, every AWS call through the SDK clients to the local endpoint (real engine), the SNS
// publish captured. This is the stale-snapshot incident as a regression test.
import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateWorkGroupCommand } from '@aws-sdk/client-athena';
import { GetTableCommand } from '@aws-sdk/client-glue';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { startLocalEndpoint, type LocalEndpoint } from '@loglake/local-aws';
import { runQuery, rowObjects } from '@loglake/athena-sql';
import { PARAM_WATERMARK } from './glue-table';
import {
  flowRows,
  hoursOf,
  loadFlows,
  localHandlers,
  localSnapshotClients,
  provisionLocalSnapshots,
  type LocalClients,
} from './local-lab';
import { runStateMachineLocally } from './local-run';
import type { SnapshotMetricValues } from './metrics';
import { EXAMPLE_ARNS, snapshotStateMachine } from './state-machine';
import { flowLogsDaily, recordingMetrics, testConfig } from '../test/fixtures';

const config = testConfig({ queryTimeoutMs: 60_000 });
const definition = snapshotStateMachine(EXAMPLE_ARNS);
const PER_HOUR = 4;

describe('daily snapshot pipeline offline (the stale-snapshot incident)', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let clients: LocalClients;
  const metrics: SnapshotMetricValues[] = [];
  const sink = recordingMetrics(metrics);
  const handlers = () =>
    localHandlers(clients, config, { metrics: sink, now: () => new Date('2026-11-28T06:00:00Z') });
  const run = (input: Record<string, string | null> = {}) =>
    runStateMachineLocally(definition, handlers(), { snapshot: 'vpc_flow_logs_daily', ...input });
  const published = async () =>
    (
      await clients.glue.send(
        new GetTableCommand({ DatabaseName: config.snapshotDatabase, Name: 'vpc_flow_logs_daily' }),
      )
    ).Table;
  const runs = async () =>
    (
      (
        await clients.s3.send(
          new ListObjectsV2Command({
            Bucket: config.snapshotBucket,
            Prefix: 'vpc_flow_logs_daily/run=',
            Delimiter: '/',
          }),
        )
      ).CommonPrefixes ?? []
    ).map((p) => p.Prefix);
  const readSnapshot = async () =>
    rowObjects(
      await runQuery(
        { client: clients.athena, workgroup: config.workgroup },
        'SELECT count(*) AS n, CAST(min(snapshot_watermark) AS varchar) AS lo, CAST(max(snapshot_watermark) AS varchar) AS hi FROM "loglake_01_snapshots"."vpc_flow_logs_daily"',
        {
          timeoutMs: 60_000,
          initialPollMs: 10,
          maxPollMs: 50,
          purpose: 'reader',
        },
      ),
    )[0];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'snapshot-pipeline-'));
    endpoint = await startLocalEndpoint({ dataDir: dir });
    clients = localSnapshotClients(endpoint.url);
    await provisionLocalSnapshots(clients, config);
    // Day 26 complete; day 27 loaded up to 13:59 — its rest is "still landing" when the run starts.
    await loadFlows(
      clients,
      config,
      flowLogsDaily,
      flowRows([...hoursOf('2026-11-26'), ...hoursOf('2026-11-27', [...Array(14).keys()])], PER_HOUR),
    );
  });
  afterAll(async () => {
    clients?.destroy();
    await endpoint?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("in a workgroup that enforces its settings (the lab's), the CTAS is refused as Athena refuses it and nothing is published", async () => {
    // Prepare: a workgroup shaped like the table-bucket stack's (enforced, managed results)
    await clients.athena.send(
      new CreateWorkGroupCommand({
        Name: 'loglake-01-enforcing',
        Configuration: {
          EnforceWorkGroupConfiguration: true,
          BytesScannedCutoffPerQuery: 1024 ** 3,
          ManagedQueryResultsConfiguration: { Enabled: true },
        },
      }),
    );
    const enforcing = { ...config, workgroup: 'loglake-01-enforcing' };
    const before = await published();
    // Act
    const result = await runStateMachineLocally(
      definition,
      localHandlers(clients, enforcing, { metrics: sink, now: () => new Date('2026-11-28T06:00:00Z') }),
      { snapshot: 'vpc_flow_logs_daily' },
    );
    // Assess
    expect(result.status).toBe('FAILED');
    expect(result.alerts[0]?.subject).toBe('loglake snapshot failed in BuildSnapshot');
    expect(result.alerts[0]?.message).toContain(
      "submitted with an 'external_location' property to an Athena Workgroup that enforces a centralized output location",
    );
    expect((await published())?.StorageDescriptor?.Location).toBe(before?.StorageDescriptor?.Location);
    expect(await runs()).toEqual([]);
  });

  test('first run publishes the newest complete day (26th) as Parquet under a new run prefix', async () => {
    const result = await run();
    expect(result.status).toBe('SUCCEEDED');
    expect(result.alerts).toEqual([]);
    const table = await published();
    expect(table?.Parameters?.[PARAM_WATERMARK]).toBe('2026-11-26');
    expect(table?.StorageDescriptor?.Location).toMatch(
      /^s3:\/\/loglake-01-snapshots\/vpc_flow_logs_daily\/run=2026-11-26-[a-z0-9-]+\/$/,
    );
    expect(await readSnapshot()).toEqual({ n: String(24 * PER_HOUR), lo: '2026-11-26', hi: '2026-11-26' });
    const prefix = (table?.StorageDescriptor?.Location ?? '').replace('s3://loglake-01-snapshots/', '');
    const files =
      (await clients.s3.send(new ListObjectsV2Command({ Bucket: config.snapshotBucket, Prefix: prefix })))
        .Contents ?? [];
    expect(files.length).toBeGreaterThan(0);
    const first = await clients.s3.send(
      new GetObjectCommand({ Bucket: config.snapshotBucket, Key: files[0]?.Key }),
    );
    expect(
      Buffer.from(await first.Body!.transformToByteArray())
        .subarray(0, 4)
        .toString(),
    ).toBe('PAR1');
  });

  test('the incident: day 27 partly loaded and day 28 arriving → nothing published, the alert names the missing hours', async () => {
    // Prepare: today's first records land, so day 27 "looks" over by the calendar and by time
    await loadFlows(clients, config, flowLogsDaily, flowRows(hoursOf('2026-11-28', [0, 1]), PER_HOUR, 7));
    const before = await published();
    // Act
    const result = await run();
    // Assess
    expect(result.status).toBe('FAILED');
    expect(result.alerts).toHaveLength(1);
    const message = result.alerts[0]?.message ?? '';
    expect(result.alerts[0]?.subject).toBe('loglake snapshot failed in ResolveWatermark');
    expect(message).toContain('Error: NoCompleteDayError');
    expect(message).toContain('2026-11-27: hours missing 14-23 (10 of 24; present 00-13)');
    expect(message).toContain('last record 2026-11-28T01:');
    const after = await published();
    expect(after?.VersionId).toBe(before?.VersionId);
    expect(after?.StorageDescriptor?.Location).toBe(before?.StorageDescriptor?.Location);
    expect((await readSnapshot())?.hi).toBe('2026-11-26');
  });

  test('the rest of day 27 lands → the next run publishes it; readers during the publish see old or new, never a mix or nothing', async () => {
    await loadFlows(
      clients,
      config,
      flowLogsDaily,
      flowRows(hoursOf('2026-11-27', [...Array(24).keys()].slice(14)), PER_HOUR, 3),
    );
    const seen: Record<string, string | null>[] = [];
    let publishing = true;
    const reader = (async () => {
      while (publishing) {
        const row = await readSnapshot();
        if (row) seen.push(row);
      }
    })();
    const result = await run();
    publishing = false;
    await reader;
    expect(result.status).toBe('SUCCEEDED');
    expect((await published())?.Parameters?.[PARAM_WATERMARK]).toBe('2026-11-27');
    const final = await readSnapshot();
    expect(final).toEqual({ n: String(24 * PER_HOUR), lo: '2026-11-27', hi: '2026-11-27' });
    seen.push(final as Record<string, string | null>);
    const allowed = [
      JSON.stringify({ n: String(24 * PER_HOUR), lo: '2026-11-26', hi: '2026-11-26' }),
      JSON.stringify(final),
    ];
    expect(seen.length).toBeGreaterThan(1);
    for (const row of seen) expect(allowed).toContain(JSON.stringify(row));
    expect(metrics.some((m) => m.rows === 24 * PER_HOUR && (m.bytesScanned ?? 0) > 0)).toBe(true);
  });

  test('running again changes nothing: the scheduled run fails loudly (day 28 incomplete); the same date is a no-op', async () => {
    const before = await published();
    const runsBefore = await runs();
    const again = await run();
    expect(again.status).toBe('FAILED');
    expect(again.alerts[0]?.message).toContain('2026-11-28: hours missing 02-23');
    const same = await run({ date: '2026-11-27' });
    expect(same.status).toBe('SUCCEEDED');
    expect(same.output).toMatchObject({ build: { published: false, watermark: '2026-11-27' } });
    const after = await published();
    expect(after?.VersionId).toBe(before?.VersionId);
    expect(after?.StorageDescriptor?.Location).toBe(before?.StorageDescriptor?.Location);
    expect(await runs()).toEqual(runsBefore);
    expect(runsBefore).toHaveLength(2);
  });

  test('a date carrying SQL is refused before any query is sent', async () => {
    const result = await run({ date: "2026-11-27' OR '1'='1" });
    expect(result.status).toBe('FAILED');
    expect(result.alerts[0]?.message).toContain('Error: InvalidParameterError');
  });
});
