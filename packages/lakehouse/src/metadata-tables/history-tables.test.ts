import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { TableMetadata } from '../contract';
import { metadataWithSnapshots } from '../../test/metadata/testing';
import { historyTable, refsTable, snapshotsTable } from './history-tables';
import { parseMetadataTableName, resolveSnapshotId, MetadataTableError } from './index';
import { toRelationSql } from './relation-sql';

const T0 = Date.UTC(2026, 10, 29, 10, 0, 0);

function metadata(): TableMetadata {
  const snap = (id: number, seq: number, op: 'append' | 'delete', parent?: number) => ({
    'snapshot-id': id,
    ...(parent ? { 'parent-snapshot-id': parent } : {}),
    'sequence-number': seq,
    'timestamp-ms': T0 + seq * 60_000,
    'manifest-list': `file:///w/t/metadata/snap-${id}.avro`,
    summary: { operation: op, 'added-records': '10', 'total-records': String(seq * 10) },
    'schema-id': 0,
  });
  const snapshots = [snap(1, 1, 'append'), snap(2, 2, 'append', 1), snap(3, 3, 'delete', 1)];
  return metadataWithSnapshots('file:///w/t', snapshots, {
    'last-updated-ms': T0,
    refs: {
      main: { 'snapshot-id': 3, type: 'branch' },
      audit: { 'snapshot-id': 2, type: 'tag', 'max-ref-age-ms': 86_400_000 },
    },
  });
}

let instance: DuckDBInstance;
let conn: DuckDBConnection;

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
  await conn.run(`SET TimeZone='UTC'`);
});
afterAll(() => {
  conn.closeSync();
  instance.closeSync();
});

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
}

describe('$snapshots / $history / $refs', () => {
  test('$snapshots has Athena columns; summary is a map without the operation', async () => {
    // Prepare
    const table = snapshotsTable('flows', metadata());
    // Act
    const result = await rows(
      `SELECT snapshot_id, parent_id, operation, summary['total-records'] AS total, cardinality(summary) AS keys, committed_at FROM ${toRelationSql(table)} AS s ORDER BY committed_at`,
    );
    // Assess
    expect(table.columns.map((c) => `${c.name}:${c.type}`)).toEqual([
      'committed_at:timestamp(3) with time zone',
      'snapshot_id:bigint',
      'parent_id:bigint',
      'operation:varchar',
      'manifest_list:varchar',
      'summary:map(varchar, varchar)',
    ]);
    expect(result.map((r) => [r.snapshot_id, r.parent_id, r.operation, r.total, r.keys])).toEqual([
      ['1', null, 'append', '10', '2'],
      ['2', '1', 'append', '20', '2'],
      ['3', '1', 'delete', '30', '2'],
    ]);
    expect(String(result[0]?.committed_at)).toContain('2026-11-29 10:01:00');
  });

  test('$history marks snapshots off the current ancestry (a rolled-back branch of history)', async () => {
    const result = await rows(
      `SELECT snapshot_id, is_current_ancestor FROM ${toRelationSql(historyTable('flows', metadata()))} AS h`,
    );
    expect(result).toEqual([
      { snapshot_id: '1', is_current_ancestor: true },
      { snapshot_id: '2', is_current_ancestor: false },
      { snapshot_id: '3', is_current_ancestor: true },
    ]);
  });

  test('$refs lists main and tags with upper-case types and ages', async () => {
    const result = await rows(`SELECT * FROM ${toRelationSql(refsTable('flows', metadata()))} AS r`);
    expect(result).toEqual([
      {
        name: 'main',
        type: 'BRANCH',
        snapshot_id: '3',
        max_reference_age_in_ms: null,
        min_snapshots_to_keep: null,
        max_snapshot_age_in_ms: null,
      },
      {
        name: 'audit',
        type: 'TAG',
        snapshot_id: '2',
        max_reference_age_in_ms: '86400000',
        min_snapshots_to_keep: null,
        max_snapshot_age_in_ms: null,
      },
    ]);
  });

  test('an empty metadata table is still a typed relation', async () => {
    const empty = { ...metadata(), snapshots: [], 'snapshot-log': [], refs: {} };
    const result = await rows(
      `SELECT count(*) AS n FROM ${toRelationSql(snapshotsTable('flows', empty))} AS s`,
    );
    expect(result).toEqual([{ n: '0' }]);
  });

  test('names and version selectors resolve, and bad ones say what to use', () => {
    expect(parseMetadataTableName('flows$Snapshots')).toEqual({ table: 'flows', kind: 'snapshots' });
    expect(parseMetadataTableName('flows')).toBeNull();
    expect(() => parseMetadataTableName('flows$snapshot')).toThrow(/\$snapshots, \$history/);
    const m = metadata();
    expect(resolveSnapshotId(m)).toBe(3);
    expect(resolveSnapshotId(m, { ref: 'audit' })).toBe(2);
    expect(resolveSnapshotId(m, { asOf: new Date(T0 + 150_000) })).toBe(2);
    expect(() => resolveSnapshotId(m, { snapshotId: 99 })).toThrow(MetadataTableError);
    expect(() => resolveSnapshotId(m, { asOf: new Date(T0) })).toThrow(/No snapshot/);
  });
});
