// The conformance suite: after every operation the engine performs, every snapshot of the table is read by
// icebird (an independent Iceberg reader) and by the engine, and the rows must match; then the invariants
// icebird does not check (field ids, sequence numbers, summaries, partition values, bounds) must hold.
import { FLOW_LOG_V2_SCHEMA, FlowGenerator, type FlowRecord } from '@loglake/flowgen';
import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWarehouse, type TableHandle } from '../../src/index';
import type { LocalWarehouse } from '../../src/catalog/warehouse';
import { filesTable } from '../../src/metadata-tables/file-tables';
import { checkTableState } from './check-table';

let dir: string;
let warehouse: LocalWarehouse;
let table: TableHandle;
let instance: DuckDBInstance;
let connection: DuckDBConnection;
const checkedFiles = new Set<string>();
const gen = new FlowGenerator({ seed: 7 });
const FROM = new Date('2026-11-01T00:00:00Z');

function iso(micros: number): string {
  return `${new Date(Math.floor(micros / 1000)).toISOString().slice(0, 19)}.${String(micros % 1_000_000).padStart(6, '0')}`;
}

function rows(count: number): Record<string, unknown>[] {
  return gen
    .batch({ count, from: FROM, to: new Date(FROM.getTime() + 3 * 3_600_000) })
    .map((r: FlowRecord) => ({ ...r, start_time: iso(r.start_time), end_time: iso(r.end_time) }));
}

/** Every snapshot readable by icebird with the engine's rows, and no invariant broken. */
async function assertConformant(): Promise<void> {
  const report = await checkTableState(warehouse, table, { connection, checkedFiles });
  const mismatched = report.snapshots.filter((s) => !s.equal);
  expect(mismatched).toEqual([]);
  expect(report.violations).toEqual([]);
}

async function count(): Promise<number> {
  const plan = await table.scan();
  const reader = await warehouse.duckdb.connection.runAndReadAll(
    `SELECT count(*)::INTEGER AS n FROM ${plan.relationSql} AS t`,
  );
  return Number(reader.getRowObjectsJS()[0]?.n);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loglake-conformance-'));
  warehouse = await openWarehouse(dir);
  await warehouse.createTableBucket('lab-bucket');
  await warehouse.createNamespace('lab-bucket', 'network');
  table = await warehouse.createTable('lab-bucket', 'network', 'vpc_flow_logs', {
    columns: FLOW_LOG_V2_SCHEMA.map((c) => ({ ...c })),
    partitionBy: [{ sourceColumn: 'start_time', transform: 'hour' }],
    sortBy: [{ sourceColumn: 'srcaddr', direction: 'asc', nullOrder: 'nulls-first' }],
  });
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
  await connection.run(`SET TimeZone='UTC'`);
});

