// Compaction as S3 Tables runs it (bin-pack, Iceberg rewrite_data_files): small data files of a partition
// and the position deletes that apply to them are rewritten into files near the target size, in the declared
// sort order, and committed as one `replace` snapshot (same rows, fewer files). A run that finds nothing to do
// says so and commits nothing. A delete committed meanwhile against a file being rewritten fails the run
// with CommitConflictError (its deletes would otherwise be lost); rerun compaction.
import type { CompactionOptions, CompactionReport, Snapshot, TableMetadata } from '../contract';
import { sqlString } from '../duckdb/duckdb-session';
import { CommitConflictError } from '../errors';
import { removeUris } from '../io/file-io';
import type { DataFile, LiveFile } from '../manifests/data-file';
import { snapshotFiles } from '../manifests/live-files';
import { branchHead, currentSchema } from '../metadata/table-metadata';
import { produceSnapshot } from '../snapshots/snapshot-producer';
import { commitWithRetry } from '../table/commit';
import { writeDataFiles } from '../table/data-writer';
import { buildRelationSql } from '../table/relation-sql';
import type { IcebergTable } from '../table/table-handle';
import { formatBytes, planCompaction, type CompactionPlan } from './compaction-plan';

const DEFAULT_TARGET = 512 * 1024 * 1024;

export interface CompactionRunOptions extends CompactionOptions {
  /** Files under this size are small (default 75% of the target). */
  minFileSizeBytes?: number;
}

export interface CompactionResult extends CompactionReport {
  plan: Pick<
    CompactionPlan,
    'smallFileThresholdBytes' | 'liveDataFiles' | 'liveDeleteFiles' | 'loneSmallFiles'
  >;
  /** Live rows before and after in the rewritten files (always equal on success). */
  rowsRewritten: number;
}

/** Which data files each delete file has rows for. */
async function deleteTargets(table: IcebergTable, deleteFiles: LiveFile[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const d of deleteFiles) {
    if (d.file.referencedDataFile) {
      out.set(d.file.filePath, [d.file.referencedDataFile]);
      continue;
    }
    const rows = await table.session.all(
      `SELECT DISTINCT file_path FROM read_parquet(${sqlString(d.file.filePath)})`,
    );
    out.set(
      d.file.filePath,
      rows.map((r) => String(r['file_path'])),
    );
  }
  return out;
}

async function discard(files: DataFile[]): Promise<void> {
  await removeUris(files.map((f) => f.filePath));
}

