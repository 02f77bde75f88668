import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { TableHandle } from '../contract';
import { UnreadableRowsError } from '../errors';
import { currentSchema } from '../metadata/table-metadata';
import {
  ensureNamespace,
  query,
  TYPED_COLUMNS,
  testWarehouse,
  type TestWarehouse,
} from '../../test/table/testing';

const line = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('NDJSON rows and staged appends (the engine owns what it stages)', () => {
  let env: TestWarehouse;
  let n = 0;
  const typedTable = async (): Promise<TableHandle> => {
    await ensureNamespace(env.warehouse, 'lab', 'ingest');
    return env.warehouse.createTable('lab', 'ingest', `typed_${++n}`, {
      columns: [...TYPED_COLUMNS, { name: 'clock', type: 'time' }, { name: 'id', type: 'uuid' }],
    });
  };
  const rowsOf = async (table: TableHandle) => {
    const plan = await table.scan();
    return query(
      env.warehouse,
      `SELECT host, small, big::VARCHAR AS big, amount::VARCHAR AS amount, day::VARCHAR AS day,
              seen_at::VARCHAR AS seen_at, seen_tz::VARCHAR AS seen_tz, to_base64(payload) AS payload,
              clock::VARCHAR AS clock, id::VARCHAR AS id, flag, score
       FROM ${plan.relationSql} AS t ORDER BY host`,
    );
  };
  const stagedTables = async () =>
    (
      await query(
        env.warehouse,
        `SELECT table_name FROM duckdb_tables() WHERE table_name LIKE '__ll_append_%'`,
      )
    ).length;

  beforeAll(async () => {
    env = await testWarehouse();
  });
  afterAll(async () => env.dispose());

  test('every type reads as its column; timestamps follow the Firehose rule (micros numbers or ISO text)', async () => {
    // Prepare: one line per form; `seen_at` given as epoch microseconds, `seen_tz` as ISO text.
    const table = await typedTable();
    const micros = Date.UTC(2026, 10, 29, 10, 0, 0, 123) * 1000 + 456;
    const lines = [
      line({
        host: 'a',
        small: 7,
        big: 9_007_199_254_740_991,
        amount: '12.50',
        day: '2026-11-29',
        seen_at: micros,
        seen_tz: '2026-11-29T12:00:00.000+02:00',
        payload: Buffer.from([1, 2, 255]).toString('base64'),
        clock: '10:20:30.5',
        id: '123e4567-e89b-12d3-a456-426614174000',
        flag: true,
        score: 0.5,
        ignored: 'not a column',
      }),
      line({ host: 'b' }),
    ];

    // Act
    const result = await table.append({ ndjson: lines, microsColumns: ['seen_at'] });

    // Assess
    expect(result.addedRows).toBe(2);
    expect(await rowsOf(table)).toEqual([
      {
        host: 'a',
        small: 7,
        big: '9007199254740991',
        amount: '12.50',
        day: '2026-11-29',
        seen_at: '2026-11-29 10:00:00.123456',
        seen_tz: '2026-11-29 10:00:00+00',
        payload: 'AQL/',
        clock: '10:20:30.5',
        id: '123e4567-e89b-12d3-a456-426614174000',
        flag: true,
        score: 0.5,
      },
      {
        host: 'b',
        small: null,
        big: null,
        amount: null,
        day: null,
        seen_at: null,
        seen_tz: null,
        payload: null,
        clock: null,
        id: null,
        flag: null,
        score: null,
      },
    ]);
  });

  test('a staged append commits its parts as ONE snapshot with the caller summary, never over the engine keys', async () => {
    // Prepare
    const table = await typedTable();
    const schema = currentSchema(await table.metadata());
    const pending = table.newAppend(schema);
    const summary = {
      'writer.generation': '7',
      operation: 'delete',
      'added-records': '999',
      'total-records': '1',
    };

    // Act: three parts, timestamps in a different form in each.
    pending.add({ ndjson: [line({ host: 'p1', seen_at: 1_000_000 })], microsColumns: ['seen_at'] });
    pending.add({ ndjson: [line({ host: 'p2', seen_at: '1970-01-01 00:00:02' })] });
    pending.add({ ndjson: [line({ host: 'p3' }), line({ host: 'p4' })] });
    const result = await pending.commit({ summary });

    // Assess
    const metadata = await table.metadata();
    expect(metadata.snapshots).toHaveLength(1);
    expect(result.attempts).toBe(1);
    expect(metadata.snapshots[0]?.summary).toMatchObject({
      operation: 'append',
      'added-records': '4',
      'total-records': '4',
      'writer.generation': '7',
    });
    expect((await rowsOf(table)).map((r) => [r['host'], r['seen_at']])).toEqual([
      ['p1', '1970-01-01 00:00:01'],
      ['p2', '1970-01-01 00:00:02'],
      ['p3', null],
      ['p4', null],
    ]);
    expect(await stagedTables()).toBe(0);
    expect(() => pending.add({ ndjson: [line({ host: 'late' })] })).toThrow(/already committed/);
  });

  test('a part the reader refuses fails the commit by type; nothing is committed and nothing staged is left', async () => {
    // Prepare: DuckDB refuses an object with a duplicate key (JSON.parse takes the last one).
    const table = await typedTable();
    const pending = table.newAppend(currentSchema(await table.metadata()));
    pending.add({ ndjson: [line({ host: 'fine' })] });
    pending.add({ ndjson: [Buffer.from('{"host":"x","host":"y"}')] });

    // Act
    const outcome = await pending.commit().catch((error: unknown) => error);

    // Assess
    expect(outcome).toBeInstanceOf(UnreadableRowsError);
    expect((outcome as Error).message).toMatch(/Part 2 of an append/);
    expect((await table.metadata()).snapshots).toHaveLength(0);
    expect(await stagedTables()).toBe(0);
  });

  test('injected lost races are retried by the one commit loop, and reported as attempts', async () => {
    // Prepare
    const table = await typedTable();
    const lose = new Set([1, 2]);

    // Act: the first two attempts lose, as if another writer had committed first.
    const result = await table.append(
      { ndjson: [line({ host: 'r' })] },
      { simulateConflict: (attempt) => lose.has(attempt) },
    );

    // Assess
    expect(result.attempts).toBe(3);
    expect((await table.metadata()).snapshots).toHaveLength(1);
  });

  test('describeParquet reports the columns of Parquet files and the bytes a scan of each reads', async () => {
    // Prepare
    const table = await typedTable();
    await table.append({ ndjson: [line({ host: 'a', big: 1 }), line({ host: 'b', big: 2 })] });
    await table.append({ ndjson: [line({ host: 'c', big: 3 })] });
    const plan = await table.scan({ columns: ['big'] });
    const location = (await table.metadata()).location.replace('file://', '');
    const files = (
      await query(
        env.warehouse,
        `SELECT DISTINCT filename AS f FROM read_parquet('${location}/data/**/*.parquet')`,
      )
    ).map((r) => String(r['f']));

    // Act
    const columns = await env.warehouse.describeParquet(files);

    // Assess: the engine's own bytes-scanned rule (scan planner) and the Parquet footers agree.
    expect(files.length).toBe(2);
    expect(columns.map((c) => [c.name, c.duckdbType]).slice(0, 3)).toEqual([
      ['flag', 'BOOLEAN'],
      ['small', 'INTEGER'],
      ['big', 'BIGINT'],
    ]);
    expect(columns.find((c) => c.name === 'big')?.compressedBytes).toBe(plan.stats.bytesScanned);
    expect(plan.stats.bytesScanned).toBeGreaterThan(0);
  });
});
