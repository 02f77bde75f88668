// Plans a scan: resolves the version, prunes manifests (partition summaries) and files (partition values,
// column bounds), picks the position-delete files that apply (sequence-number rules), accounts bytes
// scanned the way Athena bills (compressed column chunks of projected columns in files read, plus delete
// files), and builds the DuckDB relation.
import type { ScanOptions, ScanPlan, Schema, TableMetadata } from '../contract';
import { bindExpression, type BoundExpression } from '../expressions/bind';
import { fileMightMatch, manifestMightMatch } from '../expressions/evaluate';
import { CONTENT_EQUALITY_DELETES, type LiveFile } from '../manifests/data-file';
import { CorruptTableError } from '../errors';
import { snapshotFiles, specPartitionTypes } from '../manifests/live-files';
import { findField } from '../metadata/schema';
import { specById } from '../metadata/table-metadata';
import { buildRelationSql } from './relation-sql';
import { resolveVersion } from './version-selector';

export interface PlannedScan extends ScanPlan {
  dataFiles: LiveFile[];
  deleteFiles: LiveFile[];
}

function partitionKey(f: LiveFile): string {
  return `${f.specId}:${JSON.stringify(f.file.partition, (_k, v: unknown) =>
    typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v,
  )}`;
}

/** Delete files that apply to at least one of `dataFiles`: same spec and partition, data seq ≤ delete seq. */
export function applicableDeletes(dataFiles: LiveFile[], deleteFiles: LiveFile[]): LiveFile[] {
  const minSeqByPartition = new Map<string, number>();
  const paths = new Set(dataFiles.map((f) => f.file.filePath));
  for (const f of dataFiles) {
    const key = partitionKey(f);
    minSeqByPartition.set(key, Math.min(minSeqByPartition.get(key) ?? Infinity, f.sequenceNumber));
  }
  return deleteFiles.filter((d) => {
    if (d.file.referencedDataFile) return paths.has(d.file.referencedDataFile);
    const min = minSeqByPartition.get(partitionKey(d));
    return min !== undefined && min <= d.sequenceNumber;
  });
}

export async function planScan(
  meta: TableMetadata,
  options: ScanOptions,
  table: string,
): Promise<PlannedScan> {
  const { snapshot, schema } = resolveVersion(meta, options, table);
  const filter: BoundExpression | null = options.filter
    ? bindExpression(options.filter, schema, table)
    : null;
  const files = await snapshotFiles(meta, snapshot, (manifest) => {
    if (!filter || manifest.content !== 0) return true;
    const spec = specById(meta, manifest.partitionSpecId);
    return manifestMightMatch(filter, spec, specPartitionTypes(meta, spec), manifest.partitions);
  });
  const totalDataFiles = snapshot ? Number(snapshot.summary['total-data-files'] ?? NaN) : 0;
  const kept = filter
    ? files.dataFiles.filter((f) => {
        const spec = specById(meta, f.specId);
        return fileMightMatch(filter, spec, specPartitionTypes(meta, spec), f.file);
      })
    : files.dataFiles;
  const equality = files.deleteFiles.find((d) => d.file.content === CONTENT_EQUALITY_DELETES);
  if (equality) {
    throw new CorruptTableError(
      `${table} has equality delete files (e.g. ${equality.file.filePath}), which this engine does not read; ` +
        `compact the table with an engine that does (e.g. Spark rewrite_data_files) first.`,
      { value: equality.file.filePath },
    );
  }
  const deletes = applicableDeletes(kept, files.deleteFiles);
  const projected = projectedIds(schema, options.columns, table);
  const metadataRowCount =
    !filter && files.deleteFiles.length === 0
      ? files.dataFiles.reduce((n, f) => n + f.file.recordCount, 0)
      : null;
  // A projection of no columns with the count known from metadata reads nothing (Athena answers count(*)
  // from manifests).
  const fromMetadata =
    metadataRowCount !== null && options.columns !== undefined && options.columns.length === 0;
  const bytesScanned = fromMetadata
    ? 0
    : kept.reduce((n, f) => n + projected.reduce((m, id) => m + (f.file.columnSizes?.get(id) ?? 0), 0), 0) +
      deletes.reduce((n, d) => n + d.file.fileSizeInBytes, 0);
  const live = Number.isFinite(totalDataFiles) ? totalDataFiles : files.dataFiles.length;
  return {
    snapshotId: snapshot ? snapshot['snapshot-id'] : null,
    schema,
    relationSql: buildRelationSql({
      schema,
      dataFiles: kept,
      deleteFiles: deletes,
      withRowIds: options.withRowIds ?? false,
    }),
    stats: {
      bytesScanned,
      filesScanned: fromMetadata ? 0 : kept.length,
      filesSkipped: fromMetadata ? live : Math.max(0, live - kept.length),
      deleteFilesScanned: fromMetadata ? 0 : deletes.length,
    },
    metadataRowCount,
    dataFiles: kept,
    deleteFiles: deletes,
  };
}

function projectedIds(schema: Schema, columns: string[] | undefined, table: string): number[] {
  if (columns === undefined) return schema.fields.map((f) => f.id);
  // The hidden row-id columns cost nothing to read (they come from file metadata).
  const names = columns.filter(
    (c) => !ROW_ID_COLUMNS.has(c) || schema.fields.some((f) => f.name.toLowerCase() === c.toLowerCase()),
  );
  return [...new Set(names.map((c) => findField(schema, c, table).id))];
}

const ROW_ID_COLUMNS = new Set(['file_path', 'pos']);
