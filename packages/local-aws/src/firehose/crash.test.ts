// The crash test: the endpoint runs as a process of its own and is killed with SIGKILL at many points — while
// accepting, while writing data files, after the Iceberg commit before the log is settled, after the error output,
// during replay — and started again on the same data directory each time. Then: every acknowledged record is in
// the table (or, if it does not fit, in the error output) exactly once, nothing unanswered is there twice, the log
// reports no damage but the tails of unfinished writes, and icebird (a public Iceberg reader) reads the table.
// CI runs each kill point once; LOGLAKE_CRASH_ROUNDS=<n> runs the whole list n times (LOGLAKE_CRASH_BATCHES
// batches of 250 records per kill, default 6).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateDeliveryStreamCommand } from '@aws-sdk/client-firehose';
import { GetTableCommand } from '@aws-sdk/client-s3tables';
import { readLatestWithIcebird } from '@loglake/lakehouse/testing';
import { flushLocalFirehose, localFirehoseStats } from '../admin-client';
import { localClients } from '../../test/support/clients';
import { startEndpointProcess, type EndpointProcess } from '../../test/support/endpoint-process';
import { exactlyOnceViolations, Producer } from '../../test/support/exactly-once';
import { createFlowTable, filesUnder, icebergStreamInput } from '../../test/support/lab-setup';

const ROUNDS = Number(process.env.LOGLAKE_CRASH_ROUNDS ?? 1);
const BATCHES = Number(process.env.LOGLAKE_CRASH_BATCHES ?? 6);
const STREAM = 'crash-flows';
const BUCKET = 'crash-lab';

interface Kill {
  name: string;
  /** LOGLAKE_CRASH_AT for the process: it kills itself there. */
  crashAt?: string;
  /** Wait until what the log held is delivered before sending (the kill then hits new records, not replay). */
  afterReplay?: boolean;
  /** Calls of 250 records to send (default LOGLAKE_CRASH_BATCHES). */
  batches?: number;
  /** Or the test kills it: after this many answered calls, or this long after start (during replay). */
  afterAnswers?: number;
  afterMs?: number;
  /** Ask for a flush after sending (what reaches the commit-side crash points). */
  flush?: boolean;
}

// Each start first replays what the previous kill left: the kills without `afterReplay` land during replay.
const KILLS: Kill[] = [
  { name: 'while accepting', afterAnswers: 2 },
  { name: 'replay: with the commit published, before the version hint', crashAt: 'after-publish' },
  { name: 'replay: after the commit, before the error output', crashAt: 'firehose-after-commit' },
  { name: 'when idle, everything delivered', afterReplay: true, flush: true, batches: 2 },
  {
    name: 'data files written, commit not published',
    afterReplay: true,
    crashAt: 'before-publish',
    flush: true,
  },
  { name: 'when idle, again', afterReplay: true, batches: 0 },
  {
    name: 'after the commit, before the error output',
    afterReplay: true,
    crashAt: 'firehose-after-commit',
    flush: true,
  },
  { name: 'replay: after the error output, before the log settles', crashAt: 'firehose-before-settle' },
  { name: 'during replay, at a random moment', afterMs: 100 + Math.round(Math.random() * 300), batches: 0 },
  { name: 'when idle, once more', afterReplay: true, batches: 0 },
  {
    name: 'after the error output, before the log settles',
    afterReplay: true,
    crashAt: 'firehose-before-settle',
    flush: true,
  },
  { name: 'while accepting, again', afterAnswers: 4 },
];