export async function compactTable(
  table: IcebergTable,
  options: CompactionRunOptions = {},
): Promise<CompactionResult> {
  const base = await table.metadata();
  const head = branchHead(base);
  const nothing = (message: string, plan?: CompactionPlan): CompactionResult => ({
    rewrittenDataFiles: 0,
    rewrittenDeleteFiles: 0,
    addedDataFiles: 0,
    rewrittenBytes: 0,
    snapshot: null,
    message,
    rowsRewritten: 0,
    plan: {
      smallFileThresholdBytes: plan?.smallFileThresholdBytes ?? 0,
      liveDataFiles: plan?.liveDataFiles ?? 0,
      liveDeleteFiles: plan?.liveDeleteFiles ?? 0,
      loneSmallFiles: plan?.loneSmallFiles ?? 0,
    },
  });
  if (!head) return nothing(`Nothing to compact: ${table.label} has no snapshot yet.`);

  const target =
    options.targetFileSizeBytes ??
    (Number(base.properties['write.target-file-size-bytes']) || DEFAULT_TARGET);
  const files = await snapshotFiles(base, head);
  const targets = await deleteTargets(table, files.deleteFiles);
  const plan = planCompaction(files, targets, {
    targetFileSizeBytes: target,
    ...(options.minFileSizeBytes === undefined ? {} : { minFileSizeBytes: options.minFileSizeBytes }),
  });
  if (plan.groups.length === 0) return nothing(plan.summary, plan);

  const dataFiles = plan.groups.flatMap((g) => g.dataFiles);
  const deleteFiles = [
    ...new Map(plan.groups.flatMap((g) => g.deleteFiles).map((d) => [d.file.filePath, d])).values(),
  ];
  const source = buildRelationSql({ schema: currentSchema(base), dataFiles, deleteFiles, withRowIds: false });
  const [counted] = await table.session.all(`SELECT count(*)::BIGINT AS n FROM ${source} AS s`);
  const liveRows = Number(counted?.['n'] ?? 0);
  // The writer splits at the table's target size: give it the run's target.
  // binpack rewrites without the declared order (S3 Tables: auto = sort when the table declares an order).
  const writeMeta: TableMetadata = {
    ...base,
    properties: { ...base.properties, 'write.target-file-size-bytes': String(target) },
    ...(options.strategy === 'binpack' ? { 'default-sort-order-id': 0 } : {}),
  };
  const written = await writeDataFiles({
    session: table.session,
    layout: table.layout,
    meta: writeMeta,
    sourceSql: `SELECT * FROM ${source} AS s`,
    table: table.label,
  });
  const writtenRows = written.reduce((n, f) => n + f.recordCount, 0);
  if (writtenRows !== liveRows) {
    await discard(written);
    throw new CommitConflictError(
      `Compaction of ${table.label} wrote ${writtenRows} rows for ${liveRows} live rows; nothing was committed. Rerun compaction.`,
      {
        value: { writtenRows, liveRows },
      },
    );
  }
  const rewritten = new Set(dataFiles.map((f) => f.file.filePath));
  const removed = [...rewritten, ...deleteFiles.map((d) => d.file.filePath)];
  let snapshot: Snapshot;
  try {
    ({ result: snapshot } = await commitWithRetry<Snapshot>(table.layout, table.label, async (latest) => {
      const latestHead = branchHead(latest);
      if (latestHead && latestHead['snapshot-id'] !== head['snapshot-id']) {
        // Deletes committed since we read: any that target a rewritten file would be lost.
        const now = await snapshotFiles(latest, latestHead);
        const newDeletes = now.deleteFiles.filter((d) => d.sequenceNumber > head['sequence-number']);
        const newTargets = await deleteTargets(table, newDeletes);
        const hit = [...newTargets.entries()].find(([, paths]) => paths.some((p) => rewritten.has(p)));
        if (hit) {
          throw new CommitConflictError(
            `Compaction of ${table.label} lost a race: a delete committed meanwhile (${hit[0]}) targets a file being rewritten. Nothing was committed; rerun compaction.`,
            { value: hit[0] },
          );
        }
      }
      const produced = await produceSnapshot(latest, table.layout, {
        operation: 'replace',
        added: written.map((file) => ({ file })),
        removed,
      });
      return { metadata: produced.metadata, writtenFiles: produced.writtenFiles, result: produced.snapshot };
    }));
  } catch (error) {
    await discard(written);
    throw error;
  }
  const rewrittenBytes = [...dataFiles, ...deleteFiles].reduce((n, f) => n + f.file.fileSizeInBytes, 0);
  const outBytes = written.reduce((n, f) => n + f.fileSizeInBytes, 0);
  return {
    rewrittenDataFiles: dataFiles.length,
    rewrittenDeleteFiles: deleteFiles.length,
    addedDataFiles: written.length,
    rewrittenBytes,
    snapshot,
    rowsRewritten: liveRows,
    message:
      `Rewrote ${dataFiles.length} data file(s)${deleteFiles.length > 0 ? ` and applied ${deleteFiles.length} position-delete file(s)` : ''} ` +
      `(${formatBytes(rewrittenBytes)}) into ${written.length} file(s) (${formatBytes(outBytes)}), ${liveRows} live rows, ` +
      `in replace snapshot ${snapshot['snapshot-id']}. ${plan.summary}`,
    plan: {
      smallFileThresholdBytes: plan.smallFileThresholdBytes,
      liveDataFiles: plan.liveDataFiles,
      liveDeleteFiles: plan.liveDeleteFiles,
      loneSmallFiles: plan.loneSmallFiles,
    },
  };
}
