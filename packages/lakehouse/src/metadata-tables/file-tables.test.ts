// $files, $manifests and $partitions over a real table, bound as DuckDB relations.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { TableHandle } from '../contract';
import {
  ensureNamespace,
  flowRows,
  flowTable,
  query,
  testWarehouse,
  type TestWarehouse,
} from '../../test/table/testing';
import { metadataTable } from './index';

let env: TestWarehouse;
let table: TableHandle;
let firstSnapshot: number;

beforeAll(async () => {
  env = await testWarehouse();
  table = await flowTable(env.warehouse, 'flows');
  // Two hours (2024-05-01 00 and 01), two commits, then a delete → 4 data files + 4 position-delete files (one per data file, as Athena writes them).
  await table.append({ rows: flowRows(10, 2) });
  firstSnapshot = (await table.metadata()).snapshots[0]!['snapshot-id'];
  await table.append({ rows: flowRows(10, 2, 10) });
  await table.deleteWhere({ op: 'eq', column: 'action', value: 'REJECT' });
});
afterAll(async () => env.dispose());

async function select(sql: string): Promise<Record<string, unknown>[]> {
  const rows = await query(env.warehouse, sql);
  return JSON.parse(
    JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)),
  ) as Record<string, unknown>[];
}

describe('$files', () => {
  test('lists data and delete files with Athena columns, bounds as human strings and the partition row', async () => {
    // Act
    const files = await metadataTable(table, 'files');
    const rows = await select(
      `SELECT content, count(*) AS n, sum(record_count) AS records, min(partition.start_time_hour) AS first_hour,
              min(lower_bounds[3]) AS min_bytes, min(file_format) AS format
       FROM ${files.relationSql} AS f GROUP BY content ORDER BY content`,
    );
    // Assess
    expect(files.columns.map((c) => c.name)).toEqual([
      'content',
      'file_path',
      'file_format',
      'record_count',
      'file_size_in_bytes',
      'column_sizes',
      'value_counts',
      'null_value_counts',
      'nan_value_counts',
      'lower_bounds',
      'upper_bounds',
      'key_metadata',
      'split_offsets',
      'equality_ids',
      'partition',
    ]);
    expect(files.columns.at(-1)?.type).toBe('row(start_time_hour integer)');
    const hour = Math.floor(Date.UTC(2024, 4, 1) / 3_600_000);
    expect(rows).toEqual([
      { content: 0, n: 4, records: 20, first_hour: hour, min_bytes: '100', format: 'PARQUET' },
      { content: 1, n: 4, records: 4, first_hour: hour, min_bytes: null, format: 'PARQUET' },
    ]);
  });

  test('time travel: the files of an older snapshot', async () => {
    const files = await metadataTable(table, 'files', { snapshotId: firstSnapshot });
    expect(files.rows).toHaveLength(2);
  });
});

describe('$files partition values of other types', () => {
  test('a decimal identity partition shows its value, not its bytes', async () => {
    // Prepare
    await ensureNamespace(env.warehouse, 'lab', 'network');
    const prices = await env.warehouse.createTable('lab', 'network', 'prices', {
      columns: [
        { name: 'amount', type: 'decimal(10,2)' },
        { name: 'at', type: 'date' },
      ],
      partitionBy: [
        { sourceColumn: 'amount', transform: 'identity' },
        { sourceColumn: 'at', transform: 'identity' },
      ],
    });
    await prices.append({ rows: [{ amount: '-1.50', at: '2024-05-01' }] });
    // Act
    const files = await metadataTable(prices, 'files');
    const rows = await select(
      `SELECT CAST(partition.amount AS VARCHAR) AS amount, CAST(partition.at AS VARCHAR) AS at FROM ${files.relationSql} AS f`,
    );
    // Assess
    expect(files.columns.at(-1)?.type).toBe('row(amount decimal(10,2), at date)');
    expect(rows).toEqual([{ amount: '-1.50', at: '2024-05-01' }]);
  });
});

describe('$partitions metrics of other types', () => {
  test('decimal and string bounds are ordered by value (10.00 above 9.00; UTF-8 order), not as text', async () => {
    // Prepare: two files, so the partition's min and max come from comparing their bounds
    await ensureNamespace(env.warehouse, 'lab', 'network');
    const costs = await env.warehouse.createTable('lab', 'network', 'costs', {
      columns: [
        { name: 'amount', type: 'decimal(10,2)' },
        { name: 'label', type: 'string' },
      ],
    });
    await costs.append({ rows: [{ amount: '9.00', label: '\u{1F600}' }] });
    await costs.append({ rows: [{ amount: '10.00', label: '\uFFFD' }] });
    // Act
    const partitions = await metadataTable(costs, 'partitions');
    const rows = await select(
      `SELECT CAST(data.amount.min AS VARCHAR) AS lo, CAST(data.amount.max AS VARCHAR) AS hi,
              data.label.min AS first, data.label.max AS last FROM ${partitions.relationSql} AS p`,
    );
    // Assess: U+FFFD is 3 UTF-8 bytes (EF BF BD), U+1F600 4 (F0 …): the emoji sorts last in UTF-8, first in UTF-16.
    expect(rows).toEqual([{ lo: '9.00', hi: '10.00', first: '\uFFFD', last: '\u{1F600}' }]);
  });
});

describe('$manifests and $partitions', () => {
  test('$manifests: one row per manifest with counts and partition ranges in human form', async () => {
    const manifests = await metadataTable(table, 'manifests');
    const rows = await select(
      `SELECT sum(added_data_files_count) AS added, sum(existing_data_files_count) AS existing, count(*) AS n,
              min(partitions[1].lower_bound) AS lo, max(partitions[1].upper_bound) AS hi
       FROM ${manifests.relationSql} AS m`,
    );
    expect(rows).toEqual([{ added: 8, existing: 0, n: 3, lo: '2024-05-01-00', hi: '2024-05-01-01' }]);
  });

  test('$partitions: one row per hour with record and file counts and per-column metrics', async () => {
    const partitions = await metadataTable(table, 'partitions');
    expect(partitions.columns.map((c) => c.name)).toEqual([
      'partition',
      'record_count',
      'file_count',
      'total_size',
      'data',
    ]);
    const rows = await select(
      `SELECT partition.start_time_hour AS hour, record_count, file_count, data.bytes.min AS min_bytes, data.bytes.max AS max_bytes,
              data.bytes.null_count AS nulls
       FROM ${partitions.relationSql} AS p ORDER BY hour`,
    );
    const hour = Math.floor(Date.UTC(2024, 4, 1) / 3_600_000);
    expect(rows).toEqual([
      { hour, record_count: 10, file_count: 2, min_bytes: 100, max_bytes: 118, nulls: 0 },
      { hour: hour + 1, record_count: 10, file_count: 2, min_bytes: 101, max_bytes: 119, nulls: 0 },
    ]);
  });

  test('$snapshots reads the story of the table as Athena does, grouped by operation', async () => {
    const snapshots = await metadataTable(table, 'snapshots');
    const rows = await select(
      `SELECT operation, count(*) AS n FROM ${snapshots.relationSql} AS s GROUP BY operation ORDER BY operation`,
    );
    expect(rows).toEqual([
      { operation: 'append', n: 2 },
      { operation: 'delete', n: 1 },
    ]);
  });
});
