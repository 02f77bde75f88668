import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { countRows, flowRows, flowTable, testWarehouse, type TestWarehouse } from '../../test/table/testing';

describe('time travel and refs', () => {
  let env: TestWarehouse;
  beforeAll(async () => {
    env = await testWarehouse();
  });
  afterAll(async () => env.dispose());

  test('reads at a snapshot id, at a timestamp and at a tag see the committed state', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'history');
    const first = await table.append({ rows: flowRows(10) });
    await new Promise((r) => setTimeout(r, 5));
    const between = new Date();
    await new Promise((r) => setTimeout(r, 5));
    await table.append({ rows: flowRows(5, 3, 50) });
    await table.deleteWhere({ op: 'eq', column: 'dst_port', value: 80 });
    await table.createTag('smoke', first.snapshot!['snapshot-id'], 86_400_000);
    // Act
    const bySnapshot = await countRows(env.warehouse, table, { snapshotId: first.snapshot!['snapshot-id'] });
    const byTime = await countRows(env.warehouse, table, { asOf: between });
    const byTag = await countRows(env.warehouse, table, { ref: 'smoke' });
    const current = await countRows(env.warehouse, table);
    // Assess
    expect([bySnapshot, byTime, byTag]).toEqual([10, 10, 10]);
    expect(current).toBe(
      15 -
        flowRows(5, 3, 50)
          .concat(flowRows(10))
          .filter((r) => r['dst_port'] === 80).length,
    );
    const old = await table.scan({ snapshotId: first.snapshot!['snapshot-id'], columns: [] });
    expect(old.metadataRowCount).toBe(10);
    expect(old.stats.bytesScanned).toBe(0);
    const meta = await table.metadata();
    expect(meta.refs['smoke']).toEqual({
      'snapshot-id': first.snapshot!['snapshot-id'],
      type: 'tag',
      'max-ref-age-ms': 86_400_000,
    });
  });

  test('unknown snapshots, refs and times before the first commit are named errors', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'errors');
    const before = new Date(Date.now() - 60_000);
    await table.append({ rows: flowRows(3) });
    // Act / Assess
    await expect(table.scan({ snapshotId: 12345 })).rejects.toMatchObject({ name: 'NoSuchSnapshotError' });
    await expect(table.scan({ ref: 'nope' })).rejects.toMatchObject({ name: 'NoSuchRefError' });
    await expect(table.scan({ asOf: before })).rejects.toMatchObject({ name: 'NoSuchSnapshotError' });
    await expect(table.createTag('main')).rejects.toMatchObject({ name: 'InvalidNameError' });
  });

  test('branches take commits only when written to; dropRef removes a tag', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'branches');
    await table.append({ rows: flowRows(4) });
    // Act
    await table.createBranch('audit', undefined, 3_600_000);
    await table.createTag('v1');
    await table.append({ rows: flowRows(2) });
    await table.dropRef('v1');
    // Assess
    const meta = await table.metadata();
    expect(Object.keys(meta.refs).sort()).toEqual(['audit', 'main']);
    expect(meta.refs['audit']).toMatchObject({ type: 'branch', 'max-ref-age-ms': 3_600_000 });
    expect(await countRows(env.warehouse, table, { ref: 'audit' })).toBe(4);
    expect(await countRows(env.warehouse, table)).toBe(6);
    await expect(table.createBranch('audit')).rejects.toMatchObject({ name: 'RefAlreadyExistsError' });
  });
});
