import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import {
  countRows,
  flowRows,
  flowTable,
  query,
  testWarehouse,
  type TestWarehouse,
} from '../../test/table/testing';

describe('append and scan at the current snapshot', () => {
  let env: TestWarehouse;
  beforeAll(async () => {
    env = await testWarehouse();
  });
  afterAll(async () => env.dispose());

  test('an empty table scans as an empty typed relation', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'empty');
    // Act
    const plan = await table.scan();
    const rows = await query(
      env.warehouse,
      `SELECT typeof(start_time) AS t, count(*) AS n FROM ${plan.relationSql} AS r GROUP BY ALL`,
    );
    // Assess
    expect(plan.snapshotId).toBeNull();
    expect(rows).toEqual([]);
    expect(plan.metadataRowCount).toBe(0);
    const described = await env.warehouse.duckdb.describe(`SELECT * FROM ${plan.relationSql} AS r`);
    expect(described.map((c) => c.type)).toEqual(['VARCHAR', 'INTEGER', 'BIGINT', 'VARCHAR', 'TIMESTAMP']);
  });

  test('append writes one snapshot, files split by hour, and the rows read back', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'appended');
    // Act
    const result = await table.append({ rows: flowRows(30, 3) });
    // Assess
    expect(result.addedRows).toBe(30);
    expect(result.addedFiles).toBe(3);
    const meta = await table.metadata();
    expect(meta.snapshots).toHaveLength(1);
    const snapshot = meta.snapshots[0]!;
    expect(snapshot['sequence-number']).toBe(1);
    expect(snapshot.summary).toMatchObject({
      operation: 'append',
      'added-data-files': '3',
      'added-records': '30',
      'changed-partition-count': '3',
      'total-records': '30',
      'total-data-files': '3',
      'total-delete-files': '0',
      'total-position-deletes': '0',
      'total-equality-deletes': '0',
    });
    expect(meta.refs['main']).toEqual({ 'snapshot-id': snapshot['snapshot-id'], type: 'branch' });
    expect(await countRows(env.warehouse, table)).toBe(30);
    const plan = await table.scan();
    const [row] = await query(
      env.warehouse,
      `SELECT sum(bytes) AS s, min(start_time)::VARCHAR AS t FROM ${plan.relationSql} AS r`,
    );
    expect(Number(row?.['s'])).toBe(Array.from({ length: 30 }, (_, i) => 100 + i).reduce((a, b) => a + b, 0));
    expect(row?.['t']).toBe('2024-05-01 00:00:00');
    expect(plan.metadataRowCount).toBe(30);
  });

  test('appends from SQL and a second append bumps sequence numbers and totals', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'from_sql');
    await table.append({ rows: flowRows(10, 1) });
    // Act
    const result = await table.append({
      sql: `SELECT '10.9.9.9' AS src_addr, 443 AS dst_port, i::BIGINT AS bytes, 'ACCEPT' AS action, TIMESTAMP '2024-05-01 05:00:00' AS start_time FROM range(5) t(i)`,
    });
    // Assess
    expect(result.addedRows).toBe(5);
    const meta = await table.metadata();
    expect(meta.snapshots.map((s) => s['sequence-number'])).toEqual([1, 2]);
    expect(meta['last-sequence-number']).toBe(2);
    expect(meta.snapshots[1]!['parent-snapshot-id']).toBe(meta.snapshots[0]!['snapshot-id']);
    expect(meta.snapshots[1]!.summary['total-records']).toBe('15');
    expect(meta['snapshot-log']).toHaveLength(2);
    expect(meta['metadata-log'].length).toBeGreaterThanOrEqual(2);
    expect(await countRows(env.warehouse, table)).toBe(15);
  });

  test('an SQL source may name its columns (no DESCRIBE); a name the table lacks is still refused', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'named_columns');
    const sql = `SELECT '10.0.0.1' AS src_addr, 443 AS dst_port, TIMESTAMP '2024-05-01 01:00:00' AS start_time`;
    // Act
    await table.append({ sql, columns: ['src_addr', 'dst_port', 'start_time'] });
    const wrong = table.append({ sql, columns: ['src_addr', 'port', 'start_time'] });
    // Assess
    await expect(wrong).rejects.toMatchObject({ name: 'SchemaMismatchError' });
    await expect(wrong).rejects.toThrow(/Column 'port' is not in/);
    expect(await countRows(env.warehouse, table)).toBe(1);
  });

  test('rows that do not fit the schema are refused with a named error and nothing is written', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'strict');
    // Act
    const attempt = table.append({
      rows: [...flowRows(2), { src_addr: 'x', dst_port: 'eighty', start_time: '2024-05-01 00:00:00' }],
    });
    // Assess
    await expect(attempt).rejects.toMatchObject({ name: 'SchemaMismatchError' });
    await expect(attempt).rejects.toThrow(/row 2: column 'dst_port' \(int\)/);
    expect((await table.metadata()).snapshots).toHaveLength(0);
  });
});
