// Reads a table state with icebird, the independent JS Iceberg reader. It only understands the file-system
// catalog layout (version-hint.text), cannot read file:// through Node 20's fetch (we serve it ourselves),
// throws on tables without a snapshot, and time-travels only by being handed metadata whose
// current-snapshot-id is the older snapshot.
import { icebergRead } from 'icebird';
import type { TableMetadata } from '../../src/contract';
import { withFileFetch } from './local-fetch';

export async function readWithIcebird(
  metadata: TableMetadata,
  snapshotId: number,
): Promise<Record<string, unknown>[]> {
  if (snapshotId === 0)
    throw new RangeError('icebird cannot read snapshot id 0 (it treats 0 as "no snapshot")');
  const pinned = { ...metadata, 'current-snapshot-id': snapshotId };
  return withFileFetch(() =>
    icebergRead({
      tableUrl: metadata.location.replace(/\/$/, ''),
      // icebird's own TableMetadata type is structurally the same document.
      metadata: pinned as unknown as Parameters<typeof icebergRead>[0]['metadata'],
    }),
  );
}

/** Reads the latest version the way an outside reader finds it: version-hint.text → vN.metadata.json. */
export async function readLatestWithIcebird(tableLocation: string): Promise<Record<string, unknown>[]> {
  return withFileFetch(() => icebergRead({ tableUrl: tableLocation.replace(/\/$/, '') }));
}
