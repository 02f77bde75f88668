// Table maintenance: snapshot expiry, compaction, orphan file removal (TableHandle.expireSnapshots, compact and
// removeOrphanFiles call these; they take the table handle by type only, so there is no import cycle).
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
