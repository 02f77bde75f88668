import { beforeEach, describe, expect, test } from '@jest/globals';
import {
  GetTableMaintenanceJobStatusCommand,
  S3TablesClient,
  type GetTableMaintenanceJobStatusResponse,
} from '@aws-sdk/client-s3tables';
import type { runLocalMaintenance } from '@loglake/local-aws';
import { mockClient } from 'aws-sdk-client-mock';
import { InvalidOptionError } from '../errors';
import type { LabTarget } from '../target/lab-target';
import type { LabResources } from '../target/resources';
import { waitForCompaction } from './compaction-wait';
import type { ExperimentContext } from './context';
import { compactionExperiment } from './part1';
import { judge } from '../article';

const s3tablesMock = mockClient(S3TablesClient);
beforeEach(() => {
  s3tablesMock.reset();
});
const client = new S3TablesClient({ region: 'us-east-1' });
const table = {
  tableBucketARN: 'arn:aws:s3tables:us-east-1:123456789012:bucket/loglake-01-flow-logs',
  namespace: 'network',
  name: 'vpc_flow_logs',
};
const DELETE_AT = new Date('2026-12-01T10:00:00.000Z');
const at = (hhmmss: string) => new Date(`2026-12-01T${hhmmss}.000Z`);
const job = (
  status: 'Not_Yet_Run' | 'Successful' | 'Failed' | 'Disabled',
  lastRunTimestamp?: Date,
  failureMessage?: string,
): GetTableMaintenanceJobStatusResponse => ({
  tableARN: `${table.tableBucketARN}/table/1`,
  status: { icebergCompaction: { status, lastRunTimestamp, failureMessage } },
});

/** A clock that moves only when the code under test sleeps. */
function fakeTime(start = DELETE_AT.getTime() + 5_000) {
  let t = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => t,
    sleep: async (ms: number) => {
      slept.push(ms);
      t += ms;
    },
  };
}