describe('kill -9 at many points, restart on the same data directory', () => {
  let dir: string;
  const producer = new Producer();
  const damage: string[] = [];
  const endings: { name: string; signal: string | null }[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-crash-'));
    const first = await startEndpointProcess(dir, { bufferIntervalSeconds: 1 });
    const clients = localClients(first.url);
    await createFlowTable(clients.s3tables, BUCKET, [
      { name: 'id', type: 'long', required: true },
      { name: 'srcaddr', type: 'string' },
      { name: 'start_time', type: 'timestamp', required: true },
    ]);
    await clients.firehose.send(
      new CreateDeliveryStreamCommand(
        icebergStreamInput({ name: STREAM, bucket: BUCKET, role: 'crash', errorBucket: 'crash-errors' }),
      ),
    );
    clients.destroy();
    first.child.kill('SIGTERM');
    await first.exited;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function killAt(kill: Kill): Promise<void> {
    const endpoint = await startEndpointProcess(dir, {
      bufferIntervalSeconds: 1,
      env: kill.crashAt ? { LOGLAKE_CRASH_AT: kill.crashAt } : {},
    });
    const sigkill = () => endpoint.child.kill('SIGKILL');
    if (kill.afterMs !== undefined) setTimeout(sigkill, kill.afterMs);
    if (kill.afterReplay) await delivered(endpoint.url);
    await producer.send(endpoint.url, STREAM, kill.batches ?? BATCHES, {
      onAck: (answered) => {
        if (answered === kill.afterAnswers) setTimeout(sigkill, Math.random() * 20);
      },
    });
    if (kill.flush) await flushLocalFirehose(endpoint.url).catch(() => undefined);
    if (kill.afterReplay && !kill.crashAt) await delivered(endpoint.url);
    // Killed from outside if its crash point was not reached (it is then an arbitrary moment).
    sigkill();
    endings.push({ name: kill.name, signal: (await endpoint.exited).signal });
    collectDamage(endpoint);
  }

  /** Waits until the stream holds nothing undelivered. */
  async function delivered(url: string): Promise<void> {
    for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
      if ((await localFirehoseStats(url))[STREAM]?.pendingRecords === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the stream did not deliver what its log held within 30 s');
  }

  function collectDamage(endpoint: EndpointProcess): void {
    for (const line of endpoint
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('recovery ')))
      for (const d of (JSON.parse(line.slice('recovery '.length)) as { damage: { reason: string }[] }).damage)
        damage.push(d.reason);
  }

  test('every acknowledged record lands exactly once; icebird reads the table', async () => {
    // Act
    for (let round = 0; round < ROUNDS; round++) for (const kill of KILLS) await killAt(kill);
    const last = await startEndpointProcess(dir, { bufferIntervalSeconds: 1 });
    const stats = (await flushLocalFirehose(last.url))[STREAM];
    const clients = localClients(last.url);
    const table = await clients.s3tables.send(
      new GetTableCommand({
        tableBucketARN: `arn:aws:s3tables:us-east-1:123456789012:bucket/${BUCKET}`,
        namespace: 'network',
        name: 'vpc_flow_logs',
      }),
    );
    clients.destroy();
    last.child.kill('SIGTERM');
    await last.exited;
    collectDamage(last);
    const rows = await readLatestWithIcebird(table.warehouseLocation as string);
    const errorIds = filesUnder(join(dir, 's3', 'crash-errors'))
      .flatMap((file) => readFileSync(file, 'utf8').split('\n').filter(Boolean))
      .map((line) => JSON.parse(Buffer.from(JSON.parse(line).rawData, 'base64').toString()).id as number);

    // Assess
    if (process.env['LOGLAKE_CRASH_REPORT'])
      console.log(
        JSON.stringify({
          acknowledged: producer.acknowledged.size,
          unanswered: producer.unknown.size,
          rows: rows.length,
          errorOutput: errorIds.length,
          endings,
          damage,
          stats,
        }),
      );
    expect(endings.filter((e) => e.signal !== 'SIGKILL')).toEqual([]);
    expect(producer.acknowledged.size).toBeGreaterThan(BATCHES * 250 * ROUNDS);
    expect(errorIds.length).toBeGreaterThan(0);
    expect(
      exactlyOnceViolations(
        producer,
        rows.map((r) => Number(r['id'])),
        errorIds,
      ),
    ).toEqual([]);
    // Nothing acknowledged is reported lost: the only damage a kill leaves is the tail of an unfinished write.
    expect(damage.filter((reason) => !/unfinished write/.test(reason))).toEqual([]);
    expect(stats?.pendingRecords).toBe(0);
    expect((stats?.recordsDelivered ?? 0) + (stats?.recordsFailed ?? 0)).toBe(stats?.recordsReceived);
    expect(rows.every((r) => r['start_time'] instanceof Date || typeof r['start_time'] === 'string')).toBe(
      true,
    );
  });

  test('the exactly-once check fails on a lost, a doubled or an invented record', () => {
    // Prepare: 1 and 2 acknowledged (2 a fit), 41 an acknowledged misfit, 3 unanswered.
    const seen = { acknowledged: new Set([1, 2, 41]), unknown: new Set([3]) };
    // Act
    const lost = exactlyOnceViolations(seen, [1], [41]);
    const doubled = exactlyOnceViolations(seen, [1, 2, 2, 3, 3], [41]);
    const misplaced = exactlyOnceViolations(seen, [1, 2, 41], [41]);
    const invented = exactlyOnceViolations(seen, [1, 2, 99], [41]);
    const fine = exactlyOnceViolations(seen, [1, 2, 3], [41]);
    // Assess
    expect(lost).toEqual(['acknowledged record 2: 0 time(s) where it belongs, 0 elsewhere']);
    expect(doubled).toEqual([
      'acknowledged record 2: 2 time(s) where it belongs, 0 elsewhere',
      'unanswered record 3: 2 times',
    ]);
    expect(misplaced).toEqual(['acknowledged record 41: 1 time(s) where it belongs, 1 elsewhere']);
    expect(invented).toEqual(['record 99 was never acknowledged nor in an unanswered call']);
    expect(fine).toEqual([]);
  });
});
