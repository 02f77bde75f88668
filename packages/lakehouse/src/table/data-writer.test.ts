import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { DuckDBInstance } from '@duckdb/node-api';
import type { ColumnDefinition, TableHandle } from '../contract';
import { checkTableState } from '../conformance/check-table';
import { InvalidPropertyError } from '../errors';
import { toPath } from '../io/file-io';
import { snapshotFiles } from '../manifests/live-files';
import { decodeBound } from '../metadata/values';
import { flowRows, flowTable, query, testWarehouse, type TestWarehouse } from './testing';

/** Per written file: whether rows follow src_addr order, and the exact min/max read back from the file. */
async function writtenFiles(env: TestWarehouse, table: TableHandle) {
  const meta = await table.metadata();
  const snapshot = meta.snapshots.find((s) => s['snapshot-id'] === meta['current-snapshot-id']) ?? null;
  const { dataFiles } = await snapshotFiles(meta, snapshot);
  return Promise.all(
    dataFiles.map(async ({ file }) => {
      const [row] = await query(
        env.warehouse,
        `SELECT bool_and(coalesce(prev <= src_addr, true)) AS sorted, min(src_addr) AS lo, max(src_addr) AS hi,
                min(bytes) AS blo, max(bytes) AS bhi, count(*) AS n
         FROM (SELECT src_addr, bytes, lag(src_addr) OVER (ORDER BY file_row_number) AS prev
               FROM read_parquet('${toPath(file.filePath)}', file_row_number = true))`,
      );
      return { file, row: row as Record<string, unknown> };
    }),
  );
}

describe('data writer', () => {
  let env: TestWarehouse;
  beforeAll(async () => {
    env = await testWarehouse();
  });
  afterAll(async () => env.dispose());

  test.each([
    ['one file per hour', {}],
    [
      'several files per hour',
      { 'write.target-file-size-bytes': '1000', 'loglake.parquet.row-group-rows': '2048' },
    ],
  ])('%s: files in the declared order, bounds exactly the files’ min and max', async (name, properties) => {
    // Prepare
    const table = await flowTable(env.warehouse, name.replaceAll(' ', '_'));
    await table.setProperties(properties);
    const rows = flowRows(15000, 3).reverse();
    // Act
    await table.append({ rows });
    const files = await writtenFiles(env, table);
    // Assess
    expect(files.reduce((a, f) => a + Number(f.row['n']), 0)).toBe(15000);
    expect(new Set(files.map((f) => String(f.file.partition))).size).toBe(3);
    if (Object.keys(properties).length > 0) expect(files.length).toBeGreaterThan(3);
    else expect(files).toHaveLength(3);
    for (const { file, row } of files) {
      expect(row['sorted']).toBe(true);
      expect(file.recordCount).toBe(Number(row['n']));
      expect(Buffer.from(file.lowerBounds.get(1)!).toString()).toBe(row['lo']);
      expect(Buffer.from(file.upperBounds.get(1)!).toString()).toBe(row['hi']);
      expect(decodeBound('long', file.lowerBounds.get(3)!)).toBe(row['blo']);
      expect(decodeBound('long', file.upperBounds.get(3)!)).toBe(row['bhi']);
    }
  });

  test('write.parquet.page-version 2 writes V2 pages (delta encodings) that icebird reads back; 1 is the default', async () => {
    // Prepare
    await env.warehouse.createTableBucket('types').catch(() => undefined);
    await env.warehouse.createNamespace('types', 'pages').catch(() => undefined);
    const columns: ColumnDefinition[] = [
      { name: 'flag', type: 'boolean' },
      { name: 'small', type: 'int' },
      { name: 'big', type: 'long' },
      { name: 'ratio', type: 'float' },
      { name: 'score', type: 'double' },
      { name: 'amount', type: 'decimal(10,2)' },
      { name: 'day', type: 'date' },
      { name: 'seen_at', type: 'timestamp' },
      { name: 'seen_tz', type: 'timestamptz' },
      { name: 'host', type: 'string' },
      { name: 'payload', type: 'binary' },
    ];
    const rowsSql = (from: number) => `SELECT i % 2 = 0 AS flag, i::INTEGER AS small, i * 10000000000 AS big,
        (i / 4)::FLOAT AS ratio, i * 1.5 AS score, (i / 100)::DECIMAL(10,2) AS amount,
        DATE '2026-11-01' + (i % 3)::INTEGER AS day, TIMESTAMP '2026-11-01 00:00:00' + to_minutes(i) AS seen_at,
        TIMESTAMPTZ '2026-11-01 00:00:00+00' + to_seconds(i) AS seen_tz,
        CASE WHEN i % 7 = 0 THEN NULL ELSE 'host-' || (i % 5) END AS host, ('p' || i)::BLOB AS payload
      FROM range(${from}, ${from + 1500}) AS t(i)`;
    const v2 = await env.warehouse.createTable('types', 'pages', 'v2', {
      columns,
      partitionBy: [{ sourceColumn: 'seen_at', transform: 'hour' }],
      sortBy: [{ sourceColumn: 'host', direction: 'asc', nullOrder: 'nulls-first' }],
      properties: { 'write.parquet.page-version': '2' },
    });
    const v1 = await env.warehouse.createTable('types', 'pages', 'v1', { columns });
    // Act
    await v2.append({ sql: rowsSql(0) });
    await v2.append({ sql: rowsSql(1500) });
    await v1.append({ sql: rowsSql(0) });
    // Assess
    const encodings = async (table: TableHandle) => {
      const meta = await table.metadata();
      const snapshot = meta.snapshots.find((x) => x['snapshot-id'] === meta['current-snapshot-id']) ?? null;
      const paths = (await snapshotFiles(meta, snapshot)).dataFiles.map(
        (f) => `'${toPath(f.file.filePath)}'`,
      );
      const [row] = await query(
        env.warehouse,
        `SELECT string_agg(DISTINCT encodings, ',') AS e FROM parquet_metadata([${paths.join(', ')}])
         WHERE path_in_schema = 'big'`,
      );
      return String(row?.['e']);
    };
    expect(await encodings(v2)).toContain('DELTA_BINARY_PACKED');
    expect(await encodings(v1)).not.toContain('DELTA');
    await expect(v1.setProperties({ 'write.parquet.page-version': '3' })).rejects.toThrow(
      InvalidPropertyError,
    );
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      const report = await checkTableState(env.warehouse, v2, { connection });
      expect(report.snapshots.length).toBe(2);
      expect(report.snapshots.filter((s) => !s.equal)).toEqual([]);
      expect(report.violations).toEqual([]);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
