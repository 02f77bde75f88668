// Conformance across Iceberg types and partition transforms: a table with every primitive type the engine
// supports, partitioned by identity, day, bucket and truncate, read by icebird at every snapshot.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { TableHandle } from '../../src/contract';
import { TYPED_COLUMNS, testWarehouse, type TestWarehouse } from '../table/testing';
import { checkTableState } from './check-table';

let env: TestWarehouse;
let table: TableHandle;
let instance: DuckDBInstance;
let connection: DuckDBConnection;

function row(i: number): Record<string, unknown> {
  return {
    flag: i % 2 === 0,
    small: i * 3 - 7,
    big: BigInt(i) * 10_000_000_000n,
    ratio: i / 4,
    score: i * 1.5,
    amount: `${i}.${String(i % 100).padStart(2, '0')}`,
    day: `2026-11-${String(1 + (i % 3)).padStart(2, '0')}`,
    seen_at: `2026-11-0${1 + (i % 3)} 0${i % 10}:15:30.123456`,
    seen_tz: `2026-11-0${1 + (i % 3)}T1${i % 10}:00:00Z`,
    host: `host-${i % 5}`,
    payload: new Uint8Array([i, i + 1, 255]),
  };
}

async function assertConformant(): Promise<void> {
  const report = await checkTableState(env.warehouse, table, { connection });
  expect(report.snapshots.filter((s) => !s.equal)).toEqual([]);
  expect(report.violations).toEqual([]);
}

beforeAll(async () => {
  env = await testWarehouse();
  await env.warehouse.createTableBucket('lab');
  await env.warehouse.createNamespace('lab', 'types');
  table = await env.warehouse.createTable('lab', 'types', 'all_types', {
    columns: TYPED_COLUMNS,
    partitionBy: [
      { sourceColumn: 'day', transform: 'identity' },
      { sourceColumn: 'seen_at', transform: 'day' },
      { sourceColumn: 'host', transform: 'bucket[4]' },
      { sourceColumn: 'small', transform: 'truncate[10]' },
    ],
  });
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
  await connection.run(`SET TimeZone='UTC'`);
});

afterAll(async () => {
  connection?.closeSync();
  instance?.closeSync();
  await env?.dispose();
});

describe('types and transforms', () => {
  test('appends, a delete and compaction of every type read the same in icebird', async () => {
    await table.append({ rows: Array.from({ length: 12 }, (_, i) => row(i)) });
    await table.append({
      rows: Array.from({ length: 12 }, (_, i) => ({ ...row(i + 12), host: null, ratio: null })),
    });
    await assertConformant();
    await table.deleteWhere({ op: 'eq', column: 'flag', value: true });
    await assertConformant();
    await table.compact();
    await assertConformant();
  });
});
