import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { DuckDBInstance } from '@duckdb/node-api';
import type { TableHandle } from '../contract';
import { checkTableState } from '../../test/conformance/check-table';
import { InvalidPropertyError } from '../errors';
import { toPath } from '../io/file-io';
import { decodeBound } from '../metadata/values';
import {
  TYPED_COLUMNS,
  countRows,
  currentDataFiles,
  ensureNamespace,
  flowRows,
  flowTable,
  query,
  testWarehouse,
  type TestWarehouse,
} from '../../test/table/testing';

/** Per written file: whether rows follow src_addr order, and the exact min/max read back from the file. */
async function writtenFiles(env: TestWarehouse, table: TableHandle) {
  return Promise.all(
    (await currentDataFiles(table)).map(async (file) => {
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
      expect(Buffer.from(file.lowerBounds!.get(1)!).toString()).toBe(row['lo']);
      expect(Buffer.from(file.upperBounds!.get(1)!).toString()).toBe(row['hi']);
      expect(decodeBound('long', file.lowerBounds!.get(3)!)).toBe(row['blo']);
      expect(decodeBound('long', file.upperBounds!.get(3)!)).toBe(row['bhi']);
    }
  });

  test('a sorted table whose batch outgrows the target size: every file sorted, near the target, rows exact', async () => {
    // Prepare: ~6 MB in 20,000-row groups, written in parallel (DuckDB's size rollover mixes row groups up)
    await ensureNamespace(env.warehouse, 'types', 'sorted');
    const table = await env.warehouse.createTable('types', 'sorted', 'by_key', {
      columns: [
        { name: 'k', type: 'long' },
        { name: 'v', type: 'string' },
      ],
      sortBy: [{ sourceColumn: 'k', direction: 'asc', nullOrder: 'nulls-first' }],
      properties: { 'write.target-file-size-bytes': '1000000', 'loglake.parquet.row-group-rows': '20000' },
    });
    // Act
    await table.append({
      sql: `SELECT hash(i) % 1000000007 AS k, md5(i::VARCHAR) AS v FROM range(0, 300000) AS t(i)`,
    });
    // Assess
    const dataFiles = await currentDataFiles(table);
    expect(dataFiles.length).toBeGreaterThan(4);
    for (const file of dataFiles) {
      const [row] = await query(
        env.warehouse,
        `SELECT bool_and(coalesce(prev <= k, true)) AS sorted, count(*) AS n
         FROM (SELECT k, lag(k) OVER (ORDER BY file_row_number) AS prev
               FROM read_parquet('${toPath(file.filePath)}', file_row_number = true))`,
      );
      expect(row?.['sorted']).toBe(true);
      expect(Number(row?.['n'])).toBe(file.recordCount);
      expect(file.fileSizeInBytes).toBeLessThan(1000000 * 1.5);
    }
    expect(await countRows(env.warehouse, table)).toBe(300000);
  });

  test('an unsorted partitioned table is written in one pass: every partition value survives, big partitions split at the target size', async () => {
    // Prepare: identity partitions whose values need escaping in a directory name, and NULL
    await ensureNamespace(env.warehouse, 'types', 'direct');
    const table = await env.warehouse.createTable('types', 'direct', 'by_host', {
      columns: [
        { name: 'host', type: 'string' },
        { name: 'n', type: 'long' },
      ],
      partitionBy: [{ sourceColumn: 'host', transform: 'identity' }],
      properties: { 'write.target-file-size-bytes': '20000', 'loglake.parquet.row-group-rows': '2048' },
    });
    const hosts = ['a/b', 'x=y', 'é %', 'NULL', 'n', ''];
    // Act
    await table.append({
      sql: `SELECT CASE WHEN i % 7 = 6 THEN NULL ELSE ([${hosts.map((h) => `'${h}'`).join(', ')}])[1 + (i % 7)::INTEGER] END AS host,
              (hash(i) // 2)::BIGINT AS n FROM range(0, 35000) AS t(i)`,
    });
    // Assess
    const dataFiles = await currentDataFiles(table);
    const values = new Set(dataFiles.map((f) => f.partition[0] ?? null));
    expect(values).toEqual(new Set([...hosts, null]));
    // 5,000 random longs per partition weigh ~40 kB: each partition was split near the 20 kB target
    expect(dataFiles.length).toBeGreaterThan(7);
    for (const f of dataFiles) {
      const [row] = await query(
        env.warehouse,
        `SELECT count(*) AS c, count(DISTINCT host) AS h, any_value(host) AS v FROM read_parquet('${toPath(f.filePath)}', hive_partitioning = false)`,
      );
      expect(Number(row?.['c'])).toBe(f.recordCount);
      expect(Number(row?.['h'])).toBeLessThanOrEqual(1);
      expect(row?.['v'] ?? null).toBe(f.partition[0] ?? null);
    }
    expect(dataFiles.reduce((a, f) => a + f.recordCount, 0)).toBe(35000);
    expect(await countRows(env.warehouse, table)).toBe(35000);
    const plan = await table.scan();
    const read = await query(env.warehouse, `SELECT DISTINCT host FROM ${plan.relationSql} AS t`);
    expect(new Set(read.map((r) => r['host'] ?? null))).toEqual(new Set([...hosts, null]));
  });

  test('time transforms in one pass: hour, day, month and year of pre-1970, post-1970 and NULL timestamps', async () => {
    // Prepare
    await ensureNamespace(env.warehouse, 'types', 'direct');
    const table = await env.warehouse.createTable('types', 'direct', 'by_time', {
      columns: [{ name: 'ts', type: 'timestamptz' }],
      partitionBy: ['hour', 'day', 'month', 'year'].map((transform) => ({
        sourceColumn: 'ts',
        transform: transform as 'hour',
      })),
    });
    // Act
    await table.append({
      rows: [{ ts: '2024-05-01T23:30:00Z' }, { ts: '1969-12-31T23:00:00Z' }, { ts: null }],
    });
    // Assess
    const partitions = (await currentDataFiles(table)).map((f) => f.partition);
    expect(partitions.map((p) => JSON.stringify(p)).sort()).toEqual(
      [
        [476279, 19844, 652, 54],
        [-1, -1, -1, -1],
        [null, null, null, null],
      ]
        .map((p) => JSON.stringify(p))
        .sort(),
    );
  });

  test('bounds come from the writer where it is exact: long strings get none, floats count NaN and bound the rest', async () => {
    // Prepare
    await ensureNamespace(env.warehouse, 'types', 'bounds');
    const table = await env.warehouse.createTable('types', 'bounds', 'odd_values', {
      columns: [
        { name: 'short_text', type: 'string' },
        { name: 'long_text', type: 'string' },
        { name: 'wide_text', type: 'string' },
        { name: 'ratio', type: 'double' },
        { name: 'flag', type: 'boolean' },
      ],
    });
    // Act: 255 one-byte chars (DuckDB's exact limit is < 256 bytes), 300 chars, 200 two-byte chars
    await table.append({
      sql: `SELECT repeat('a', 254) || i AS short_text, repeat('b', 299) || i AS long_text, repeat('é', 199) || i AS wide_text,
              CASE WHEN i = 1 THEN 'NaN'::DOUBLE ELSE i / 2 END AS ratio, i > 0 AS flag FROM range(0, 3) AS t(i)`,
    });
    // Assess
    const [file] = await currentDataFiles(table);
    expect(Buffer.from(file!.lowerBounds!.get(1)!).toString()).toBe(`${'a'.repeat(254)}0`);
    expect(Buffer.from(file!.upperBounds!.get(1)!).toString()).toBe(`${'a'.repeat(254)}2`);
    expect(file!.lowerBounds!.has(2)).toBe(false);
    expect(file!.upperBounds!.has(3)).toBe(false);
    expect(file!.nanValueCounts!.get(4)).toBe(1);
    expect(decodeBound('double', file!.lowerBounds!.get(4)!)).toBe(0);
    expect(decodeBound('double', file!.upperBounds!.get(4)!)).toBe(1);
    expect(decodeBound('boolean', file!.lowerBounds!.get(5)!)).toBe(false);
    expect(decodeBound('boolean', file!.upperBounds!.get(5)!)).toBe(true);
    expect(file!.valueCounts!.get(1)).toBe(3);
    expect(file!.nullValueCounts!.get(1)).toBe(0);
  });

  test('write.parquet.page-version v2 writes V2 pages (delta encodings) that icebird reads back; v1 is the default', async () => {
    // Prepare
    await ensureNamespace(env.warehouse, 'types', 'pages');
    const columns = TYPED_COLUMNS;
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
      properties: { 'write.parquet.page-version': 'v2' },
    });
    const v1 = await env.warehouse.createTable('types', 'pages', 'v1', { columns });
    // Act
    await v2.append({ sql: rowsSql(0) });
    await v2.append({ sql: rowsSql(1500) });
    await v1.append({ sql: rowsSql(0) });
    // Assess
    const encodings = async (table: TableHandle) => {
      const paths = (await currentDataFiles(table)).map((f) => `'${toPath(f.filePath)}'`);
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