afterAll(async () => {
  connection?.closeSync();
  instance?.closeSync();
  await warehouse?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('every table state the engine produces reads the same in icebird', () => {
  test('appends (a smoke batch, then a load in several commits)', async () => {
    await table.append({ rows: rows(10) });
    await table.append({ rows: rows(200) });
    await table.append({ rows: rows(150) });
    expect(await count()).toBe(360);
    await assertConformant();
  });

  test('add columns: no new snapshot, old rows read NULL', async () => {
    const before = (await table.metadata()).snapshots.length;
    await table.addColumns([
      { name: 'src_host', type: 'string' },
      { name: 'risk', type: 'double' },
    ]);
    expect((await table.metadata()).snapshots.length).toBe(before);
    await table.append({ rows: rows(40).map((r, i) => ({ ...r, src_host: `web-0${i % 5}`, risk: i / 10 })) });
    await assertConformant();
  });

  test('delete by predicate writes position deletes, no data file rewritten', async () => {
    const before = await count();
    const result = await table.deleteWhere({ op: 'eq', column: 'action', value: 'REJECT' });
    expect(result.deletedRows).toBeGreaterThan(0);
    expect(result.snapshot?.summary.operation).toBe('delete');
    expect(result.snapshot?.summary['deleted-data-files']).toBeUndefined();
    expect(await count()).toBe(before - result.deletedRows);
    await assertConformant();
  });

  test('row-level update as position deletes + appended rows (overwrite)', async () => {
    const plan = await table.scan({ withRowIds: true });
    const result = await table.rowDelta({
      deletesSql: `SELECT file_path, pos FROM ${plan.relationSql} AS t WHERE dstport = 22`,
      appends: {
        sql: `SELECT * EXCLUDE (file_path, pos) REPLACE ('ssh' AS src_host) FROM ${plan.relationSql} AS t WHERE dstport = 22`,
      },
      readSnapshotId: plan.snapshotId,
    });
    expect(result.deletedRows).toBe(result.addedRows);
    await assertConformant();
  });

  test('overwrite by predicate', async () => {
    await table.overwriteWhere({ op: 'lt', column: 'packets', value: 3 }, { rows: rows(5) });
    await assertConformant();
  });

  test('rename column: files are not rewritten, readers map by field id', async () => {
    await table.renameColumn('srcaddr', 'src_addr');
    await table.append({ rows: rows(20).map(({ srcaddr, ...r }) => ({ ...r, src_addr: srcaddr })) });
    await assertConformant();
  });

  test('set sort order: a metadata-only commit, later files written in the new order', async () => {
    const before = (await table.metadata()).snapshots.length;
    await table.setSortOrder([{ sourceColumn: 'start_time', direction: 'desc', nullOrder: 'nulls-last' }]);
    expect((await table.metadata()).snapshots.length).toBe(before);
    await table.append({ rows: rows(15).map(({ srcaddr, ...r }) => ({ ...r, src_addr: srcaddr })) });
    // The files the last append added must be in descending start_time order.
    const metadata = await table.metadata();
    const [previous, current] = metadata.snapshots.slice(-2).map((x) => x['snapshot-id']);
    const paths = async (id: number | undefined) =>
      (await filesTable(table.name, metadata, id ?? null)).rows.map((r) => String(r[1]));
    const old = new Set(await paths(previous));
    const added = (await paths(current)).filter((p) => !old.has(p));
    expect(added.length).toBeGreaterThan(0);
    const reader = await warehouse.duckdb.connection.runAndReadAll(
      `SELECT bool_and(ok) AS sorted FROM (
         SELECT coalesce(start_time <= lag(start_time) OVER (PARTITION BY filename ORDER BY file_row_number), true) AS ok
         FROM read_parquet([${added.map((p) => `'${p}'`).join(', ')}], filename = true, file_row_number = true))`,
    );
    expect(reader.getRowObjectsJS()[0]?.sorted).toBe(true);
    await assertConformant();
  });

  test('tags, and time travel to every snapshot (icebird given an older current-snapshot-id)', async () => {
    const metadata = await table.metadata();
    const first = metadata.snapshots[0]?.['snapshot-id'] as number;
    await table.createTag('smoke-test', first);
    const tagged = await table.scan({ ref: 'smoke-test' });
    expect(tagged.metadataRowCount).toBe(10);
    await assertConformant();
  });

  test('compaction rewrites small files and their deletes into a replace snapshot with the same rows', async () => {
    const before = await count();
    const report = await table.compact();
    expect(report.snapshot?.summary.operation).toBe('replace');
    expect(report.rewrittenDeleteFiles).toBeGreaterThan(0);
    expect(await count()).toBe(before);
    expect((await table.metadata()).snapshots.at(-1)?.summary['total-delete-files']).toBe('0');
    await assertConformant();
  });

  test('expiry keeps the tagged snapshot and leaves every retained state readable', async () => {
    const report = await table.expireSnapshots({ minSnapshotsToKeep: 1, maxSnapshotAgeMs: 0 });
    expect(report.expiredSnapshotIds.length).toBeGreaterThan(0);
    const metadata = await table.metadata();
    expect(metadata.snapshots.map((s) => s['snapshot-id'])).toContain(
      metadata.refs['smoke-test']?.['snapshot-id'],
    );
    await assertConformant();
  });
});
