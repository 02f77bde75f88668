// The lab's own SQL (repo sql/, rendered by @loglake/athena-sql as the lab renders it) runs unchanged through the
// front end, in the order the articles run it, on a small flow table.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { FLOW_LOG_V2_COLUMNS } from '@loglake/flowgen';
import { renderSql, splitStatements, sqlDir as athenaSqlDir } from '@loglake/athena-sql';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StatementResult, Warehouse } from '../contract';
import { objectsUnder } from '../io/stored-paths';
import { testWarehouse, type TestWarehouse } from '../../test/table/testing';
import { createSqlEngine, type AthenaSqlEngine } from './engine';
import { memoryHiveCatalog } from '../../test/sql/testing';

const sqlDir = athenaSqlDir();

function render(file: string, context: Record<string, unknown> = {}): string[] {
  const source = readFileSync(join(sqlDir, file), 'utf8');
  // nunjucks renders a loop over a missing name as nothing: name the out-of-date data instead.
  for (const [, name] of source.matchAll(/{%-?\s*for\s+\w+\s+in\s+(\w+)/g)) {
    if (!((name as string) in context))
      throw new Error(`${file} loops over '${name}', which this test does not supply`);
  }
  return splitStatements(renderSql(source, context));
}

const SCANNER = '198.51.100.7';

function flowRows(count: number, seed: number): string {
  const rows: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = seed * 1000 + i;
    const scanner = i % 4 === 0;
    const src = scanner ? SCANNER : `10.0.0.${(i % 5) + 1}`;
    const dst = scanner ? `10.0.0.${(i % 3) + 1}` : '203.0.113.9';
    const minute = (n * 7) % 180;
    const start = `2024-05-01 ${String(10 + Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00`;
    rows.push(
      `(2, '123456789012', 'eni-${i % 3}', '${src}', '${dst}', ${40000 + n}, ${scanner ? 22 : 443}, 6, ${i + 1}, ${100 * (i + 1)}, ` +
        `TIMESTAMP '${start}', TIMESTAMP '${start}' + INTERVAL '1' MINUTE, '${scanner ? 'REJECT' : 'ACCEPT'}', 'OK')`,
    );
  }
  return `INSERT INTO network.vpc_flow_logs VALUES ${rows.join(', ')}`;
}

const inventory = [
  { private_ip: '10.0.0.1', hostname: 'web-01', tier: 'web', interface_id: 'eni-0' },
  { private_ip: '10.0.0.2', hostname: 'web-04', tier: 'web', interface_id: 'eni-1' },
  { private_ip: '10.0.0.3', hostname: 'app-08', tier: 'app', interface_id: 'eni-2' },
];
const changes = [
  { private_ip: '10.0.0.3', hostname: 'app-08', tier: 'batch', interface_id: 'eni-2', op: 'upsert' },
  { private_ip: '10.0.0.2', hostname: 'web-04', tier: 'web', interface_id: 'eni-1', op: 'delete' },
  { private_ip: '10.0.0.4', hostname: 'web-05', tier: 'web', interface_id: 'eni-3', op: 'upsert' },
];

