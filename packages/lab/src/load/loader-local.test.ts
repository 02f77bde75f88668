// The loader against the real local endpoint with Firehose fault injection on: whatever the endpoint throttles
// or fails, every record lands exactly once, and the duplicates query sees re-sent flows.
import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlowGenerator } from '@loglake/flowgen';
import { openTarget } from '../target/open-target';
import type { LabTarget } from '../target/lab-target';
import { runNamedQuery } from '../query/run-named-query';
import { FIREHOSE_LIMITS } from './batches';
import { PutRecordBatchLoader } from './put-record-batch-loader';
import { flowRecords } from './send-flows';
import { waitForDelivery } from './wait-for-delivery';

let dir: string;
let target: LabTarget;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lab-loader-'));
  target = await openTarget({
    target: 'local',
    dataDir: dir,
    bufferIntervalSeconds: 1,
    faults: { throttleShare: 0.25, recordFailureShare: 0.15, seed: 7 },
  });
});

afterAll(async () => {
  await target?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The same seed and window every time, so a second call re-sends flows the first one sent. */
const flows = (count: number) =>
  flowRecords(
    new FlowGenerator({ seed: 11 }).batch({
      count,
      from: new Date('2026-11-28T00:00:00Z'),
      to: new Date('2026-11-29T00:00:00Z'),
    }),
  );

async function duplicates(): Promise<{ rows: number; duplicateRows: number }> {
  const run = await runNamedQuery(target.athenaTarget(), 'network/duplicates');
  const row = run.statements[0]?.result.rows[0] ?? [];
  return { rows: Number(row[0]), duplicateRows: Number(row[2]) };
}

describe('PutRecordBatchLoader on the local endpoint with faults', () => {
  test('sent = landed: throttled calls and failed records are retried until every record is in the table once', async () => {
    // Prepare
    const records = flows(2500);
    const loader = new PutRecordBatchLoader({
      client: target.firehose,
      streamName: target.resources.streamName,
      concurrency: 3,
      maxAttempts: 12,
      baseDelayMs: 5,
      maxDelayMs: 50,
      limits: { ...FIREHOSE_LIMITS, recordsPerBatch: 100 },
    });
    // Act
    const report = await loader.load(records);
    await waitForDelivery(target);
    // Assess
    expect(report.retried).toBeGreaterThan(0);
    expect(Object.keys(report.errors)).toContain('ServiceUnavailableException');
    expect(report).toMatchObject({ sent: 2500, accepted: 2500, failedForGood: 0, notSent: 0 });
    expect(await duplicates()).toEqual({ rows: 2500, duplicateRows: 0 });
  });

  test('flows sent twice are counted as duplicates by the table query', async () => {
    const again = flows(40); // the first 40 of the flows already sent
    const report = await new PutRecordBatchLoader({
      client: target.firehose,
      streamName: target.resources.streamName,
      baseDelayMs: 5,
      maxAttempts: 12,
    }).load(again);
    await waitForDelivery(target);
    expect(report.accepted).toBe(40);
    expect(await duplicates()).toEqual({ rows: 2540, duplicateRows: 40 });
  });
});
