// Which files a compaction run rewrites (S3 Tables / Iceberg rewrite_data_files, bin-pack strategy):
//   - a data file is a candidate when it is small (under `minFileSizeBytes`, by default 75% of the target
//     size, as Iceberg's min-file-size-bytes) or when position deletes apply to it;
//   - a position-delete file is consumed whole: every data file it targets joins the rewrite, so no delete
//     file is left pointing at a rewritten file;
//   - a partition is rewritten only if that changes something: two or more candidates to merge, or deletes
//     to apply. A lone small file with no deletes is left alone (rewriting it would produce the same file).
// Pure: the caller supplies the live files and what each delete file targets.
import { LakehouseError } from '../errors';
import type { LiveFile } from '../manifests/data-file';

export interface CompactionPolicy {
  targetFileSizeBytes: number;
  /** Files under this size are "small"; default 0.75 × target. */
  minFileSizeBytes?: number;
}

export interface CompactionGroup {
  specId: number;
  /** Partition values as JSON (a key for messages and grouping). */
  partitionKey: string;
  dataFiles: LiveFile[];
  deleteFiles: LiveFile[];
  inputBytes: number;
}

export interface CompactionPlan {
  groups: CompactionGroup[];
  smallFileThresholdBytes: number;
  liveDataFiles: number;
  liveDeleteFiles: number;
  /** Partitions with a small file that was left alone because it had nothing to merge with. */
  loneSmallFiles: number;
  /** One sentence saying what will be done, or why nothing will. */
  summary: string;
}

/** A compaction setting that is out of range (names the value and the accepted range). */
export class CompactionPolicyError extends LakehouseError {
  override readonly name = 'CompactionPolicyError';
  constructor(message: string, value: unknown) {
    super(message, { value });
  }
}

const MiB = 1024 * 1024;
export const formatBytes = (n: number): string =>
  n >= MiB ? `${(n / MiB).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`;

function partitionKeyOf(file: LiveFile): string {
  return `${file.specId}:${JSON.stringify(file.file.partition, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v))}`;
}

export function planCompaction(
  files: { dataFiles: LiveFile[]; deleteFiles: LiveFile[] },
  /** Delete-file path → data-file paths it has rows for. */
  deleteTargets: Map<string, string[]>,
  policy: CompactionPolicy,
): CompactionPlan {
  const target = policy.targetFileSizeBytes;
  if (!Number.isFinite(target) || target <= 0) {
    throw new CompactionPolicyError(
      `targetFileSizeBytes must be a positive number of bytes (S3 Tables allows 64–512 MiB), got ${target}.`,
      target,
    );
  }
  const threshold = policy.minFileSizeBytes ?? Math.floor(target * 0.75);
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > target) {
    throw new CompactionPolicyError(
      `minFileSizeBytes must be between 0 and the target size (${target}), got ${threshold}.`,
      threshold,
    );
  }

  const dataByPath = new Map(files.dataFiles.map((f) => [f.file.filePath, f]));
  // Delete files that apply to each data file (path match and data sequence number ≤ delete's).
  const deletesOf = new Map<string, LiveFile[]>();
  for (const del of files.deleteFiles) {
    for (const path of deleteTargets.get(del.file.filePath) ?? []) {
      const data = dataByPath.get(path);
      if (!data || data.sequenceNumber > del.sequenceNumber) continue;
      deletesOf.set(path, [...(deletesOf.get(path) ?? []), del]);
    }
  }

  const chosen = new Set<string>();
  const chosenDeletes = new Map<string, LiveFile>();
  for (const f of files.dataFiles) {
    if (f.file.fileSizeInBytes < threshold || deletesOf.has(f.file.filePath)) chosen.add(f.file.filePath);
  }
  // Closure: a delete file joins with all the data files it targets.
  let changed = true;
  while (changed) {
    changed = false;
    for (const path of [...chosen]) {
      for (const del of deletesOf.get(path) ?? []) {
        if (chosenDeletes.has(del.file.filePath)) continue;
        chosenDeletes.set(del.file.filePath, del);
        for (const other of deleteTargets.get(del.file.filePath) ?? []) {
          if (dataByPath.has(other) && !chosen.has(other)) {
            chosen.add(other);
            changed = true;
          }
        }
      }
    }
  }

  const byPartition = new Map<string, CompactionGroup>();
  for (const path of chosen) {
    const f = dataByPath.get(path) as LiveFile;
    const key = partitionKeyOf(f);
    const group = byPartition.get(key) ?? {
      specId: f.specId,
      partitionKey: key,
      dataFiles: [],
      deleteFiles: [],
      inputBytes: 0,
    };
    group.dataFiles.push(f);
    group.inputBytes += f.file.fileSizeInBytes;
    for (const del of deletesOf.get(path) ?? [])
      if (!group.deleteFiles.includes(del)) group.deleteFiles.push(del);
    byPartition.set(key, group);
  }
  const groups: CompactionGroup[] = [];
  let loneSmallFiles = 0;
  for (const group of byPartition.values()) {
    if (group.dataFiles.length >= 2 || group.deleteFiles.length > 0) groups.push(group);
    else loneSmallFiles++;
  }
  const rewrittenData = groups.reduce((a, g) => a + g.dataFiles.length, 0);
  const rewrittenDeletes = new Set(groups.flatMap((g) => g.deleteFiles.map((d) => d.file.filePath))).size;
  const rule = `small = under ${formatBytes(threshold)}, ${Math.round((threshold / target) * 100)}% of the ${formatBytes(target)} target`;
  const summary =
    groups.length === 0
      ? `Nothing to compact: ${files.dataFiles.length} data file(s) and ${files.deleteFiles.length} delete file(s); ` +
        `no partition has two small files to merge or deletes to apply (${rule}${loneSmallFiles > 0 ? `; ${loneSmallFiles} small file(s) alone in their partition` : ''}).`
      : `Rewriting ${rewrittenData} data file(s) (${formatBytes(groups.reduce((a, g) => a + g.inputBytes, 0))}) in ${groups.length} partition(s)` +
        `${rewrittenDeletes > 0 ? `, applying ${rewrittenDeletes} position-delete file(s)` : ''} (${rule}).`;
  return {
    groups,
    smallFileThresholdBytes: threshold,
    liveDataFiles: files.dataFiles.length,
    liveDeleteFiles: files.deleteFiles.length,
    loneSmallFiles,
    summary,
  };
}
