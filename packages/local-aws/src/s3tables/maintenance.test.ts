// S3 Tables maintenance rules on the real engine: retention in a table's own metadata (a tag's max-ref-age)
// disables snapshot management, and what it held back is what the next run frees once the tag is gone; the
// compaction strategy decides whether the declared sort order is written; the maintenance clock moves only
// when the endpoint was started to allow it.
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { branchHead, snapshotFiles, type LocalWarehouse } from '@loglake/lakehouse/testing';
import { openWarehouse } from '@loglake/lakehouse';
import { AwsServiceError } from '../errors';
import { JsonStore } from '../store';
import { MaintenanceService, retentionInMetadata } from './maintenance';

let dir: string;
let warehouse: LocalWarehouse;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'maintenance-'));
  warehouse = await openWarehouse(join(dir, 'warehouse'));
  await warehouse.createTableBucket('lab');
  await warehouse.createNamespace('lab', 'network');
});
afterEach(async () => {
  await warehouse.close();
  rmSync(dir, { recursive: true, force: true });
});

const HOUR = 3_600_000;

async function flows(batches: number) {
  const table = await warehouse.createTable('lab', 'network', 'flows', {
    columns: [
      { name: 'srcaddr', type: 'string' },
      { name: 'bytes', type: 'long' },
    ],
  });
  for (let i = 0; i < batches; i++) {
    await table.append({
      rows: [
        { srcaddr: `10.0.0.${i}`, bytes: 100 + i },
        { srcaddr: `10.0.1.${i}`, bytes: i },
      ],
    });
  }
  return table;
}

const tag = (snapshotId: number, maxRefAgeMs?: number) =>
  warehouse.commitTable('lab', 'network', 'flows', {
    requirements: [],
    updates: [
      {
        action: 'set-snapshot-ref',
        'ref-name': 'audit',
        type: 'tag',
        'snapshot-id': snapshotId,
        ...(maxRefAgeMs === undefined ? {} : { 'max-ref-age-ms': maxRefAgeMs }),
      },
    ],
  });

describe('snapshot management and retention in the table metadata', () => {
  test('a tag with max-ref-age-ms disables it; removing the tag frees exactly what was held', async () => {
    // Prepare
    const table = await flows(3);
    const first = (await table.metadata()).snapshots[0]!['snapshot-id'];
    await tag(first, 30 * 24 * HOUR);
    const maintenance = new MaintenanceService(warehouse, new JsonStore(join(dir, 'state')), true);
    maintenance.putTableConfig('lab', 'network', 'flows', 'icebergCompaction', { status: 'disabled' });
    maintenance.advanceClock(121);
    // Act
    const held = (await maintenance.run({ table: 'flows' })).find(
      (r) => r.type === 'icebergSnapshotManagement',
    )!;
    const snapshotsWhileTagged = (await table.metadata()).snapshots.length;
    await warehouse.commitTable('lab', 'network', 'flows', {
      requirements: [],
      updates: [{ action: 'remove-snapshot-ref', 'ref-name': 'audit' }],
    });
    const freed = (await maintenance.run({ table: 'flows' })).find(
      (r) => r.type === 'icebergSnapshotManagement',
    )!;
    // Assess
    expect(held.snapshotManagementDisabled?.reasons).toEqual(['tag audit sets max-ref-age-ms']);
    expect(held.expiry).toBeUndefined();
    expect(snapshotsWhileTagged).toBe(3);
    expect(held.snapshotManagementDisabled?.heldSnapshots).toBe(2);
    expect(freed.expiry?.expiredSnapshotIds).toHaveLength(2);
    expect(freed.expiry?.deletedBytes).toBe(held.snapshotManagementDisabled?.heldBytes);
    expect(freed.expiry?.deletedFiles).toBe(held.snapshotManagementDisabled?.heldFiles);
    expect((await table.metadata()).snapshots).toHaveLength(1);
  });

  test('retention longer than the configuration in the table properties disables it too; a ref without retention does not', () => {
    const policy = { minSnapshotsToKeep: 1, maxSnapshotAgeMs: 120 * HOUR };
    const base = { refs: {}, properties: {} } as never;
    expect(retentionInMetadata(base, policy).reasons).toEqual([]);
    expect(
      retentionInMetadata(
        { refs: {}, properties: { 'history.expire.max-snapshot-age-ms': String(200 * HOUR) } } as never,
        policy,
      ).reasons,
    ).toHaveLength(1);
    expect(
      retentionInMetadata(
        { refs: { keep: { 'snapshot-id': 1, type: 'tag' } }, properties: {} } as never,
        policy,
      ).reasons,
    ).toEqual([]);
  });

  test('the maintenance clock moves only on an endpoint started with an adjustable clock', () => {
    const wall = new MaintenanceService(warehouse, new JsonStore(join(dir, 'state')));
    expect(() => wall.advanceClock(1)).toThrow(AwsServiceError);
    const adjustable = new MaintenanceService(warehouse, new JsonStore(join(dir, 'state2')), true);
    expect(adjustable.advanceClock(121).getTime() - Date.now()).toBeGreaterThan(120 * HOUR);
  });
});

describe('compaction strategy', () => {
  test.each([
    ['binpack' as const, 0],
    ['sort' as const, 1],
    ['auto' as const, 1],
  ])('%s writes the compacted file with sort order %i', async (strategy, orderId) => {
    // Prepare
    const table = await flows(3);
    await table.setSortOrder([{ sourceColumn: 'bytes', direction: 'asc', nullOrder: 'nulls-first' }]);
    const maintenance = new MaintenanceService(warehouse, new JsonStore(join(dir, 'state')));
    maintenance.putTableConfig('lab', 'network', 'flows', 'icebergCompaction', {
      status: 'enabled',
      settings: { icebergCompaction: { strategy } },
    });
    // Act
    await maintenance.run({ table: 'flows' });
    // Assess
    const meta = await table.metadata();
    const files = (await snapshotFiles(meta, branchHead(meta))).dataFiles;
    expect(files.map((f) => f.file.sortOrderId)).toEqual([orderId]);
  });
});
