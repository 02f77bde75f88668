// Snapshot summaries as Iceberg's SnapshotSummary builds them: non-zero change counts, the changed partition
// count, and running totals carried from the parent. All values are strings.
import type { Snapshot, SnapshotSummary } from '../contract';
import { CONTENT_DATA, CONTENT_POSITION_DELETES, type DataFile } from '../manifests/data-file';

export interface SummaryInput {
  operation: SnapshotSummary['operation'];
  parent: Snapshot | null;
  added: DataFile[];
  removed: DataFile[];
  /** Extra properties (a writer's own bookkeeping); the engine's keys win over them. */
  extra?: Record<string, string>;
}

function total(parent: Snapshot | null, key: string): number {
  const value = parent?.summary[key];
  return value === undefined ? 0 : Number(value);
}

export function buildSummary(input: SummaryInput): SnapshotSummary {
  const sum = (files: DataFile[], pick: (f: DataFile) => number) => files.reduce((n, f) => n + pick(f), 0);
  const data = (files: DataFile[]) => files.filter((f) => f.content === CONTENT_DATA);
  const posDeletes = (files: DataFile[]) => files.filter((f) => f.content === CONTENT_POSITION_DELETES);
  const deletes = (files: DataFile[]) => files.filter((f) => f.content !== CONTENT_DATA);

  const addedData = data(input.added);
  const removedData = data(input.removed);
  const addedDeletes = deletes(input.added);
  const removedDeletes = deletes(input.removed);
  const addedPos = posDeletes(input.added);
  const removedPos = posDeletes(input.removed);

  const counts: [string, number][] = [
    ['added-data-files', addedData.length],
    ['deleted-data-files', removedData.length],
    ['added-records', sum(addedData, (f) => f.recordCount)],
    ['deleted-records', sum(removedData, (f) => f.recordCount)],
    ['added-files-size', sum(input.added, (f) => f.fileSizeInBytes)],
    ['removed-files-size', sum(input.removed, (f) => f.fileSizeInBytes)],
    ['added-delete-files', addedDeletes.length],
    ['added-position-delete-files', addedPos.length],
    ['removed-delete-files', removedDeletes.length],
    ['removed-position-delete-files', removedPos.length],
    ['added-position-deletes', sum(addedPos, (f) => f.recordCount)],
    ['removed-position-deletes', sum(removedPos, (f) => f.recordCount)],
  ];
  // A caller's property never stands for the operation, a count or a running total, even one left out as zero.
  const engineKeys = new Set(['operation', 'changed-partition-count', ...counts.map(([key]) => key)]);
  const extra = Object.entries(input.extra ?? {}).filter(
    ([key]) => !engineKeys.has(key) && !key.startsWith('total-'),
  );
  const summary: SnapshotSummary = { ...Object.fromEntries(extra), operation: input.operation };
  for (const [key, value] of counts) if (value > 0) summary[key] = String(value);

  const partitions = new Set(
    [...input.added, ...input.removed].map((f) => JSON.stringify(f.partition, jsonSafe)),
  );
  summary['changed-partition-count'] = String(partitions.size);

  const p = input.parent;
  summary['total-records'] = String(
    total(p, 'total-records') + sum(addedData, (f) => f.recordCount) - sum(removedData, (f) => f.recordCount),
  );
  summary['total-files-size'] = String(
    total(p, 'total-files-size') +
      sum(input.added, (f) => f.fileSizeInBytes) -
      sum(input.removed, (f) => f.fileSizeInBytes),
  );
  summary['total-data-files'] = String(total(p, 'total-data-files') + addedData.length - removedData.length);
  summary['total-delete-files'] = String(
    total(p, 'total-delete-files') + addedDeletes.length - removedDeletes.length,
  );
  summary['total-position-deletes'] = String(
    total(p, 'total-position-deletes') +
      sum(addedPos, (f) => f.recordCount) -
      sum(removedPos, (f) => f.recordCount),
  );
  summary['total-equality-deletes'] = String(total(p, 'total-equality-deletes'));
  return summary;
}

function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  return value;
}
