// The ledger over a real record log: replay's first check (a generation whose error output is already written had
// concluded before the crash) and the settling order. crash.test.ts covers the landed-commit check end to end; a
// generation that concluded before a crash is otherwise delivered again with the same outcome, so only its counts,
// and its metrics emitted a second time, would tell.
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMPTY_STATS, type DeliveryStats } from './delivery-stats';
import type { ErrorOutputObjects } from './error-output';
import { RecordLog, type RecoveredGeneration } from './record-log';
import { GenerationLedger } from './recovery';

const records = (count: number) =>
  Array.from({ length: count }, (_, i) => Buffer.from(JSON.stringify({ n: i })));

/** The error bucket's objects: only read() matters to the ledger. */
function bucketHolding(objects: Record<string, string>): ErrorOutputObjects {
  return {
    exists: (_bucket, key) => key in objects,
    read: (_bucket, key) => (key in objects ? Buffer.from(objects[key] as string) : undefined),
    placeFile: () => undefined,
  };
}

describe('the generation ledger', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Generations 1 and 2 of three records each, left in the log as a crash leaves them; reopened. */
  async function crashedLog(): Promise<{ log: RecordLog<DeliveryStats>; recovered: RecoveredGeneration[] }> {
    const { log } = RecordLog.open<DeliveryStats>(dir);
    await log.append(records(3), 1000, () => undefined);
    await log.seal();
    await log.append(records(3), 2000, () => undefined);
    await log.close();
    const reopened = RecordLog.open<DeliveryStats>(dir);
    return { log: reopened.log, recovered: reopened.recovered };
  }

  test('a replayed generation whose error output is written is counted from the file and settled', async () => {
    // Prepare
    const { log, recovered } = await crashedLog();
    const stats: DeliveryStats = { ...EMPTY_STATS };
    const ledger = new GenerationLedger(log, stats, {
      objects: bucketHolding({ 'errors/1': '{"errorCode":"Iceberg.InvalidJson"}\n' }),
      bucket: 'errors',
    });
    const [first] = recovered.map((g) => ({ number: g.generation, records: g.records }));
    for (const g of recovered) ledger.replayed(g.records);

    // Act
    const concluded = ledger.concludedBeforeCrash(first!, 'errors/1');
    const notYet = ledger.concludedBeforeCrash(first!, 'errors/none');
    await log.close();

    // Assess: one record in the file, so two were committed, in one commit; generation 2 is still pending.
    expect([concluded, notYet]).toEqual([true, false]);
    expect(stats).toMatchObject({ recordsFailed: 1, recordsDelivered: 2, commits: 1, flushes: 1 });
    expect(ledger.pendingRecords).toBe(3);
    const reopened = RecordLog.open<DeliveryStats>(dir);
    expect(reopened.checkpoint?.deliveredGeneration).toBe(1);
    expect(reopened.checkpoint?.stats).toMatchObject({ recordsReceived: 3 });
    expect(reopened.recovered.map((g) => g.generation)).toEqual([2]);
    await reopened.log.close();
  });

  test('no generation settles past one kept in the log', async () => {
    // Prepare
    const { log, recovered } = await crashedLog();
    const stats: DeliveryStats = { ...EMPTY_STATS };
    const ledger = new GenerationLedger(log, stats, { objects: bucketHolding({}), bucket: 'errors' });
    const [first, second] = recovered.map((g) => ({ number: g.generation, records: g.records }));
    for (const g of recovered) ledger.replayed(g.records);

    // Act
    ledger.keepInLog(first!.number);
    ledger.settle(second!, performance.now());
    await log.close();

    // Assess: counted as flushed, but the log still holds both generations for the next start.
    expect(stats.flushes).toBe(1);
    const reopened = RecordLog.open<DeliveryStats>(dir);
    expect(reopened.checkpoint).toBeUndefined();
    expect(reopened.recovered.map((g) => g.generation)).toEqual([1, 2]);
    await reopened.log.close();
  });
});
