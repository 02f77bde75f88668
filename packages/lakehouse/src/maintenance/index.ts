// Table maintenance: snapshot expiry, compaction, orphan file removal. Importing this module registers the
// operations with the table layer, which delegates TableHandle.expireSnapshots/compact/removeOrphanFiles here.
import { registerMaintenance } from '../table/maintenance-hooks';
import { compactTable } from './compact-table';
import { expireTableSnapshots } from './expire-snapshots';
import { removeTableOrphanFiles } from './remove-orphans';

export { compactTable, type CompactionResult, type CompactionRunOptions } from './compact-table';
export { expireTableSnapshots, type ExpireResult } from './expire-snapshots';
export { removeTableOrphanFiles, DEFAULT_ORPHAN_AGE_MS, OrphanRemovalError } from './remove-orphans';
export { planSnapshotExpiry, ExpirePolicyError, type ExpirePlan, type ExpirePolicy } from './expire-plan';
export {
  planCompaction,
  CompactionPolicyError,
  type CompactionPlan,
  type CompactionPolicy,
} from './compaction-plan';

/**
 * S3 Tables' maintenance defaults (AWS prescriptive guidance, "Maintenance in Amazon S3 Tables"), for callers
 * that model PutTableMaintenanceConfiguration. Compaction strategy "auto" = sort when the table declares a
 * sort order, else binpack: compactTable writes in the declared order, so it is "auto". Unreferenced files
 * are deleted by removeTableOrphanFiles after `olderThanMs` directly, without S3's noncurrent stage.
 */
export const S3_TABLES_MAINTENANCE_DEFAULTS = {
  icebergCompaction: { targetFileSizeMB: 512, minTargetFileSizeMB: 64, maxTargetFileSizeMB: 512 },
  icebergSnapshotManagement: { minSnapshotsToKeep: 1, maxSnapshotAgeHours: 120 },
  icebergUnreferencedFileRemoval: { unreferencedDays: 3, nonCurrentDays: 10 },
} as const;

registerMaintenance({
  expireSnapshots: (table, options) => expireTableSnapshots(table, options),
  compact: (table, options) => compactTable(table, options),
  removeOrphanFiles: async (table, olderThanMs) => {
    const { deletedFiles, deletedBytes } = await removeTableOrphanFiles(table, olderThanMs);
    return { deletedFiles, deletedBytes };
  },
});
