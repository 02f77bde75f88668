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

async function sizeOrDelete(
  paths: Iterable<string>,
  remove: boolean,
): Promise<{ deletedFiles: number; deletedBytes: number }> {
  let deletedFiles = 0;
  let deletedBytes = 0;
  for (const path of paths) {
    try {
      const { size } = await fs.stat(path);
      if (remove) await fs.rm(path);
      deletedFiles++;
      deletedBytes += size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return { deletedFiles, deletedBytes };
}

/** Files only the expired snapshots of `base` reach, given what stays reachable from `kept`. */
async function filesOnlyExpiredReach(
  base: TableMetadata,
  expiredIds: Set<number>,
  kept: TableMetadata,
): Promise<Set<string>> {
  const keep = await reachableFiles(kept, kept.snapshots);
  const gone = await reachableFiles(
    base,
    base.snapshots.filter((s) => expiredIds.has(s['snapshot-id'])),
  );
  const candidates = new Set<string>();
  for (const p of gone.anyContentFiles) if (!keep.liveContentFiles.has(p)) candidates.add(p);
  for (const p of gone.manifests) if (!keep.manifests.has(p)) candidates.add(p);
  for (const p of gone.manifestLists) if (!keep.manifestLists.has(p)) candidates.add(p);
  return candidates;
}

export async function expireTableSnapshots(
  table: IcebergTable,
  options: ExpireOptions,
): Promise<ExpireResult> {
  const now = options.now ?? new Date();
  // Refs are ignored only to measure what they hold: a real run that ignored one could expire its snapshot.
  const ignored = new Set(options.dryRun ? (options.ignoreRefs ?? []) : []);
  const plan = (base: TableMetadata): ExpirePlan => {
    const refs = Object.fromEntries(Object.entries(base.refs).filter(([name]) => !ignored.has(name)));
    return planSnapshotExpiry(
      { ...base, refs },
      { minSnapshotsToKeep: options.minSnapshotsToKeep, maxSnapshotAgeMs: options.maxSnapshotAgeMs, now },
    );
  };
  if (options.dryRun) {
    const base = await table.metadata();
    const planned = plan(base);
    const files = await filesOnlyExpiredReach(base, new Set(planned.expiredSnapshotIds), planned.metadata);
    const measured = await sizeOrDelete(files, false);
    return report(planned, measured);
  }
  const { result } = await commitWithRetry<{ plan: ExpirePlan; base: TableMetadata }>(
    table.layout,
    table.label,
    async (base) => {
      const planned = plan(base);
      const changed = planned.expiredSnapshotIds.length > 0 || planned.expiredRefs.length > 0;
      return {
        metadata: changed ? planned.metadata : null,
        writtenFiles: [],
        result: { plan: planned, base },
      };
    },
  );
  let deleted = { deletedFiles: 0, deletedBytes: 0 };
  if (result.plan.expiredSnapshotIds.length > 0) {
    // Reachability from the latest metadata: a writer that committed after us only adds files.
    const latest = await table.metadata();
    const files = await filesOnlyExpiredReach(result.base, new Set(result.plan.expiredSnapshotIds), latest);
    deleted = await sizeOrDelete(files, true);
  }
  return report(result.plan, deleted);
}

function report(plan: ExpirePlan, deleted: { deletedFiles: number; deletedBytes: number }): ExpireResult {
  return {
    expiredSnapshotIds: plan.expiredSnapshotIds,
    deletedFiles: deleted.deletedFiles,
    deletedBytes: deleted.deletedBytes,
    expiredRefs: plan.expiredRefs,
    retainedSnapshotIds: plan.retainedSnapshotIds,
    reasons: plan.reasons,
  };
}
