// Helpers shared by the engine's tests: a throwaway warehouse and a flow-log-like table.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ColumnDefinition, CreateTableInput, TableHandle } from '../../src/contract';
import { openWarehouse, type LocalWarehouse } from '../../src/catalog/warehouse';
import type { DataFile } from '../../src/manifests/data-file';
import { snapshotFiles } from '../../src/manifests/live-files';
import { branchHead } from '../../src/metadata/table-metadata';

export interface TestWarehouse {
  warehouse: LocalWarehouse;
  dir: string;
  dispose(): Promise<void>;
}

export async function testWarehouse(): Promise<TestWarehouse> {
  const dir = await mkdtemp(join(tmpdir(), 'loglake-engine-'));
  const warehouse = await openWarehouse(dir);
  return {
    warehouse,
    dir,
    dispose: async () => {
      await warehouse.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export const FLOW_TABLE: CreateTableInput = {
  columns: [
    { name: 'src_addr', type: 'string' },
    { name: 'dst_port', type: 'int' },
    { name: 'bytes', type: 'long' },
    { name: 'action', type: 'string' },
    { name: 'start_time', type: 'timestamp' },
  ],
  partitionBy: [{ sourceColumn: 'start_time', transform: 'hour' }],
  sortBy: [{ sourceColumn: 'src_addr', direction: 'asc', nullOrder: 'nulls-first' }],
};

/** Creates the table bucket and namespace unless they exist. */
export async function ensureNamespace(
  warehouse: LocalWarehouse,
  bucket: string,
  namespace: string,
): Promise<void> {
  await warehouse.createTableBucket(bucket).catch(() => undefined);
  await warehouse.createNamespace(bucket, namespace).catch(() => undefined);
}

/** The data files of a table's current snapshot. */
export async function currentDataFiles(table: TableHandle): Promise<DataFile[]> {
  const meta = await table.metadata();
  return (await snapshotFiles(meta, branchHead(meta))).dataFiles.map((f) => f.file);
}

export async function flowTable(warehouse: LocalWarehouse, name = 'flows'): Promise<TableHandle> {
  await ensureNamespace(warehouse, 'lab', 'network');
  return warehouse.createTable('lab', 'network', name, FLOW_TABLE);
}

/** One column of most primitive types (no time, no uuid), named as the types tests fill them. */
export const TYPED_COLUMNS: ColumnDefinition[] = [
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

/** `count` flow rows spread over `hours` hours starting 2024-05-01T00:00Z. */
export function flowRows(count: number, hours = 3, offset = 0): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => {
    const n = i + offset;
    const hour = n % hours;
    return {
      src_addr: `10.0.${n % 7}.${n % 13}`,
      dst_port: [22, 80, 443][n % 3],
      bytes: 100 + n,
      action: n % 5 === 0 ? 'REJECT' : 'ACCEPT',
      start_time: `2024-05-01 ${String(hour).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}:00`,
    };
  });
}

/** Runs a query over a scan relation on the warehouse connection. */
export async function query(warehouse: LocalWarehouse, sql: string): Promise<Record<string, unknown>[]> {
  return warehouse.duckdb.all(sql);
}

export async function countRows(
  warehouse: LocalWarehouse,
  table: TableHandle,
  options = {},
): Promise<number> {
  const plan = await table.scan(options);
  const [row] = await query(warehouse, `SELECT count(*) AS n FROM ${plan.relationSql} AS t`);
  return Number(row?.['n']);
}
