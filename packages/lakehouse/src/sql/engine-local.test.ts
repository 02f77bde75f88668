// Behaviour specific to the local engine's configuration: scan cutoff, error metadata, name resolution without a
// context, external Parquet storage, and statement edge cases the portable suite does not cover.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Warehouse } from '../contract';
import { testWarehouse, type TestWarehouse } from '../../test/table/testing';
import { objectsUnder } from '../io/stored-paths';
import { createSqlEngine, type AthenaSqlEngine } from './engine';
import type { SqlError } from './errors';
import type { ExternalStorage, ParquetWriteOptions } from './execution/external-storage';
import { memoryHiveCatalog } from '../../test/sql/testing';

const ctx = { catalog: 's3tablescatalog/local', database: 'net' };

async function failure(promise: Promise<unknown>): Promise<SqlError> {
  try {
    await promise;
  } catch (error) {
    return error as SqlError;
  }
  throw new Error('the statement succeeded');
}

describe('AthenaSqlEngine on the local warehouse', () => {
  let testbed: TestWarehouse;
  let dir: string;
  let warehouse: Warehouse;
  let engine: AthenaSqlEngine;
  const hive = memoryHiveCatalog(['snap', 's']);
  const writes: { location: string; options: ParquetWriteOptions; rows: number }[] = [];
  const run = (sql: string, cutoff?: number) => engine.execute(sql, { ...ctx, bytesScannedCutoff: cutoff });

  beforeAll(async () => {
    testbed = await testWarehouse();
    ({ dir, warehouse } = testbed);
    await warehouse.createTableBucket('local');
    await warehouse.createNamespace('local', 'net');
    engine = createSqlEngine(warehouse, { catalogs: [hive] });
    await run(
      `CREATE TABLE flows (id bigint, start_time timestamp, action string, bytes bigint) TBLPROPERTIES ('table_type'='iceberg')`,
    );
    await run(
      `CREATE TABLE flows_hourly (id bigint, start_time timestamp, action string, bytes bigint) PARTITIONED BY (hour(start_time)) TBLPROPERTIES ('table_type'='iceberg')`,
    );
    const rows = Array.from(
      { length: 60 },
      (_, i) =>
        `(${i}, TIMESTAMP '2024-05-01 00:00:00' + INTERVAL '${i * 5}' MINUTE, '${i % 3 ? 'ACCEPT' : 'REJECT'}', ${i * 10})`,
    );
    await run(`INSERT INTO flows VALUES ${rows.join(', ')}`);
    await run('INSERT INTO flows_hourly SELECT * FROM flows');
  });

  afterAll(async () => {
    await testbed?.dispose();
  });

  test('statement types as Athena reports them', async () => {
    expect((await run('SELECT 1')).statementType).toBe('DML');
    expect((await run('SHOW TABLES')).statementType).toBe('UTILITY');
    expect(
      (await run(`CREATE TABLE IF NOT EXISTS flows (id bigint) TBLPROPERTIES ('table_type'='iceberg')`))
        .statementType,
    ).toBe('DDL');
  });

  test('the workgroup cutoff cancels a scan that would exceed it, before any row is returned', async () => {
    const question = (t: string) =>
      `SELECT count(*) FROM ${t} WHERE start_time >= TIMESTAMP '2024-05-01 02:00:00' AND start_time < TIMESTAMP '2024-05-01 03:00:00'`;
    const flat = await run(question('flows'));
    const hourly = await run(question('flows_hourly'));
    expect(hourly.rows).toEqual(flat.rows);
    expect(hourly.stats.dataScannedInBytes).toBeLessThan(flat.stats.dataScannedInBytes);
    const cutoff = hourly.stats.dataScannedInBytes;
    const e = await failure(run(question('flows'), cutoff));
    expect(e.message).toBe('Bytes scanned limit was exceeded');
    expect(e.state).toBe('CANCELLED');
    expect(e.errorCategory).toBe(2);
    expect((e as SqlError & { dataScannedInBytes: number }).dataScannedInBytes).toBe(cutoff);
    expect((await run(question('flows_hourly'), cutoff)).rows).toEqual(flat.rows);
    // A count answered from metadata scans nothing, so no cutoff applies.
    expect((await run('SELECT count(*) FROM flows', 1)).rows).toEqual([['60']]);
  });

  test('a column named twice in DDL or DML is refused, naming it and where it is', async () => {
    // Act + Assess: nothing is created, inserted or added.
    expect((await failure(run('CREATE TABLE dup (a int, b int, a string)'))).message).toBe(
      "DUPLICATE_COLUMN_NAME: line 1:33: Column name 'a' specified more than once",
    );
    expect((await failure(run('INSERT INTO flows (id, action, id) VALUES (1, 2, 3)'))).message).toBe(
      "DUPLICATE_COLUMN_NAME: line 1:32: Column name 'id' specified more than once",
    );
    expect((await failure(run('ALTER TABLE flows ADD COLUMNS (extra int, bytes int)'))).message).toBe(
      "COLUMN_ALREADY_EXISTS: line 1:43: Column 'bytes' already exists",
    );
    expect((await run('SHOW TABLES')).rows).not.toContainEqual(['dup']);
  });

  test('errors carry Athena error names, positions, category and type', async () => {
    const missing = await failure(run('SELECT x FROM nope'));
    expect(missing.message).toBe(
      "TABLE_NOT_FOUND: line 1:15: Table 's3tablescatalog/local.net.nope' does not exist",
    );
    expect([missing.errorName, missing.errorCategory, missing.errorType]).toEqual([
      'TABLE_NOT_FOUND',
      2,
      1000,
    ]);
    expect((await failure(run('SELECT nope(id) FROM flows'))).message).toBe(
      "FUNCTION_NOT_FOUND: line 1:8: Function 'nope' not registered",
    );
    expect((await failure(run('UPDATE flows SET nope = 1'))).message).toMatch(
      /^COLUMN_NOT_FOUND: line 1:18: Column 'nope' cannot be resolved/,
    );
    expect((await failure(run('INSERT INTO flows VALUES (1, 2)'))).message).toMatch(
      /^TYPE_MISMATCH: .*Insert query has mismatched column types: Table: \[bigint, timestamp, string, bigint\]/,
    );
    expect((await failure(run('SELECT * FROM "flows$nope"'))).message).toMatch(
      /^TABLE_NOT_FOUND: .*flows\$nope/,
    );
    expect((await failure(run('SELECT id, z.bytes FROM flows'))).message).toMatch(
      /^COLUMN_NOT_FOUND: line 1:12: Column 'z.bytes' cannot be resolved/,
    );
    expect((await failure(run('SELECT * FROM "gone$snapshots"'))).message).toBe(
      "TABLE_NOT_FOUND: line 1:15: Table 's3tablescatalog/local.net.gone$snapshots' does not exist",
    );
    expect(
      (await failure(run('WITH w AS (SELECT 1 AS x) SELECT * FROM w FOR VERSION AS OF 1'))).message,
    ).toBe(
      'NOT_SUPPORTED: line 1:43: A version clause on a WITH query name is not supported by the local engine (it runs on Athena)',
    );
    const zero = await failure(run('SELECT sum(bytes) / count(*) FILTER (WHERE id < 0) FROM flows'));
    expect(zero.message).toBe('DIVISION_BY_ZERO: Division by zero');
    expect((await run('SELECT 7 / 2, 7 % 3, 7.5 / 2.5, 1e0 / 4')).rows).toEqual([['3', '1', '3.0', '0.25']]);
  });

  test('version clauses naming nothing are refused with the value', async () => {
    const e = await failure(
      run("SELECT * FROM flows FOR TIMESTAMP AS OF TIMESTAMP '2000-01-01 00:00:00 UTC'"),
    );
    expect(e.message).toBe(
      'INVALID_ARGUMENTS: line 1:41: No version history table net.flows at or before 2000-01-01T00:00:00Z',
    );
    expect((await failure(run('SELECT * FROM flows FOR VERSION AS OF 7'))).message).toBe(
      'INVALID_ARGUMENTS: line 1:39: Iceberg snapshot ID does not exists: 7',
    );
  });

  test('name resolution: catalog-qualified names work without a context; unqualified ones need one', async () => {
    const qualified = await engine.execute('SELECT count(*) FROM "s3tablescatalog/local".net.flows');
    expect(qualified.rows).toEqual([['60']]);
    expect((await failure(engine.execute('SELECT * FROM net.flows'))).message).toBe(
      "TABLE_NOT_FOUND: line 1:15: Table 'awsdatacatalog.net.flows' does not exist",
    );
    expect((await failure(engine.execute('SELECT * FROM "other/x".net.flows'))).message).toMatch(
      /^CATALOG_NOT_FOUND: line 1:15: Catalog 'other\/x' does not exist/,
    );
  });

  test('SHOW TABLES LIKE and DESCRIBE with partition transforms', async () => {
    expect((await run("SHOW TABLES LIKE 'flows_%'")).rows).toEqual([['flows_hourly']]);
    expect((await run("SHOW TABLES 'flows*'")).rows).toEqual([['flows'], ['flows_hourly']]);
    expect((await engine.execute('SHOW TABLES IN "s3tablescatalog/local".net LIKE \'flows\'')).rows).toEqual([
      ['flows'],
    ]);
    expect((await failure(engine.execute('SHOW TABLES', { catalog: ctx.catalog }))).message).toBe(
      'SYNTAX_ERROR: line 1:1: Schema must be specified when session schema is not set (use SHOW TABLES IN <namespace> or pass a database in the query context)',
    );
    expect((await failure(run('SHOW TABLES IN nope'))).message).toBe(
      "SCHEMA_NOT_FOUND: line 1:16: Schema 's3tablescatalog/local.nope' does not exist",
    );
    expect((await failure(engine.execute('SHOW TABLES IN net'))).message).toBe(
      "SCHEMA_NOT_FOUND: line 1:16: Schema 'awsdatacatalog.net' does not exist",
    );
    const described = await run('DESCRIBE flows_hourly');
    expect(described.rows.slice(0, 2)).toEqual([
      ['id', 'bigint', ''],
      ['start_time', 'timestamp', ''],
    ]);
    expect(described.rows.at(-1)).toEqual(['start_time', 'hour', '']);
  });

  test('timestamps print at their Trino precision: columns (6), CAST AS timestamp (3), literals (digits written)', async () => {
    const result = await run(
      `SELECT max(start_time) AS col, CAST(max(start_time) AS timestamp) AS cast3, TIMESTAMP '2024-05-01 10:00:00' AS lit0,
              TIMESTAMP '2024-05-01 10:00:00.321' AS lit3, date_trunc('hour', max(start_time)) AS trunc6,
              from_iso8601_timestamp('2024-05-01T10:00:00.250Z') AS tz FROM flows`,
    );
    expect(result.columns.map((c) => c.type)).toEqual([
      'timestamp(6)',
      'timestamp(3)',
      'timestamp(0)',
      'timestamp(3)',
      'timestamp(6)',
      'timestamp(3) with time zone',
    ]);
    expect(result.rows).toEqual([
      [
        '2024-05-01 04:55:00.000000',
        '2024-05-01 04:55:00.000',
        '2024-05-01 10:00:00',
        '2024-05-01 10:00:00.321',
        '2024-05-01 04:00:00.000000',
        '2024-05-01 10:00:00.250 UTC',
      ],
    ]);
  });

  test('a constant the pruning filter cannot bind only costs pruning, never the answer', async () => {
    await run(`CREATE TABLE ports (port int) TBLPROPERTIES ('table_type'='iceberg')`);
    await run('INSERT INTO ports VALUES (22), (443)');
    expect((await run('SELECT count(*) FROM ports WHERE port < 99999999999')).rows).toEqual([['2']]);
  });

  test('a DELETE that matches nothing commits nothing', async () => {
    const before = await run('SELECT count(*) FROM "flows$snapshots"');
    expect((await run("DELETE FROM flows WHERE action = 'NONE'")).rows).toEqual([['0']]);
    expect((await run('SELECT count(*) FROM "flows$snapshots"')).rows).toEqual(before.rows);
  });

  test('CTAS to an external location writes Parquet through the ExternalStorage and registers a Hive table', async () => {
    const result = await run(
      `CREATE TABLE awsdatacatalog.snap.flows_day WITH (format = 'PARQUET', write_compression = 'ZSTD', external_location = 's3://snapshots/flows/day=1/',
       partitioned_by = ARRAY['action']) AS SELECT id, bytes, action FROM flows`,
    );
    expect(result.rows).toEqual([['60']]);
    // The objects as S3 would list them (the local layout encodes each key: io/stored-paths).
    const keys = objectsUnder(join(dir, 's3/snapshots'), 'flows/day=1/').map((o) => o.key);
    expect([...new Set(keys.map((k) => k.split('/')[2]))]).toEqual(['action=ACCEPT', 'action=REJECT']);
    expect(hive.tables.get('snap.flows_day')?.columns).toEqual([
      { name: 'id', type: 'bigint' },
      { name: 'bytes', type: 'bigint' },
      { name: 'action', type: 'string' },
    ]);
    // The registered table reads back through the catalog, from its location.
    expect((await run('SELECT count(*), sum(bytes) FROM awsdatacatalog.snap.flows_day')).rows).toEqual([
      ['60', '17700'],
    ]);
    const again = await failure(
      run(
        `CREATE TABLE awsdatacatalog.snap.flows_day2 WITH (external_location = 's3://snapshots/flows/day=1/') AS SELECT 1 AS a`,
      ),
    );
    expect(again.message).toBe(
      "HIVE_PATH_ALREADY_EXISTS: Target directory for table 'awsdatacatalog.snap.flows_day2' already exists: s3://snapshots/flows/day=1/",
    );
    const existing = await failure(
      run(
        `CREATE TABLE awsdatacatalog.snap.flows_day WITH (external_location = 's3://snapshots/z/') AS SELECT 1 AS a`,
      ),
    );
    expect(existing.message).toMatch(/^TABLE_ALREADY_EXISTS: .*awsdatacatalog\.snap\.flows_day/);
    const iceberg = await failure(
      run(`CREATE TABLE net.hive WITH (external_location = 's3://snapshots/h/') AS SELECT 1 AS a`),
    );
    expect(iceberg.message).toMatch(
      /^NOT_SUPPORTED: .*CTAS with external_location into s3tablescatalog\/local/,
    );
    const order = await failure(
      run(
        `CREATE TABLE awsdatacatalog.snap.x WITH (external_location = 's3://snapshots/x/', partitioned_by = ARRAY['id']) AS SELECT id, action FROM flows`,
      ),
    );
    expect(order.message).toMatch(/^HIVE_COLUMN_ORDER_MISMATCH/);
    const codec = await failure(
      run(
        `CREATE TABLE awsdatacatalog.snap.y WITH (external_location = 's3://snapshots/y/', write_compression = 'SNAPPY) (x') AS SELECT id FROM flows`,
      ),
    );
    expect(codec.message).toBe(
      "INVALID_TABLE_PROPERTY: write_compression 'SNAPPY) (x' is not supported for Parquet; use one of SNAPPY, ZSTD, GZIP, LZ4, NONE",
    );
    expect(existsSync(join(dir, 's3/snapshots/y'))).toBe(false);
  });

  test('the partitioning property partitions CREATE TABLE and CTAS alike; a bad entry is INVALID_TABLE_PROPERTY', async () => {
    // Act: the same property on both statements.
    await run(
      `CREATE TABLE by_hour (id bigint, start_time timestamp) WITH (partitioning = ARRAY['hour(start_time)'])`,
    );
    await run(
      `CREATE TABLE by_hour_ctas WITH (partitioning = ARRAY['hour(start_time)', 'bucket(id, 4)']) AS SELECT id, start_time FROM flows`,
    );
    // Assess
    const transforms = async (table: string) =>
      (await run(`DESCRIBE ${table}`)).rows.slice(-2).map((r) => r.slice(0, 2));
    expect((await transforms('by_hour')).at(-1)).toEqual(['start_time', 'hour']);
    expect(await transforms('by_hour_ctas')).toEqual([
      ['start_time', 'hour'],
      ['id', 'bucket[4]'],
    ]);
    for (const statement of [
      `CREATE TABLE bad_p (id bigint) WITH (partitioning = ARRAY['hour(id) x'])`,
      `CREATE TABLE bad_p WITH (partitioning = ARRAY['hour(id) x']) AS SELECT id FROM flows`,
    ]) {
      expect((await failure(run(statement))).message).toMatch(
        /^INVALID_TABLE_PROPERTY: line 1:\d+: Unable to parse partitioning value: hour\(id\) x$/,
      );
    }
    expect((await run('SHOW TABLES')).rows).not.toContainEqual(['bad_p']);
  });

  test('the external location writer is pluggable', async () => {
    const storage: ExternalStorage = {
      isEmpty: async () => true,
      dataFiles: async () => [],
      writeParquetFromSql: async (
        connection: DuckDBConnection,
        sql: string,
        location: string,
        options: ParquetWriteOptions,
      ) => {
        const rows = Number(
          (await connection.runAndReadAll(`SELECT count(*) FROM (${sql})`)).getRowsJS()[0]?.[0],
        );
        writes.push({ location, options, rows });
        return { files: 1, bytes: 1 };
      },
    };
    const custom = createSqlEngine(warehouse, {
      catalogs: [hive],
      externalStorage: storage,
      defaultCatalog: ctx.catalog,
      defaultDatabase: ctx.database,
    });
    await custom.execute(
      `CREATE TABLE awsdatacatalog.s.t WITH (format = 'PARQUET', external_location = 's3://b/p/') AS SELECT id FROM flows WHERE id < 5`,
    );
    expect(writes).toEqual([
      { location: 's3://b/p/', options: { partitionedBy: [], compression: undefined }, rows: 5 },
    ]);
  });

  test('MERGE inserts every unmatched source row, even with repeated keys (only matched rows must be unique)', async () => {
    await run(`CREATE TABLE kv (k string, v bigint) TBLPROPERTIES ('table_type'='iceberg')`);
    await run(
      `MERGE INTO kv t USING (VALUES ('a', 1), ('a', 2)) AS s (k, v) ON t.k = s.k WHEN NOT MATCHED THEN INSERT VALUES (s.k, s.v)`,
    );
    expect((await run('SELECT k, v FROM kv ORDER BY v')).rows).toEqual([
      ['a', '1'],
      ['a', '2'],
    ]);
  });

  test('a cancelled statement commits nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const before = await run('SELECT count(*) FROM "kv$snapshots"');
    const e = await failure(
      engine.execute(`INSERT INTO kv VALUES ('z', 9)`, { ...ctx, signal: controller.signal }),
    );
    expect(e.message).toBe('USER_CANCELLED: Query was cancelled by user');
    expect((await run('SELECT count(*) FROM "kv$snapshots"')).rows).toEqual(before.rows);
  });

  test('statements on one engine run one at a time', async () => {
    const results = await Promise.all([
      run(`INSERT INTO kv VALUES ('b', 3)`),
      run('SELECT count(*) FROM kv'),
      run(`INSERT INTO kv VALUES ('c', 4)`),
    ]);
    expect(results[1]?.rows).toEqual([['3']]);
    expect((await run('SELECT count(*) FROM kv')).rows).toEqual([['4']]);
  });
});
