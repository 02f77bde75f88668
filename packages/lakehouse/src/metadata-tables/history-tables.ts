// $snapshots, $history and $refs: answered from the table metadata document alone (no manifest is read).
// Column names and types follow Trino's Iceberg connector, which Athena engine v3 exposes.
import type { TableMetadata } from '../contract';
import type { MetadataColumn, MetadataTable, MetadataValue } from './types';

const TS = { type: 'timestamp(3) with time zone', duckdbType: 'TIMESTAMPTZ' };
const BIGINT = { type: 'bigint', duckdbType: 'BIGINT' };
const INTEGER = { type: 'integer', duckdbType: 'INTEGER' };
const VARCHAR = { type: 'varchar', duckdbType: 'VARCHAR' };
const BOOLEAN = { type: 'boolean', duckdbType: 'BOOLEAN' };

export const SNAPSHOTS_COLUMNS: MetadataColumn[] = [
  { name: 'committed_at', ...TS },
  { name: 'snapshot_id', ...BIGINT },
  { name: 'parent_id', ...BIGINT },
  { name: 'operation', ...VARCHAR },
  { name: 'manifest_list', ...VARCHAR },
  { name: 'summary', type: 'map(varchar, varchar)', duckdbType: 'MAP(VARCHAR, VARCHAR)' },
];

export const HISTORY_COLUMNS: MetadataColumn[] = [
  { name: 'made_current_at', ...TS },
  { name: 'snapshot_id', ...BIGINT },
  { name: 'parent_id', ...BIGINT },
  { name: 'is_current_ancestor', ...BOOLEAN },
];

export const REFS_COLUMNS: MetadataColumn[] = [
  { name: 'name', ...VARCHAR },
  { name: 'type', ...VARCHAR },
  { name: 'snapshot_id', ...BIGINT },
  { name: 'max_reference_age_in_ms', ...BIGINT },
  { name: 'min_snapshots_to_keep', ...INTEGER },
  { name: 'max_snapshot_age_in_ms', ...BIGINT },
];

/** Snapshot ids from `snapshotId` back through its parents (the snapshot's ancestry, itself included). */
export function ancestorIds(metadata: TableMetadata, snapshotId: number | null | undefined): Set<number> {
  const byId = new Map(metadata.snapshots.map((s) => [s['snapshot-id'], s]));
  const out = new Set<number>();
  let cursor = snapshotId ?? undefined;
  while (cursor !== undefined && !out.has(cursor)) {
    out.add(cursor);
    cursor = byId.get(cursor)?.['parent-snapshot-id'];
  }
  return out;
}

export function snapshotsTable(tableName: string, metadata: TableMetadata): MetadataTable {
  const rows = [...metadata.snapshots]
    .sort((a, b) => a['timestamp-ms'] - b['timestamp-ms'] || a['sequence-number'] - b['sequence-number'])
    .map((s): MetadataValue[] => {
      // Iceberg's Snapshot.summary() leaves the operation out: it has its own column.
      const summary = new Map<string, MetadataValue>(
        Object.entries(s.summary).filter(([k]) => k !== 'operation'),
      );
      return [
        new Date(s['timestamp-ms']),
        s['snapshot-id'],
        s['parent-snapshot-id'] ?? null,
        s.summary.operation,
        s['manifest-list'],
        summary,
      ];
    });
  return { name: `${tableName}$snapshots`, columns: SNAPSHOTS_COLUMNS, rows };
}

export function historyTable(tableName: string, metadata: TableMetadata): MetadataTable {
  const byId = new Map(metadata.snapshots.map((s) => [s['snapshot-id'], s]));
  const ancestors = ancestorIds(metadata, metadata['current-snapshot-id']);
  const rows = metadata['snapshot-log'].map((entry): MetadataValue[] => [
    new Date(entry['timestamp-ms']),
    entry['snapshot-id'],
    byId.get(entry['snapshot-id'])?.['parent-snapshot-id'] ?? null,
    ancestors.has(entry['snapshot-id']),
  ]);
  return { name: `${tableName}$history`, columns: HISTORY_COLUMNS, rows };
}

export function refsTable(tableName: string, metadata: TableMetadata): MetadataTable {
  const rows = Object.entries(metadata.refs)
    .sort(([a], [b]) => (a === 'main' ? -1 : b === 'main' ? 1 : a.localeCompare(b)))
    .map(([name, ref]): MetadataValue[] => [
      name,
      ref.type.toUpperCase(),
      ref['snapshot-id'],
      ref['max-ref-age-ms'] ?? null,
      ref.type === 'branch' ? (ref['min-snapshots-to-keep'] ?? null) : null,
      ref.type === 'branch' ? (ref['max-snapshot-age-ms'] ?? null) : null,
    ]);
  return { name: `${tableName}$refs`, columns: REFS_COLUMNS, rows };
}
