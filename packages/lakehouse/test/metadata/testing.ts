// Table metadata fixtures for tests of planners and metadata tables that read no files.
import type { Snapshot, TableMetadata } from '../../src/contract';
import { newTableMetadata } from '../../src/metadata/table-metadata';

/**
 * Metadata of an unpartitioned table with one int column `x` whose snapshots are `snapshots` in commit order:
 * all on the snapshot-log, main at the last one. `overrides` replaces whole top-level fields (e.g. `refs`).
 */
export function metadataWithSnapshots(
  location: string,
  snapshots: Snapshot[],
  overrides: Partial<TableMetadata> = {},
): TableMetadata {
  const head = snapshots[snapshots.length - 1];
  return {
    ...newTableMetadata(location, { columns: [{ name: 'x', type: 'int' }] }, 'fixture', 0),
    properties: {},
    'last-sequence-number': head?.['sequence-number'] ?? 0,
    'current-snapshot-id': head?.['snapshot-id'] ?? null,
    snapshots,
    'snapshot-log': snapshots.map((s) => ({
      'snapshot-id': s['snapshot-id'],
      'timestamp-ms': s['timestamp-ms'],
    })),
    refs: head ? { main: { 'snapshot-id': head['snapshot-id'], type: 'branch' } } : {},
    ...overrides,
  };
}
