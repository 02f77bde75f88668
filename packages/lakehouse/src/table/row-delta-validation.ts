// Re-validation of a row delta against the latest metadata: the data files its deletes reference must still
// be live, and no delete file committed since the read snapshot may touch them (two updates of the same
// rows must not both win: Iceberg's serializable row-delta check).
import type { TableMetadata } from '../contract';
import { CommitConflictError } from '../errors';
import { snapshotFiles } from '../manifests/live-files';
import { branchHead, snapshotById } from '../metadata/table-metadata';
import type { WrittenDeletes } from './position-delete-writer';

export async function validateRowDelta(
  latest: TableMetadata,
  readSnapshotId: number | null,
  deletes: WrittenDeletes,
  table: string,
): Promise<void> {
  if (deletes.referencedDataFiles.length === 0) return;
  const head = branchHead(latest);
  if (head?.['snapshot-id'] === readSnapshotId) return;
  const current = await snapshotFiles(latest, head);
  const live = new Map(current.dataFiles.map((f) => [f.file.filePath, f]));
  const gone = deletes.referencedDataFiles.filter((p) => !live.has(p));
  if (gone.length > 0) {
    throw new CommitConflictError(
      `Conflict on ${table}: rows to delete are in ${gone[0]}, which another commit removed or rewrote since snapshot ` +
        `${readSnapshotId}. Re-run the statement against the current table.`,
      { value: gone },
    );
  }
  const before = readSnapshotId === null ? null : snapshotById(latest, readSnapshotId);
  const seen = new Set((await snapshotFiles(latest, before)).deleteFiles.map((f) => f.file.filePath));
  const touched = new Set(
    deletes.referencedDataFiles.map((p) => {
      const f = live.get(p)!;
      return `${f.specId}:${JSON.stringify(f.file.partition, bigintSafe)}`;
    }),
  );
  const conflicting = current.deleteFiles.find(
    (d) =>
      !seen.has(d.file.filePath) &&
      touched.has(`${d.specId}:${JSON.stringify(d.file.partition, bigintSafe)}`),
  );
  if (conflicting) {
    throw new CommitConflictError(
      `Conflict on ${table}: another commit deleted rows in the same files since snapshot ${readSnapshotId} ` +
        `(${conflicting.file.filePath}). Re-run the statement against the current table.`,
      { value: conflicting.file.filePath },
    );
  }
}

function bigintSafe(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? `${value}n` : value;
}