describe('the lab SQL files run unchanged', () => {
  let testbed: TestWarehouse;
  let dir: string;
  let warehouse: Warehouse;
  let engine: AthenaSqlEngine;
  const captured: Record<string, string> = {};

  const run = async (file: string, context: Record<string, unknown> = {}): Promise<StatementResult> => {
    let last: StatementResult | undefined;
    for (const statement of render(file, context)) last = await engine.execute(statement);
    return last as StatementResult;
  };
  const sql = (statement: string): Promise<StatementResult> => engine.execute(statement);
  const latestSnapshot = async (table: string): Promise<string> =>
    (await sql(`SELECT CAST(snapshot_id AS varchar) FROM ${table} ORDER BY committed_at DESC LIMIT 1`))
      .rows[0]?.[0] as string;

  beforeAll(async () => {
    testbed = await testWarehouse();
    ({ dir, warehouse } = testbed);
    await warehouse.createTableBucket('lab');
    for (const ns of ['network', 'ref', 'enriched']) await warehouse.createNamespace('lab', ns);
    // The snapshots' Parquet tables are Hive tables in Glue's AwsDataCatalog, as the snapshot Lambda writes them.
    engine = createSqlEngine(warehouse, {
      defaultCatalog: 's3tablescatalog/lab',
      catalogs: [memoryHiveCatalog(['snapshots'])],
    });
    // The flow table is created by Terraform in the lab; here by SQL with the same columns.
    await sql(
      `CREATE TABLE network.vpc_flow_logs (version int, account_id string, interface_id string, srcaddr string, dstaddr string,
       srcport int, dstport int, protocol int, packets bigint, bytes bigint, start_time timestamp, end_time timestamp,
       action string, log_status string) TBLPROPERTIES ('table_type' = 'iceberg')`,
    );
    await sql(flowRows(10, 1));
    captured['smoke'] = await latestSnapshot('network."vpc_flow_logs$snapshots"');
    await sql(flowRows(40, 2));
  });

  afterAll(async () => {
    await testbed?.dispose();
  });

  test('sql/ exists where the lab keeps it', () => {
    expect(existsSync(join(sqlDir, 'network/count_rows.sql'))).toBe(true);
  });

  test('Part 1: network queries, time travel, delete, add columns', async () => {
    expect((await run('network/count_rows.sql')).rows).toEqual([['50']]);
    const busiest = await run('network/busiest_hour.sql');
    expect(busiest.columns.map((c) => c.name)).toEqual(['hour_start', 'flows']);
    const hour = await run('network/one_hour.sql.njk', { hour_start: '2024-05-01 10:00:00' });
    expect(hour.rows.length).toBeGreaterThan(0);
    const smoke = await run('network/time_travel_smoke.sql.njk', { snapshot_id: captured['smoke'] });
    expect(smoke.rows).toEqual([['10']]);
    expect(smoke.stats.dataScannedInBytes).toBe(0);
    expect((await run('network/snapshots.sql')).rows).toHaveLength(2);
    expect((await run('network/snapshots_by_operation.sql')).rows.map((r) => r.slice(0, 2))).toEqual([
      ['append', '2'],
    ]);
    expect((await run('network/files.sql')).rows[0]?.slice(0, 3)).toEqual(['0', '2', '50']);
    expect((await run('network/duplicates.sql')).rows).toEqual([['50', '50', '0']]);
    expect((await run('network/top_rejected_sources.sql')).rows[0]?.[0]).toBe(SCANNER);
    const scannerBefore = (await run('network/scanner_rows.sql.njk', { scanner_ip: SCANNER })).rows[0]?.[0];
    expect(Number(scannerBefore)).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 20));
    const before = new Date().toISOString().replace('T', ' ').replace('Z', '');
    await new Promise((r) => setTimeout(r, 20));
    await run('network/delete_scanner.sql.njk', { scanner_ip: SCANNER });
    expect((await run('network/scanner_rows.sql.njk', { scanner_ip: SCANNER })).rows).toEqual([['0']]);
    expect((await run('network/undo_by_timestamp.sql.njk', { before, scanner_ip: SCANNER })).rows).toEqual([
      [scannerBefore],
    ]);
    const snapshotsBefore = (await run('network/snapshots.sql')).rows.length;
    await run('network/add_columns.sql');
    expect((await run('network/snapshots.sql')).rows).toHaveLength(snapshotsBefore);
    const nulls = await run('network/new_columns_nulls.sql');
    expect(nulls.rows[0]?.[0]).toBe(nulls.rows[0]?.[1]);
  });

  test('Part 2: reference data with MERGE, the refused duplicate', async () => {
    await run('ref/create_tables.sql');
    await run('ref/load_inventory.sql.njk', { inventory, known_bad: [{ ip: SCANNER, reason: 'scanner' }] });
    captured['inventory_first'] = await latestSnapshot('ref."host_inventory$snapshots"');
    await run('ref/merge_inventory.sql.njk', { inventory_changes: changes });
    expect((await run('ref/inventory.sql')).rows.map((r) => r.slice(0, 3))).toEqual([
      ['10.0.0.1', 'web-01', 'web'],
      ['10.0.0.3', 'app-08', 'batch'],
      ['10.0.0.4', 'web-05', 'web'],
    ]);
    const history = await run('ref/inventory_snapshots.sql');
    expect(history.rows.map((r) => r.slice(2))).toEqual([
      ['append', '3', null, '3'],
      // total-records counts data-file records: position deletes do not reduce it (Iceberg's summary).
      ['overwrite', '2', '2', '5'],
    ]);
    const duplicate = [changes[0], { ...changes[0], tier: 'web' }];
    await expect(
      run('ref/merge_duplicate_key.sql.njk', { duplicate_key_changes: duplicate }),
    ).rejects.toThrow(/^MERGE_TARGET_ROW_MULTIPLE_MATCHES/);
    expect((await run('ref/inventory_snapshots.sql')).rows).toHaveLength(2);
    await run('ref/merge_known_bad.sql.njk', {
      known_bad_changes: [
        { ip: SCANNER, reason: 'port scanner', op: 'upsert' },
        { ip: '192.0.2.1', reason: 'botnet', op: 'upsert' },
      ],
    });
    expect((await sql('SELECT count(*) FROM ref.known_bad_ips')).rows).toEqual([['2']]);
  });

  test('Part 2: labels at load time, change feed, hour partitioning', async () => {
    await run('enriched/create_labelled.sql');
    const flowsSnapshot = await latestSnapshot('network."vpc_flow_logs$snapshots"');
    await run('enriched/backfill.sql.njk', {
      flows_snapshot: flowsSnapshot,
      inventory_snapshot: captured['inventory_first'],
    });
    const backfilled = Number(
      (await sql('SELECT count(*) FROM enriched.vpc_flow_logs_labelled')).rows[0]?.[0],
    );
    expect(backfilled).toBe(Number((await run('network/count_rows.sql')).rows[0]?.[0]));
    await sql(
      flowRows(8, 3).replace(
        'INSERT INTO network.vpc_flow_logs',
        `INSERT INTO network.vpc_flow_logs (${FLOW_LOG_V2_COLUMNS.join(', ')})`,
      ),
    );
    const inventoryNow = await latestSnapshot('ref."host_inventory$snapshots"');
    expect(
      (await run('enriched/change_feed_count.sql.njk', { backfill_snapshot: flowsSnapshot })).rows,
    ).toEqual([['8']]);
    await run('enriched/change_feed.sql.njk', {
      backfill_snapshot: flowsSnapshot,
      inventory_snapshot: inventoryNow,
    });
    expect((await sql('SELECT count(*) FROM enriched.vpc_flow_logs_labelled')).rows).toEqual([
      [String(backfilled + 8)],
    ]);
    const labels = await run('enriched/labels_by_snapshot.sql');
    expect(labels.rows.some((r) => r[1] === 'web-04')).toBe(true);
    expect((await run('enriched/snapshots.sql')).rows).toHaveLength(2);
    const flat = await run('network/one_hour.sql.njk', { hour_start: '2024-05-01 10:00:00' });
    const hourly = await run('enriched/one_hour.sql.njk', { hour_start: '2024-05-01 10:00:00' });
    expect(hourly.rows).toEqual(flat.rows);
    expect(hourly.stats.dataScannedInBytes).toBeLessThan(flat.stats.dataScannedInBytes);
    const now = await run('enriched/join_as_of_now.sql.njk', {
      decommissioned_ip: '10.0.0.2',
      moved_ip: '10.0.0.3',
    });
    expect(now.rows.map((r) => r.slice(0, 3))).toEqual([
      ['10.0.0.2', 'unknown', 'unknown'],
      ['10.0.0.3', 'app-08', 'batch'],
    ]);
  });

  test('snapshots case study: CTAS to Parquet at an external location, completeness, analysts query', async () => {
    const source = 'network.vpc_flow_logs';
    const day = { day_start: '2024-05-01 00:00:00', day_end: '2024-05-02 00:00:00' };
    const result = await run('snapshots/build_snapshot.sql.njk', {
      target: 'awsdatacatalog.snapshots.vpc_flow_logs_20240501_run1',
      location: 's3://loglake-snapshots/vpc_flow_logs/run1/',
      columns: ['srcaddr', 'dstaddr', 'action', 'bytes', 'start_time'],
      watermark: '2024-05-01',
      built_at: '2024-05-02 06:00:00',
      source,
      time_column: 'start_time',
      filters: [],
      ...day,
    });
    expect(Number(result.rows[0]?.[0])).toBeGreaterThan(0);
    // The objects under the location, as S3 lists them (the local layout encodes keys: io/stored-paths).
    const keys = objectsUnder(join(dir, 's3/loglake-snapshots'), 'vpc_flow_logs/run1/').map((o) => o.key);
    expect(keys.some((k) => k.endsWith('.parquet'))).toBe(true);
    const hours = await run('snapshots/hours_present.sql.njk', {
      source,
      time_column: 'start_time',
      from_timestamp: '2024-05-01 00:00:00',
    });
    expect(hours.rows.map((r) => r[1])).toEqual(['10', '11', '12']);
    const top = await run('snapshots/analysts_query.sql.njk', {
      table: source,
      time_column: 'start_time',
      ...day,
    });
    expect(top.columns.map((c) => c.name)).toEqual(['srcaddr', 'flows', 'total_bytes']);
  });
});
