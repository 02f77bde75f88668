// Bad input never damages a table: wrong types, unknown columns, schema-incompatible appends, invalid
// transforms and expressions are named errors that carry the offending value, and the table's files on
// disk (metadata versions, data, manifests) are exactly as before.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TableHandle } from '../../src/contract';
import {
  InvalidExpressionError,
  InvalidSchemaError,
  InvalidTransformError,
  NoSuchRefError,
  NoSuchSnapshotError,
  NoSuchTableError,
  RefAlreadyExistsError,
  SchemaMismatchError,
} from '../../src/errors';
import type { LakehouseError } from '../../src/errors';
import { toPath } from '../../src/io/file-io';
import { countRows, flowRows, flowTable, testWarehouse, type TestWarehouse } from '../table/testing';

let env: TestWarehouse;
let table: TableHandle;
let root: string;

function listing(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? listing(path) : [`${path}:${statSync(path).size}`];
  });
}

/** Runs `act`, expects it to throw `kind` naming `value`, and the table's files and rows to be unchanged. */
async function refusedWithoutDamage(
  act: () => Promise<unknown>,
  kind: new (...args: never[]) => LakehouseError,
  value: unknown,
): Promise<void> {
  const before = listing(root).sort();
  const rows = await countRows(env.warehouse, table);
  const error = await act().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(kind);
  const named = error as LakehouseError;
  expect(named.name).toBe(kind.name);
  if (value !== undefined)
    expect(`${named.message} ${JSON.stringify(named.value ?? null)}`).toContain(String(value));
  expect(listing(root).sort()).toEqual(before);
  expect(await countRows(env.warehouse, table)).toBe(rows);
}

beforeAll(async () => {
  env = await testWarehouse();
  table = await flowTable(env.warehouse, 'guarded');
  await table.append({ rows: flowRows(12, 2) });
  root = toPath((await table.metadata()).location);
});
afterAll(async () => env.dispose());

describe('rows that do not fit', () => {
  test('a wrong type for a column', async () => {
    await refusedWithoutDamage(
      () => table.append({ rows: [{ ...flowRows(1)[0], bytes: 'lots' }] }),
      SchemaMismatchError,
      'lots',
    );
  });

  test('an unknown column', async () => {
    await refusedWithoutDamage(
      () => table.append({ rows: [{ ...flowRows(1)[0], colour: 'blue' }] }),
      SchemaMismatchError,
      'colour',
    );
  });

  test('a schema-incompatible append from SQL (text into a timestamp, extra column)', async () => {
    await refusedWithoutDamage(
      () => table.append({ sql: `SELECT '10.0.0.1' AS src_addr, 'yesterday' AS start_time` }),
      SchemaMismatchError,
      'yesterday',
    );
    await refusedWithoutDamage(
      () => table.append({ sql: `SELECT 1 AS dst_port, 2 AS not_a_column` }),
      SchemaMismatchError,
      'not_a_column',
    );
  });

  test('a value out of range for int', async () => {
    await refusedWithoutDamage(
      () => table.append({ rows: [{ ...flowRows(1)[0], dst_port: 2 ** 40 }] }),
      SchemaMismatchError,
      String(2 ** 40),
    );
  });
});

describe('definitions that are not valid Iceberg', () => {
  test('invalid transforms are refused and no table is created', async () => {
    const columns = [
      { name: 'host', type: 'string' as const },
      { name: 'ts', type: 'timestamp' as const },
    ];
    for (const [sourceColumn, transform] of [
      ['host', 'hour'],
      ['ts', 'bucket[0]'],
      ['ts', 'weekly'],
    ] as const) {
      const attempt = env.warehouse.createTable('lab', 'network', 'bad_transform', {
        columns,
        partitionBy: [{ sourceColumn, transform: transform as 'hour' }],
      });
      await expect(attempt).rejects.toThrow(InvalidTransformError);
      await expect(attempt).rejects.toThrow(transform);
    }
    await expect(env.warehouse.getTable('lab', 'network', 'bad_transform')).rejects.toThrow(NoSuchTableError);
  });

  test('an unknown column type', async () => {
    const attempt = env.warehouse.createTable('lab', 'network', 'bad_type', {
      columns: [{ name: 'x', type: 'varchar(10)' as 'string' }],
    });
    await expect(attempt).rejects.toThrow(InvalidSchemaError);
    await expect(attempt).rejects.toThrow('varchar(10)');
    await expect(env.warehouse.getTable('lab', 'network', 'bad_type')).rejects.toThrow(NoSuchTableError);
  });

  test('schema changes that would clash', async () => {
    await refusedWithoutDamage(
      () => table.addColumns([{ name: 'bytes', type: 'long' }]),
      InvalidSchemaError,
      'bytes',
    );
    await refusedWithoutDamage(
      () => table.renameColumn('no_such_column', 'x'),
      SchemaMismatchError,
      'no_such_column',
    );
  });
});

describe('operations against things that do not exist', () => {
  test('a delete on an unknown column or with a value of the wrong type', async () => {
    await refusedWithoutDamage(
      () => table.deleteWhere({ op: 'eq', column: 'colour', value: 'blue' }),
      SchemaMismatchError,
      'colour',
    );
    await refusedWithoutDamage(
      () => table.deleteWhere({ op: 'eq', column: 'bytes', value: 'lots' }),
      InvalidExpressionError,
      'lots',
    );
  });

  test('time travel to unknown snapshots and refs; duplicate tags', async () => {
    await refusedWithoutDamage(() => table.scan({ snapshotId: 42 }), NoSuchSnapshotError, 42);
    await refusedWithoutDamage(() => table.scan({ ref: 'nope' }), NoSuchRefError, 'nope');
    await table.createTag('smoke');
    await refusedWithoutDamage(() => table.createTag('smoke'), RefAlreadyExistsError, 'smoke');
  });
});
