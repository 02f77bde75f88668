import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { toPath } from '../io/file-io';
import { sqlString } from '../duckdb/duckdb-session';
import {
  ensureNamespace,
  flowRows,
  flowTable,
  query,
  testWarehouse,
  type TestWarehouse,
} from '../../test/table/testing';
import type { Expression } from '../contract';

const ONE_HOUR: Expression = {
  op: 'and',
  args: [
    { op: 'gte', column: 'start_time', value: '2024-05-01 01:00:00' },
    { op: 'lt', column: 'start_time', value: '2024-05-01 02:00:00' },
  ],
};

describe('partition pruning, file pruning and bytes scanned', () => {
  let env: TestWarehouse;
  beforeAll(async () => {
    env = await testWarehouse();
  });
  afterAll(async () => env.dispose());

  test('a one-hour filter on start_time reads only that hour (hidden partitioning)', async () => {
    // Prepare: two commits over three hours → six files in six manifests' worth of partitions
    const table = await flowTable(env.warehouse, 'hours');
    await table.append({ rows: flowRows(60, 3) });
    await table.append({ rows: flowRows(30, 3, 1000) });
    // Act
    const plan = await table.scan({ filter: ONE_HOUR, columns: ['src_addr', 'bytes'] });
    // Assess
    expect(plan.stats).toMatchObject({ filesScanned: 2, filesSkipped: 4, deleteFilesScanned: 0 });
    const files = (
      await query(
        env.warehouse,
        `SELECT DISTINCT file_path FROM ${(await table.scan({ filter: ONE_HOUR, withRowIds: true })).relationSql} AS t`,
      )
    ).map((r) => toPath(String(r['file_path'])));
    expect(files).toHaveLength(2);
    // Bytes scanned = compressed size of the projected columns' chunks in the files read.
    const [expected] = await query(
      env.warehouse,
      `SELECT sum(total_compressed_size) AS b FROM parquet_metadata([${files.map(sqlString).join(', ')}]) WHERE path_in_schema IN ('src_addr', 'bytes')`,
    );
    expect(plan.stats.bytesScanned).toBe(Number(expected?.['b']));
    const rows = await query(
      env.warehouse,
      `SELECT count(*) AS n FROM ${plan.relationSql} AS t WHERE start_time >= '2024-05-01 01:00:00' AND start_time < '2024-05-01 02:00:00'`,
    );
    expect(Number(rows[0]?.['n'])).toBe(30);
  });

  test('projecting fewer columns scans fewer bytes; the full scan counts every column', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'projection');
    await table.append({ rows: flowRows(40, 2) });
    // Act
    const all = await table.scan();
    const one = await table.scan({ columns: ['dst_port'] });
    // Assess
    expect(one.stats.bytesScanned).toBeGreaterThan(0);
    expect(one.stats.bytesScanned).toBeLessThan(all.stats.bytesScanned);
    expect(all.stats.filesScanned).toBe(2);
  });

  test('column bounds skip files whose value range cannot match', async () => {
    // Prepare: unpartitioned, two files with disjoint byte ranges
    await ensureNamespace(env.warehouse, 'lab', 'network');
    const table = await env.warehouse.createTable('lab', 'network', 'bounds', {
      columns: [
        { name: 'id', type: 'long' },
        { name: 'name', type: 'string' },
      ],
    });
    await table.append({ sql: `SELECT i::BIGINT AS id, 'a' || i AS name FROM range(0, 100) t(i)` });
    await table.append({ sql: `SELECT i::BIGINT AS id, 'b' || i AS name FROM range(1000, 1100) t(i)` });
    // Act
    const high = await table.scan({ filter: { op: 'gt', column: 'id', value: 500 } });
    const exact = await table.scan({ filter: { op: 'eq', column: 'name', value: 'a5' } });
    const none = await table.scan({ filter: { op: 'is-null', column: 'id' } });
    const either = await table.scan({
      filter: {
        op: 'or',
        args: [
          { op: 'lt', column: 'id', value: 1 },
          { op: 'gte', column: 'id', value: 1099 },
        ],
      },
    });
    // Assess
    expect(high.stats).toMatchObject({ filesScanned: 1, filesSkipped: 1 });
    expect(exact.stats).toMatchObject({ filesScanned: 1, filesSkipped: 1 });
    expect(none.stats).toMatchObject({ filesScanned: 0, filesSkipped: 2, bytesScanned: 0 });
    expect(either.stats).toMatchObject({ filesScanned: 2, filesSkipped: 0 });
  });

  test('count(*) from metadata scans 0 bytes; with deletes it must read, delete files included', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'counting');
    await table.append({ rows: flowRows(20, 2) });
    // Act
    const fromMetadata = await table.scan({ columns: [] });
    await table.deleteWhere({ op: 'eq', column: 'dst_port', value: 22 });
    const afterDelete = await table.scan({ columns: [] });
    // Assess
    expect(fromMetadata).toMatchObject({ metadataRowCount: 20, stats: { bytesScanned: 0, filesScanned: 0 } });
    expect(afterDelete.metadataRowCount).toBeNull();
    expect(afterDelete.stats.deleteFilesScanned).toBeGreaterThan(0);
    expect(afterDelete.stats.bytesScanned).toBeGreaterThan(0);
  });

  test('bounds written before an int → long promotion still prune (a 4-byte bound read as a long)', async () => {
    // Prepare: files written while dst_port was an int keep 4-byte bounds (spec: schema evolution, promotion)
    const table = await flowTable(env.warehouse, 'promoted');
    await table.append({ rows: flowRows(6, 1).map((r) => ({ ...r, dst_port: 22 })) });
    await table.append({ rows: flowRows(6, 1).map((r) => ({ ...r, dst_port: 443 })) });
    await table.changeColumn('dst_port', { type: 'long' });
    // Act
    const plan = await table.scan({ filter: { op: 'eq', column: 'dst_port', value: 443 } });
    // Assess
    expect(plan.stats).toMatchObject({ filesScanned: 1, filesSkipped: 1 });
  });
});