describe('waitForCompaction (AWS: poll until a run after the given time reports)', () => {
  test('a stale Successful is not taken for a run: it polls until a fresh one reports', async () => {
    // Prepare
    s3tablesMock
      .on(GetTableMaintenanceJobStatusCommand)
      .resolvesOnce(job('Successful', at('09:30:00')))
      .resolvesOnce(job('Successful', at('09:30:00')))
      .resolvesOnce(job('Successful', at('10:00:50')));
    const time = fakeTime();
    const lines: string[] = [];
    // Act
    const wait = await waitForCompaction({
      client,
      table,
      since: DELETE_AT,
      timeoutMs: 600_000,
      pollMs: 30_000,
      ...time,
      onWait: (l) => lines.push(l),
    });
    // Assess
    expect(wait).toEqual({
      outcome: 'ran',
      status: 'Successful',
      lastRunAt: at('10:00:50'),
      waitedMs: 60_000,
      polls: 3,
    });
    expect(time.slept).toEqual([30_000, 30_000]);
    expect(lines).toEqual([
      'waiting for S3 Tables compaction: last run 2026-12-01T09:30:00.000Z (Successful) is not after 2026-12-01T10:00:00.000Z; 0 s of 600 s',
      'waiting for S3 Tables compaction: last run 2026-12-01T09:30:00.000Z (Successful) is not after 2026-12-01T10:00:00.000Z; 30 s of 600 s',
    ]);
    expect(s3tablesMock.commandCalls(GetTableMaintenanceJobStatusCommand)[0]!.args[0].input).toEqual(table);
  });

  test('a fresh Failed run ends the wait with its failure message', async () => {
    s3tablesMock
      .on(GetTableMaintenanceJobStatusCommand)
      .resolves(job('Failed', at('10:00:03'), 'Internal error'));
    const time = fakeTime();
    const wait = await waitForCompaction({ client, table, since: DELETE_AT, timeoutMs: 600_000, ...time });
    expect(wait).toMatchObject({
      outcome: 'ran',
      status: 'Failed',
      failureMessage: 'Internal error',
      polls: 1,
    });
    expect(time.slept).toEqual([]);
  });

  test('no run within the bound: times out after the last poll at the deadline, never claiming a run', async () => {
    // Prepare
    s3tablesMock.on(GetTableMaintenanceJobStatusCommand).resolves(job('Successful', at('09:30:00')));
    const time = fakeTime();
    // Act
    const wait = await waitForCompaction({
      client,
      table,
      since: DELETE_AT,
      timeoutMs: 100_000,
      pollMs: 30_000,
      ...time,
    });
    // Assess
    expect(wait).toMatchObject({ outcome: 'timed-out', status: 'Successful', waitedMs: 100_000, polls: 5 });
    expect(time.slept).toEqual([30_000, 30_000, 30_000, 10_000]);
  });

  test('the same run counts or not by when it ran against the DELETE (the check can flip)', async () => {
    s3tablesMock.on(GetTableMaintenanceJobStatusCommand).resolves(job('Successful', at('10:01:00')));
    const read = (since: Date) => waitForCompaction({ client, table, since, timeoutMs: 0, ...fakeTime() });
    expect((await read(DELETE_AT)).outcome).toBe('ran');
    expect((await read(at('10:02:00'))).outcome).toBe('timed-out');
  });

  test('Not_Yet_Run keeps waiting; Disabled stops at once, as no run will come', async () => {
    s3tablesMock
      .on(GetTableMaintenanceJobStatusCommand)
      .resolvesOnce(job('Not_Yet_Run'))
      .resolvesOnce(job('Disabled'));
    const time = fakeTime();
    const wait = await waitForCompaction({ client, table, since: DELETE_AT, timeoutMs: 600_000, ...time });
    expect(wait).toMatchObject({ outcome: 'disabled', status: 'Disabled', polls: 2 });
    expect(time.slept).toEqual([30_000]);
  });

  test('a negative or non-finite bound is refused, naming the value', async () => {
    const refused = waitForCompaction({ client, table, since: DELETE_AT, timeoutMs: -1 });
    await expect(refused).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(refused).rejects.toThrow(/compaction wait -1 ms must be a finite number ≥ 0/);
    expect(s3tablesMock.commandCalls(GetTableMaintenanceJobStatusCommand)).toHaveLength(0);
  });
});

