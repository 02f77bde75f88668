import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { TableMetadata } from '../contract';
import { snapshotFiles } from '../manifests/live-files';
import { bucketOf } from '../metadata/murmur3';
import { branchHead } from '../metadata/table-metadata';
import { query, testWarehouse, type TestWarehouse } from '../../test/table/testing';

async function partitions(meta: TableMetadata): Promise<unknown[][]> {
  const files = await snapshotFiles(meta, branchHead(meta));
  return files.dataFiles.map((f) => f.file.partition).sort((a, b) => String(a).localeCompare(String(b)));
}

describe('every supported type and transform, end to end', () => {
  let env: TestWarehouse;
  beforeAll(async () => {
    env = await testWarehouse();
    await env.warehouse.createTableBucket('types');
    await env.warehouse.createNamespace('types', 'ns');
  });
  afterAll(async () => env.dispose());

  test('all primitive types round-trip through append and scan', async () => {
    // Prepare
    const table = await env.warehouse.createTable('types', 'ns', 'all_types', {
      columns: [
        { name: 'b', type: 'boolean' },
        { name: 'i', type: 'int' },
        { name: 'l', type: 'long' },
        { name: 'f', type: 'float' },
        { name: 'd', type: 'double' },
        { name: 'dec', type: 'decimal(12,3)' },
        { name: 'dt', type: 'date' },
        { name: 'tm', type: 'time' },
        { name: 'ts', type: 'timestamp' },
        { name: 'tz', type: 'timestamptz' },
        { name: 's', type: 'string' },
        { name: 'u', type: 'uuid' },
        { name: 'bin', type: 'binary' },
      ],
    });
    const row = {
      b: true,
      i: -7,
      l: 9007199254740993n,
      f: 1.5,
      d: -2.25,
      dec: '123456789.125',
      dt: '1969-07-20',
      tm: '20:17:40.123456',
      ts: '2024-05-01 10:00:00.123456',
      tz: '2024-05-01T12:00:00+02:00',
      s: 'héllo',
      u: 'F79C3E09-677C-4BBD-A479-3F349CB785E7',
      bin: new Uint8Array([0, 255, 7]),
    };
    // Act
    await table.append({ rows: [row, { i: 1 }] });
    const plan = await table.scan();
    const [read] = await query(
      env.warehouse,
      `SELECT b, i, l::VARCHAR AS l, f, d, dec::VARCHAR AS dec, dt::VARCHAR AS dt, tm::VARCHAR AS tm, ts::VARCHAR AS ts, tz::VARCHAR AS tz, s, u::VARCHAR AS u, hex(bin) AS bin FROM ${plan.relationSql} AS t WHERE b`,
    );
    // Assess
    expect(read).toEqual({
      b: true,
      i: -7,
      l: '9007199254740993',
      f: 1.5,
      d: -2.25,
      dec: '123456789.125',
      dt: '1969-07-20',
      tm: '20:17:40.123456',
      ts: '2024-05-01 10:00:00.123456',
      tz: '2024-05-01 10:00:00+00',
      s: 'héllo',
      u: 'f79c3e09-677c-4bbd-a479-3f349cb785e7',
      bin: '00FF07',
    });
    const pruned = await table.scan({ filter: { op: 'eq', column: 'dec', value: '1.000' } });
    expect(pruned.stats.filesScanned).toBe(0);
  });

  test('identity, day, month, year, bucket and truncate partition values follow the spec', async () => {
    // Prepare
    const table = await env.warehouse.createTable('types', 'ns', 'transforms', {
      columns: [
        { name: 'host', type: 'string' },
        { name: 'n', type: 'long' },
        { name: 'amount', type: 'decimal(9,2)' },
        { name: 'ts', type: 'timestamptz' },
        { name: 'region', type: 'string' },
      ],
      partitionBy: [
        { sourceColumn: 'region', transform: 'identity' },
        { sourceColumn: 'ts', transform: 'day' },
        { sourceColumn: 'ts', transform: 'month' },
        { sourceColumn: 'ts', transform: 'year' },
        { sourceColumn: 'host', transform: 'bucket[4]' },
        { sourceColumn: 'n', transform: 'truncate[10]' },
        { sourceColumn: 'amount', transform: 'truncate[50]' },
      ],
    });
    // Act
    await table.append({
      rows: [
        { host: 'a', n: 15, amount: '10.65', ts: '2024-05-01T23:30:00Z', region: 'eu' },
        { host: 'a', n: -1, amount: '0.10', ts: '1969-12-31T23:00:00Z', region: null },
      ],
    });
    // Assess
    const meta = await table.metadata();
    expect(meta['partition-specs'][0]!.fields.map((f) => [f.name, f['field-id'], f.transform])).toEqual([
      ['region', 1000, 'identity'],
      ['ts_day', 1001, 'day'],
      ['ts_month', 1002, 'month'],
      ['ts_year', 1003, 'year'],
      ['host_bucket', 1004, 'bucket[4]'],
      ['n_trunc', 1005, 'truncate[10]'],
      ['amount_trunc', 1006, 'truncate[50]'],
    ]);
    const hostBucket = bucketOf('string', 'a', 4);
    expect(await partitions(meta)).toEqual(
      [
        [null, -1, -1, -1, hostBucket, -10n, 0n],
        ['eu', 19844, 652, 54, hostBucket, 10n, 1050n],
      ].sort((a, b) => String(a).localeCompare(String(b))),
    );
    const plan = await table.scan({ filter: { op: 'eq', column: 'region', value: 'eu' } });
    expect(plan.stats).toMatchObject({ filesScanned: 1, filesSkipped: 1 });
  });

  test('sort orders with transforms order numerically (hour 9 before hour 11)', async () => {
    // Prepare
    const table = await env.warehouse.createTable('types', 'ns', 'sorted_hours', {
      columns: [{ name: 'ts', type: 'timestamp' }],
      sortBy: [{ sourceColumn: 'ts', transform: 'hour', direction: 'asc', nullOrder: 'nulls-last' }],
    });
    // Act
    await table.append({
      rows: ['1970-01-01 11:00:00', '1970-01-01 09:00:00', '1970-01-01 10:00:00'].map((ts) => ({ ts })),
    });
    // Assess
    const plan = await table.scan({ withRowIds: true });
    const rows = await query(
      env.warehouse,
      `SELECT ts::VARCHAR AS ts FROM ${plan.relationSql} AS t ORDER BY pos`,
    );
    expect(rows.map((r) => r['ts'])).toEqual([
      '1970-01-01 09:00:00',
      '1970-01-01 10:00:00',
      '1970-01-01 11:00:00',
    ]);
  });

  test('files are split near the target file size', async () => {
    // Prepare
    const table = await env.warehouse.createTable('types', 'ns', 'split', {
      columns: [
        { name: 'id', type: 'long' },
        { name: 'payload', type: 'string' },
      ],
      properties: { 'write.target-file-size-bytes': '40000', 'loglake.parquet.row-group-rows': '2048' },
    });
    // Act
    const result = await table.append({
      sql: `SELECT i::BIGINT AS id, md5(i::VARCHAR) AS payload FROM range(20000) t(i)`,
    });
    // Assess
    expect(result.addedFiles).toBeGreaterThan(3);
    const plan = await table.scan();
    const [row] = await query(
      env.warehouse,
      `SELECT count(*) AS n, count(DISTINCT id) AS d FROM ${plan.relationSql} AS t`,
    );
    expect([Number(row?.['n']), Number(row?.['d'])]).toEqual([20000, 20000]);
  });

  test('the compression codec follows write.parquet.compression-codec', async () => {
    // Prepare
    const table = await env.warehouse.createTable('types', 'ns', 'snappy', {
      columns: [{ name: 'id', type: 'long' }],
      properties: { 'write.parquet.compression-codec': 'snappy' },
    });
    // Act
    await table.append({ sql: 'SELECT 1::BIGINT AS id' });
    const refused = expect(
      table.setProperties({ 'write.parquet.compression-codec': 'lzo' }),
    ).rejects.toMatchObject({ name: 'InvalidPropertyError' });
    // Assess
    const plan = await table.scan({ withRowIds: true });
    const [file] = await query(env.warehouse, `SELECT DISTINCT file_path FROM ${plan.relationSql} AS t`);
    const [meta] = await query(
      env.warehouse,
      `SELECT compression FROM parquet_metadata('${String(file?.['file_path']).slice('file://'.length)}')`,
    );
    expect(meta?.['compression']).toBe('SNAPPY');
    await refused;
    expect((await table.metadata()).properties['write.parquet.compression-codec']).toBe('snappy');
  });

  test('SQL sources with unknown columns, bad casts or NULL required values are refused', async () => {
    // Prepare
    const table = await env.warehouse.createTable('types', 'ns', 'strict_sql', {
      columns: [
        { name: 'id', type: 'long', required: true },
        { name: 'n', type: 'int' },
      ],
    });
    // Act / Assess
    await expect(table.append({ sql: `SELECT 1 AS id, 2 AS nope` })).rejects.toThrow(
      /Column 'nope' is not in table ns.strict_sql/,
    );
    await expect(table.append({ sql: `SELECT 1 AS id, 'x' AS n` })).rejects.toMatchObject({
      name: 'SchemaMismatchError',
    });
    await expect(table.append({ sql: `SELECT NULL::BIGINT AS id` })).rejects.toThrow(/Required column 'id'/);
    await expect(table.append({ sql: `SELECT 2 AS n` })).rejects.toThrow(/Required column 'id' is missing/);
    expect((await table.metadata()).snapshots).toHaveLength(0);
  });
});
