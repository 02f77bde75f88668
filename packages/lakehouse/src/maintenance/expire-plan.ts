// Which snapshots and refs survive an expiry run: Iceberg's ExpireSnapshots rules, with the S3 Tables
// snapshot-management settings (minimum snapshots to keep, maximum snapshot age) as the table-wide defaults.
//   1. A tag or branch (never main) older than its max-ref-age is dropped.
//   2. Each surviving branch keeps its head and walks back through parents, keeping ancestors while they are
//      younger than the branch's max snapshot age OR fewer than its min-snapshots-to-keep are kept.
//   3. A tag keeps exactly its snapshot alive, however old: the "tag that breaks snapshot cleanup".
//   4. Snapshots on no ref's history survive only while younger than the table-wide max age.
import type { TableMetadata } from '../contract';
import { LakehouseError } from '../errors';

export interface ExpirePolicy {
  minSnapshotsToKeep: number;
  maxSnapshotAgeMs: number;
  now: Date;
}

export interface ExpirePlan {
  retainedSnapshotIds: number[];
  expiredSnapshotIds: number[];
  /** Refs removed because they outlived their max-ref-age. */
  expiredRefs: string[];
  /** Why each retained snapshot is kept (for honest reports), e.g. "tag audit", "branch main: min-snapshots-to-keep". */
  reasons: Record<number, string[]>;
  /** The metadata without the expired snapshots, refs and the log entries that reached them. */
  metadata: TableMetadata;
}

/** An expiry setting that is out of range (names the value and the accepted range). */
export class ExpirePolicyError extends LakehouseError {
  override readonly name = 'ExpirePolicyError';
  constructor(message: string, value: unknown) {
    super(message, { value });
  }
}

export function validatePolicy(policy: ExpirePolicy): void {
  if (!Number.isInteger(policy.minSnapshotsToKeep) || policy.minSnapshotsToKeep < 1) {
    throw new ExpirePolicyError(
      `minSnapshotsToKeep must be an integer ≥ 1 (S3 Tables' minimumSnapshots), got ${policy.minSnapshotsToKeep}.`,
      policy.minSnapshotsToKeep,
    );
  }
  if (!Number.isFinite(policy.maxSnapshotAgeMs) || policy.maxSnapshotAgeMs < 0) {
    throw new ExpirePolicyError(
      `maxSnapshotAgeMs must be a non-negative number of milliseconds (S3 Tables' maxSnapshotAgeHours × 3,600,000), got ${policy.maxSnapshotAgeMs}.`,
      policy.maxSnapshotAgeMs,
    );
  }
}

export function planSnapshotExpiry(metadata: TableMetadata, policy: ExpirePolicy): ExpirePlan {
  validatePolicy(policy);
  const now = policy.now.getTime();
  const byId = new Map(metadata.snapshots.map((s) => [s['snapshot-id'], s]));
  const reasons: Record<number, string[]> = {};
  const keep = (id: number, why: string): void => {
    (reasons[id] ??= []).push(why);
  };

  const refs: TableMetadata['refs'] = {};
  const expiredRefs: string[] = [];
  for (const [name, ref] of Object.entries(metadata.refs)) {
    const snapshot = byId.get(ref['snapshot-id']);
    const maxRefAge = ref['max-ref-age-ms'];
    if (
      name !== 'main' &&
      snapshot &&
      maxRefAge !== undefined &&
      now - snapshot['timestamp-ms'] > maxRefAge
    ) {
      expiredRefs.push(name);
      continue;
    }
    refs[name] = ref;
  }

  const onSomeRefHistory = new Set<number>();
  for (const [name, ref] of Object.entries(refs)) {
    if (ref.type === 'tag') {
      keep(ref['snapshot-id'], `tag ${name}`);
      onSomeRefHistory.add(ref['snapshot-id']);
      continue;
    }
    const minKeep = ref['min-snapshots-to-keep'] ?? policy.minSnapshotsToKeep;
    const olderThan = now - (ref['max-snapshot-age-ms'] ?? policy.maxSnapshotAgeMs);
    let kept = 0;
    let cursor: number | undefined = ref['snapshot-id'];
    const seen = new Set<number>();
    while (cursor !== undefined && !seen.has(cursor)) {
      seen.add(cursor);
      onSomeRefHistory.add(cursor);
      const snapshot = byId.get(cursor);
      if (!snapshot) break;
      if (kept === 0) keep(cursor, `branch ${name}: head`);
      else if (snapshot['timestamp-ms'] >= olderThan)
        keep(cursor, `branch ${name}: younger than max snapshot age`);
      else if (kept < minKeep) keep(cursor, `branch ${name}: min-snapshots-to-keep ${minKeep}`);
      else break;
      kept++;
      cursor = snapshot['parent-snapshot-id'];
    }
    // Walk the rest of the ancestry so it does not count as "unreferenced" below.
    while (cursor !== undefined && !seen.has(cursor)) {
      seen.add(cursor);
      onSomeRefHistory.add(cursor);
      cursor = byId.get(cursor)?.['parent-snapshot-id'];
    }
  }

  const tableOlderThan = now - policy.maxSnapshotAgeMs;
  for (const s of metadata.snapshots) {
    if (!onSomeRefHistory.has(s['snapshot-id']) && s['timestamp-ms'] >= tableOlderThan) {
      keep(s['snapshot-id'], 'on no ref, younger than max snapshot age');
    }
  }

  const retained = metadata.snapshots.filter((s) => reasons[s['snapshot-id']] !== undefined);
  const retainedIds = new Set(retained.map((s) => s['snapshot-id']));
  const expiredSnapshotIds = metadata.snapshots
    .filter((s) => !retainedIds.has(s['snapshot-id']))
    .map((s) => s['snapshot-id']);

  // As Iceberg: the snapshot log keeps only the unbroken tail after the last expired entry.
  let snapshotLog = [...metadata['snapshot-log']];
  const lastGap = snapshotLog.map((e) => retainedIds.has(e['snapshot-id'])).lastIndexOf(false);
  if (lastGap >= 0) snapshotLog = snapshotLog.slice(lastGap + 1);

  return {
    retainedSnapshotIds: retained.map((s) => s['snapshot-id']),
    expiredSnapshotIds,
    expiredRefs,
    reasons,
    metadata: { ...metadata, snapshots: retained, refs, 'snapshot-log': snapshotLog },
  };
}
