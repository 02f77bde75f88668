// Expires snapshots (S3 Tables snapshot management: min snapshots to keep, max snapshot age; refs with a
// max-ref-age expire too, tags keep their snapshot) in one metadata commit, then deletes the files that only
// expired snapshots reached. Files still reachable from any retained snapshot are never touched.
import { promises as fs } from 'node:fs';
import type { ExpireOptions, ExpireReport, TableMetadata } from '../contract';
import { commitWithRetry } from '../table/commit';
import type { IcebergTable } from '../table/table-handle';
import { planSnapshotExpiry, type ExpirePlan } from './expire-plan';
import { reachableFiles } from './reachable-files';

export interface ExpireResult extends ExpireReport {
  expiredRefs: string[];
  retainedSnapshotIds: number[];
  /** Why each retained snapshot was kept ("tag audit", "branch main: head", ...). */
  reasons: Record<number, string[]>;
}

async function deleteFiles(paths: Iterable<string>): Promise<{ deletedFiles: number; deletedBytes: number }> {
  let deletedFiles = 0;
  let deletedBytes = 0;
  for (const path of paths) {
    try {
      const { size } = await fs.stat(path);
      await fs.rm(path);
      deletedFiles++;
      deletedBytes += size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return { deletedFiles, deletedBytes };
}

export async function expireTableSnapshots(
  table: IcebergTable,
  options: ExpireOptions,
): Promise<ExpireResult> {
  const now = options.now ?? new Date();
  const { result } = await commitWithRetry<{ plan: ExpirePlan; base: TableMetadata }>(
    table.layout,
    table.label,
    async (base) => {
      const plan = planSnapshotExpiry(base, {
        minSnapshotsToKeep: options.minSnapshotsToKeep,
        maxSnapshotAgeMs: options.maxSnapshotAgeMs,
        now,
      });
      const changed = plan.expiredSnapshotIds.length > 0 || plan.expiredRefs.length > 0;
      return { metadata: changed ? plan.metadata : null, writtenFiles: [], result: { plan, base } };
    },
  );
  const { plan, base } = result;
  let deleted = { deletedFiles: 0, deletedBytes: 0 };
  if (plan.expiredSnapshotIds.length > 0) {
    const expiredIds = new Set(plan.expiredSnapshotIds);
    // Reachability from the latest metadata: a writer that committed after us only adds files.
    const latest = await table.metadata();
    const keep = await reachableFiles(latest, latest.snapshots);
    const gone = await reachableFiles(
      base,
      base.snapshots.filter((s) => expiredIds.has(s['snapshot-id'])),
    );
    const candidates = new Set<string>();
    for (const p of gone.anyContentFiles) if (!keep.liveContentFiles.has(p)) candidates.add(p);
    for (const p of gone.manifests) if (!keep.manifests.has(p)) candidates.add(p);
    for (const p of gone.manifestLists) if (!keep.manifestLists.has(p)) candidates.add(p);
    deleted = await deleteFiles(candidates);
  }
  return {
    expiredSnapshotIds: plan.expiredSnapshotIds,
    deletedFiles: deleted.deletedFiles,
    deletedBytes: deleted.deletedBytes,
    expiredRefs: plan.expiredRefs,
    retainedSnapshotIds: plan.retainedSnapshotIds,
    reasons: plan.reasons,
  };
}
