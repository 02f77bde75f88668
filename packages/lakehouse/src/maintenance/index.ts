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

registerMaintenance({
  expireSnapshots: (table, options) => expireTableSnapshots(table, options),
  compact: (table, options) => compactTable(table, options),
  removeOrphanFiles: async (table, olderThanMs) => {
    const { deletedFiles, deletedBytes } = await removeTableOrphanFiles(table, olderThanMs);
    return { deletedFiles, deletedBytes };
  },
});
