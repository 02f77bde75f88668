// Table maintenance (expiry, compaction, orphan removal) lives in src/maintenance, which builds on the
// table layer; it registers its implementation here so the table handle can delegate without a cycle.
import type { CompactionOptions, CompactionReport, ExpireOptions, ExpireReport } from '../contract';
import { LakehouseError } from '../errors';
import type { IcebergTable } from './table-handle';

export interface MaintenanceOperations {
  expireSnapshots(table: IcebergTable, options: ExpireOptions): Promise<ExpireReport>;
  compact(table: IcebergTable, options: CompactionOptions): Promise<CompactionReport>;
  removeOrphanFiles(
    table: IcebergTable,
    olderThanMs: number | undefined,
  ): Promise<{ deletedFiles: number; deletedBytes: number }>;
}

let registered: MaintenanceOperations | null = null;

export function registerMaintenance(operations: MaintenanceOperations): void {
  registered = operations;
}

export function maintenance(operation: string): MaintenanceOperations {
  if (!registered) {
    throw new LakehouseError(
      `Table maintenance (${operation}) is not available: import '@loglake/lakehouse' (its index registers src/maintenance).`,
      { value: operation },
    );
  }
  return registered;
}