describe('the "Wait for compaction" experiment', () => {
  const resources = {
    region: 'us-east-1',
    accountId: '123456789012',
    tableBucketName: 'loglake-01-flow-logs',
    namespace: 'network',
    table: 'vpc_flow_logs',
  } as LabResources;
  function context(target: Partial<LabTarget>, compactionMs = 300_000) {
    const lines: string[] = [];
    let files = 0;
    const ctx = {
      target: { resources, s3tables: client, ...target },
      // No bursts: this is about the wait, not the small files.
      scale: { bursts: 0 },
      generator: () => undefined,
      state: {},
      waits: { compactionMs },
      log: (l: string) => lines.push(l),
      snapshots: async () => [],
      // network/files before the maintenance runs, then after: 10 data and 3 delete files become 1.
      rows: async () =>
        files++ === 0
          ? [
              { content: '0', files: '10' },
              { content: '1', files: '3' },
            ]
          : [{ content: '0', files: '1' }],
    } as unknown as ExperimentContext;
    return { ctx, lines };
  }

  const status = (measures: Record<string, string | number>) =>
    judge('compaction', measures, { target: 'aws', records: 50_000 }).comparisons.find(
      (c) => c.id === 'status',
    );

  test('aws, no run in time: the row says it timed out and the status differs from the article', async () => {
    // Prepare
    s3tablesMock.on(GetTableMaintenanceJobStatusCommand).resolves(job('Successful', at('09:30:00')));
    const { ctx, lines } = context({ kind: 'aws' }, 60_000);
    // Act
    const outcome = await compactionExperiment(fakeTime()).run(ctx);
    // Assess
    expect(outcome.result).toBe(
      '0 bursts → 0 small commits; no compaction run after the bursts within 1 min (job status Successful, last run ' +
        '2026-12-01T09:30:00.000Z; raise --compaction-wait); $snapshots shows no rewrite',
    );
    expect(status(outcome.measures)).toMatchObject({ verdict: 'differs', ours: 'timed out' });
    expect(outcome.measures).toMatchObject({ jobStatus: 'timed out', runs: 0, waitedSeconds: 60 });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^ {2}waiting for S3 Tables compaction: /);
  });

  test('aws: a run after the DELETE but before the last burst is not the one that saw the small files', async () => {
    // The bursts are sent in this experiment, after the DELETE: the wait starts when the last one is sent.
    s3tablesMock.on(GetTableMaintenanceJobStatusCommand).resolves(job('Successful', at('10:00:02')));
    const outcome = await compactionExperiment(fakeTime()).run(context({ kind: 'aws' }, 60_000).ctx);
    expect(outcome.measures).toMatchObject({ jobStatus: 'timed out', runs: 0 });
  });

  test("aws, a fresh Successful run: the status is the article's", async () => {
    s3tablesMock
      .on(GetTableMaintenanceJobStatusCommand)
      .resolvesOnce(job('Not_Yet_Run'))
      .resolvesOnce(job('Successful', at('10:00:20')));
    const outcome = await compactionExperiment(fakeTime()).run(context({ kind: 'aws' }).ctx);
    expect(outcome.result).toBe(
      '0 bursts → 0 small commits; a compaction run after the bursts reported Successful (waited 30 s); ' +
        '$snapshots shows no rewrite',
    );
    expect(status(outcome.measures)?.verdict).toBe('same');
    expect(outcome.measures).toMatchObject({
      jobStatus: 'Successful',
      runs: 1,
      lastRunAt: '2026-12-01T10:00:20.000Z',
    });
  });

  test('aws, a fresh Failed run: reported with its message, the status differs', async () => {
    s3tablesMock
      .on(GetTableMaintenanceJobStatusCommand)
      .resolves(job('Failed', at('10:00:20'), 'Internal error'));
    const outcome = await compactionExperiment(fakeTime()).run(context({ kind: 'aws' }).ctx);
    expect(outcome.result).toMatch(/reported Failed .* \(failure: Internal error\)$/);
    expect(status(outcome.measures)?.verdict).toBe('differs');
  });

  test('local: asks the endpoint for two maintenance runs and reads the status once, without polling', async () => {
    // Prepare
    s3tablesMock.on(GetTableMaintenanceJobStatusCommand).resolves(job('Successful', at('09:00:00')));
    const asked: unknown[] = [];
    const runMaintenance = (async (url, select) => {
      asked.push([url, select]);
      return [
        { type: 'icebergCompaction', status: 'Successful' },
        { type: 'icebergSnapshotManagement', status: 'Successful' },
      ];
    }) as typeof runLocalMaintenance;
    const time = fakeTime();
    // Act
    const outcome = await compactionExperiment({ runMaintenance, ...time }).run(
      context({ kind: 'local', localUrl: 'http://127.0.0.1:4566' }).ctx,
    );
    // Assess
    expect(outcome.result).toBe(
      '0 bursts → 0 small commits; 2 runs reported Successful; $snapshots shows no rewrite',
    );
    expect(outcome.measures).toEqual({
      bursts: 0,
      burstCommits: 0,
      jobStatus: 'Successful',
      runs: 2,
      replaceSnapshots: 0,
      // The live files before and after, for the report's picture.
      dataFilesBefore: 10,
      deleteFilesBefore: 3,
      dataFilesAfter: 1,
      deleteFilesAfter: 0,
    });
    const select = { bucket: 'loglake-01-flow-logs', namespace: 'network', table: 'vpc_flow_logs' };
    expect(asked).toEqual([
      ['http://127.0.0.1:4566', select],
      ['http://127.0.0.1:4566', select],
    ]);
    expect(s3tablesMock.commandCalls(GetTableMaintenanceJobStatusCommand)).toHaveLength(1);
    expect(time.slept).toEqual([]);
  });
});
