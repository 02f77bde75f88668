import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import {
  countRows,
  flowRows,
  flowTable,
  query,
  testWarehouse,
  type TestWarehouse,
} from '../../test/table/testing';

describe('merge-on-read deletes, row deltas and overwrites', () => {
  let env: TestWarehouse;
  beforeAll(async () => {
    env = await testWarehouse();
  });
  afterAll(async () => env.dispose());

  test('deleteWhere writes position deletes only: no data file rewritten, rows gone', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'deletes');
    await table.append({ rows: flowRows(30, 3) });
    const before = await table.metadata();
    const rejects = flowRows(30, 3).filter((r) => r['action'] === 'REJECT').length;
    // Act
    const result = await table.deleteWhere({ op: 'eq', column: 'action', value: 'REJECT' });
    // Assess
    expect(result.deletedRows).toBe(rejects);
    expect(result.addedFiles).toBe(0);
    expect(result.rewrittenFiles).toBe(0);
    const meta = await table.metadata();
    const snapshot = meta.snapshots[1]!;
    expect(snapshot.summary).toMatchObject({
      operation: 'delete',
      'added-position-deletes': String(rejects),
      'total-records': '30',
      'total-data-files': before.snapshots[0]!.summary['total-data-files'],
      'total-position-deletes': String(rejects),
    });
    expect(snapshot.summary['deleted-data-files']).toBeUndefined();
    expect(snapshot['sequence-number']).toBe(2);
    expect(await countRows(env.warehouse, table)).toBe(30 - rejects);
    const plan = await table.scan();
    expect(plan.metadataRowCount).toBeNull();
    const [row] = await query(
      env.warehouse,
      `SELECT count(*) AS n FROM ${plan.relationSql} AS t WHERE action = 'REJECT'`,
    );
    expect(Number(row?.['n'])).toBe(0);
  });

  test('a delete matching nothing commits nothing', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'noop_delete');
    await table.append({ rows: flowRows(6) });
    // Act
    const result = await table.deleteWhere({ op: 'eq', column: 'dst_port', value: 9999 });
    // Assess
    expect(result.snapshot).toBeNull();
    expect((await table.metadata()).snapshots).toHaveLength(1);
  });

  test('rowDelta: position deletes + appended rows in one overwrite snapshot (an UPDATE)', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'update');
    await table.append({ rows: flowRows(12, 2) });
    const read = await table.scan({ withRowIds: true });
    // Act: UPDATE ... SET bytes = 0 WHERE dst_port = 443
    const result = await table.rowDelta({
      readSnapshotId: read.snapshotId,
      deletesSql: `SELECT file_path, pos FROM ${read.relationSql} AS t WHERE dst_port = 443`,
      appends: {
        sql: `SELECT * EXCLUDE (file_path, pos, bytes), 0::BIGINT AS bytes FROM ${read.relationSql} AS t WHERE dst_port = 443`,
      },
    });
    // Assess
    expect(result.deletedRows).toBe(4);
    expect(result.addedRows).toBe(4);
    const meta = await table.metadata();
    expect(meta.snapshots[1]!.summary).toMatchObject({
      operation: 'overwrite',
      'added-records': '4',
      'added-position-deletes': '4',
      'total-records': '16',
    });
    const plan = await table.scan();
    const rows = await query(
      env.warehouse,
      `SELECT dst_port, sum(bytes) AS b, count(*) AS n FROM ${plan.relationSql} AS t GROUP BY 1 ORDER BY 1`,
    );
    expect(rows.map((r) => [r['dst_port'], Number(r['b']), Number(r['n'])])).toEqual([
      [22, 100 + 103 + 106 + 109, 4],
      [80, 101 + 104 + 107 + 110, 4],
      [443, 0, 4],
    ]);
  });

  test('rowDelta fails with CommitConflictError when another commit deleted the same rows first', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'conflict');
    await table.append({ rows: flowRows(9, 1) });
    const read = await table.scan({ withRowIds: true });
    await table.deleteWhere({ op: 'eq', column: 'dst_port', value: 22 });
    // Act
    const attempt = table.rowDelta({
      readSnapshotId: read.snapshotId,
      deletesSql: `SELECT file_path, pos FROM ${read.relationSql} AS t WHERE dst_port = 22`,
    });
    // Assess
    await expect(attempt).rejects.toMatchObject({ name: 'CommitConflictError' });
    expect((await table.metadata()).snapshots).toHaveLength(2);
  });

  test('overwriteWhere replaces matching rows in one overwrite snapshot', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'overwrite');
    await table.append({ rows: flowRows(10, 1) });
    // Act
    const result = await table.overwriteWhere(
      { op: 'eq', column: 'action', value: 'REJECT' },
      {
        rows: [
          {
            src_addr: '1.1.1.1',
            dst_port: 1,
            bytes: 1,
            action: 'REJECT',
            start_time: '2024-05-01T00:00:00Z',
          },
        ],
      },
    );
    // Assess
    expect(result).toMatchObject({ deletedRows: 2, addedRows: 1 });
    expect((await table.metadata()).snapshots[1]!.summary.operation).toBe('overwrite');
    expect(await countRows(env.warehouse, table)).toBe(9);
  });
});
