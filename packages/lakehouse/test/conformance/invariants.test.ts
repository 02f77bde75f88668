// The conformance checks must be able to fail: tampered metadata and swapped files are reported, and the row
// comparison tells which rows differ.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { copyFileSync } from 'node:fs';
import type { TableHandle, TableMetadata } from '../../src/contract';
import { toPath } from '../../src/io/file-io';
import { filesTable } from '../../src/metadata-tables/file-tables';
import { flowRows, flowTable, testWarehouse, type TestWarehouse } from '../table/testing';
import { checkMetadataDocument, checkTableInvariants } from './invariants';
import { compareRows, normaliseRows } from './row-compare';

let env: TestWarehouse;
let table: TableHandle;
let instance: DuckDBInstance;
let connection: DuckDBConnection;

beforeAll(async () => {
  env = await testWarehouse();
  table = await flowTable(env.warehouse, 'checked');
  await table.append({ rows: flowRows(12, 2) });
  await table.deleteWhere({ op: 'eq', column: 'action', value: 'REJECT' });
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
});
afterAll(async () => {
  connection.closeSync();
  instance.closeSync();
  await env.dispose();
});

describe('invariants', () => {
  test('a table the engine wrote has none broken', async () => {
    expect(await checkTableInvariants({ connection }, await table.metadata())).toEqual([]);
  });

  test('tampered metadata is reported: summary totals, refs, sequence numbers', async () => {
    const meta = await table.metadata();
    const head = meta.snapshots.at(-1)!;
    const tampered: TableMetadata = {
      ...meta,
      snapshots: [
        ...meta.snapshots.slice(0, -1),
        { ...head, summary: { ...head.summary, 'total-records': '999' }, 'sequence-number': 1 },
      ],
      refs: { main: { 'snapshot-id': meta.snapshots[0]!['snapshot-id'], type: 'branch' } },
    };
    const problems = await checkTableInvariants({ connection }, tampered);
    expect(problems.some((p) => /total-records=999, files say 12/.test(p))).toBe(true);
    expect(problems.some((p) => /refs.main .* != current-snapshot-id/.test(p))).toBe(true);
    expect(
      checkMetadataDocument(tampered).some((p) => /sequence number not above its parent's/.test(p)),
    ).toBe(true);
  });

  test('a data file swapped for another partition’s file breaks size, partition and bounds checks', async () => {
    const meta = await table.metadata();
    const files = (await filesTable(table.name, meta, meta['current-snapshot-id'] ?? null)).rows.filter(
      (r) => r[0] === 0,
    );
    const [a, b] = files.map((r) => toPath(String(r[1])));
    copyFileSync(b!, a!);
    const problems = await checkTableInvariants({ connection }, meta);
    expect(problems.some((p) => p.includes('partition start_time_hour='))).toBe(true);
    expect(problems.some((p) => p.includes('bounds'))).toBe(true);
  });
});

describe('row comparison', () => {
  test('rows compare by field id across a rename, as multisets, and name what differs', () => {
    const current = {
      'schema-id': 1,
      type: 'struct' as const,
      fields: [
        { id: 1, name: 'src', type: 'string' as const, required: false },
        { id: 2, name: 'n', type: 'long' as const, required: false },
      ],
    };
    const old = {
      ...current,
      'schema-id': 0,
      fields: [{ ...current.fields[0]!, name: 'srcaddr' }, current.fields[1]!],
    };
    const engine = normaliseRows(
      current,
      [
        { srcaddr: 'a', n: 1n },
        { srcaddr: 'a', n: 1n },
      ],
      old,
    );
    const icebird = normaliseRows(current, [
      { src: 'a', n: 1n },
      { src: 'b', n: 1n },
    ]);
    const diff = compareRows(engine, icebird);
    expect(diff.equal).toBe(false);
    expect(diff.onlyLeft).toEqual([{ '1:src': 'a', '2:n': '1' }]);
    expect(diff.onlyRight).toEqual([{ '1:src': 'b', '2:n': '1' }]);
    expect(
      compareRows(
        engine,
        normaliseRows(current, [
          { src: 'a', n: 1 },
          { src: 'a', n: 1n },
        ]),
      ).equal,
    ).toBe(true);
  });
});
