// The checks the Iceberg experiments print, as pure functions of what was measured, so each can be fed a
// contradicting measurement in a test and seen to fail (iceberg-checks.test.ts).

export interface RestEndpointFacts {
  namespace: string;
  table: string;
  namespaces: string[];
  tables: string[];
  loadedLocation: string | undefined;
  locationBefore: string | undefined;
  committedLocation: string;
  locationAfterCommit: string | undefined;
  locationAfterRefusals: string | undefined;
  staleStatus: number;
  /** The status of a commit whose update cannot apply (an unknown current schema). */
  invalidUpdateStatus: number;
  formatVersion: number;
}

export function restEndpointChecks(f: RestEndpointFacts): Record<string, boolean> {
  return {
    listsTheLabTable: f.namespaces.includes(f.namespace) && f.tables.includes(f.table),
    sameMetadataLocation: f.loadedLocation !== undefined && f.loadedLocation === f.locationBefore,
    commitIsNewMetadataLocation:
      f.committedLocation === f.locationAfterCommit && f.locationAfterCommit !== f.locationBefore,
    staleRequirementIs409: f.staleStatus === 409,
    invalidUpdateIs400: f.invalidUpdateStatus === 400,
    refusalsChangeNothing: f.locationAfterRefusals === f.locationAfterCommit,
    formatVersion2: f.formatVersion === 2,
  };
}

export interface LaptopFacts {
  rowsRead: number;
  athenaRows: number;
  /** The one-hour answer from the files and from Athena, as Athena's cells ([action, flows, bytes]). */
  fromFiles: string[][];
  fromAthena: (string | null)[][];
}

export function laptopChecks(f: LaptopFacts): Record<string, boolean> {
  return {
    readEveryRow: f.rowsRead === f.athenaRows && f.rowsRead > 0,
    sameAnswerAsAthena:
      f.fromFiles.length > 0 && JSON.stringify(f.fromFiles) === JSON.stringify(f.fromAthena),
  };
}

export interface StoredLayout {
  dataFiles: number;
  records: number;
  bytes: number;
  oneHourBytes: number;
  oneHourRows: string;
}

export interface SortOrderFacts {
  declaredOrderId: number;
  declaredFields: string;
  wantedFields: string;
  ordersAfterDeclare: number;
  ordersAfterRetry: number;
  defaultAfterRetry: number;
  /** null when maintenance cannot be run now (AWS runs it on its own schedule). */
  compacted: { addedDataFiles: number; before: StoredLayout; after: StoredLayout } | null;
}

/** Trino's INVALID_ARGUMENTS "No version history table … at or before …", as Athena reports it. */
export const EXPIRED_TIME_TRAVEL = /^INVALID_ARGUMENTS: .*No version history table .* at or before /;

/**
 * Correctness only: the order declared once, the compaction ran and kept every row and the same answer. How much
 * smaller the sorted files are is a figure the lab reports, and its 20× goal is a benchmark's (`pnpm bench lab`).
 */
export function sortOrderChecks(f: SortOrderFacts): Record<string, boolean> {
  const checks: Record<string, boolean> = {
    orderDeclared: f.declaredOrderId > 0 && f.declaredFields === f.wantedFields,
    retryIdempotent: f.ordersAfterRetry === f.ordersAfterDeclare && f.defaultAfterRetry === f.declaredOrderId,
  };
  if (!f.compacted) return checks;
  const { before, after } = f.compacted;
  return {
    ...checks,
    sortedCompactionRan: f.compacted.addedDataFiles > 0,
    sameRows: after.records === before.records,
    sameOneHourAnswer: after.oneHourRows === before.oneHourRows,
    storesLess: after.bytes < before.bytes,
  };
}

export interface UndoWindowFacts {
  deletedRows: number;
  insideRows: number;
  /** null on AWS (snapshot management cannot be run now). */
  expired: { snapshots: number; remaining: number; minSnapshotsToKeep: number; refusal: string } | null;
}

export function undoWindowChecks(f: UndoWindowFacts): Record<string, boolean> {
  const checks: Record<string, boolean> = { insideWindowReturnsOldRows: f.insideRows === f.deletedRows };
  if (!f.expired) return checks;
  return {
    ...checks,
    expiredPastTheWindow: f.expired.snapshots > 0,
    keepsMinSnapshots: f.expired.remaining >= f.expired.minSnapshotsToKeep,
    // The refusal Athena (Trino's Iceberg connector) gives for a time that no snapshot left covers, not any failure:
    // expiry deleting files a kept snapshot needs would fail the query too, for the wrong reason.
    undoFailsAfterExpiry: EXPIRED_TIME_TRAVEL.test(f.expired.refusal),
  };
}

export interface TagCleanupFacts {
  tagSet: boolean;
  /** AWS: the tag is removed straight away (it would disable the table's snapshot management). */
  tagRemoved?: boolean;
  /** Local: the run with the tag and the run after removing it. */
  runs?: {
    disabled: boolean;
    expiredWhileTagged: number;
    heldSnapshots: number;
    heldBytes: number;
    expiredAfterRemoval: number;
    freedBytes: number;
  };
}

export function tagCleanupChecks(f: TagCleanupFacts): Record<string, boolean> {
  if (!f.runs) return { tagSet: f.tagSet, tagRemoved: f.tagRemoved === true };
  const r = f.runs;
  return {
    tagSet: f.tagSet,
    nothingExpiredWhileTagged: r.disabled && r.expiredWhileTagged === 0 && r.heldSnapshots > 0,
    freedAfterRemoval: r.expiredAfterRemoval > 0,
    heldIsWhatWasFreed: r.heldSnapshots === r.expiredAfterRemoval && r.heldBytes === r.freedBytes,
  };
}
