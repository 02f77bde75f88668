// The conformance oracle's own reader: manifest lists and manifests read by the spec's field names with avsc's
// file decoder, independently of the engine's reader and writer, so the invariants see exactly what is on disk
// (the view any other Iceberg reader gets). Only the oracle uses it; the metadata tables read through the engine.
import avro from 'avsc';
import { toPath } from '../io/file-io';
import type { ManifestFile } from '../manifests/data-file';

export type AvroRecord = Record<string, unknown>;

export interface AvroFile {
  /** Header metadata (schema, partition-spec, content, ...), as strings. */
  metadata: Record<string, string>;
  records: AvroRecord[];
}

export function readAvroFile(uri: string): Promise<AvroFile> {
  return new Promise((resolve, reject) => {
    const records: AvroRecord[] = [];
    const metadata: Record<string, string> = {};
    avro
      .createFileDecoder(toPath(uri))
      .on('metadata', (_type: unknown, _codec: unknown, header: { meta: Record<string, Buffer> }) => {
        for (const [key, value] of Object.entries(header.meta)) metadata[key] = value.toString('utf8');
      })
      .on('data', (record: AvroRecord) => records.push(record))
      .on('error', reject)
      .on('end', () => resolve({ metadata, records }));
  });
}

/** A data or delete file as a manifest entry describes it (maps keyed by field id). */
export interface DataFileRow {
  content: number;
  filePath: string;
  fileFormat: string;
  partition: Record<string, unknown>;
  recordCount: number;
  fileSizeInBytes: number;
  columnSizes: Map<number, number> | null;
  valueCounts: Map<number, number> | null;
  nullValueCounts: Map<number, number> | null;
  nanValueCounts: Map<number, number> | null;
  lowerBounds: Map<number, Uint8Array> | null;
  upperBounds: Map<number, Uint8Array> | null;
  keyMetadata: Uint8Array | null;
  splitOffsets: number[] | null;
  equalityIds: number[] | null;
  sortOrderId: number | null;
  referencedDataFile: string | null;
}

export interface ManifestEntryRow {
  /** 0 existing, 1 added, 2 deleted. */
  status: number;
  /** Inherited from the manifest list when null on disk (ADDED entries). */
  snapshotId: number;
  sequenceNumber: number;
  fileSequenceNumber: number;
  /** What was literally on disk, for invariant checks. */
  raw: { snapshotId: number | null; sequenceNumber: number | null; fileSequenceNumber: number | null };
  dataFile: DataFileRow;
  manifest: ManifestFile;
}

function num(value: unknown, fallback = 0): number {
  if (value === null || value === undefined) return fallback;
  return Number(value);
}

function optNum(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

/** Int-keyed maps are arrays of {key, value} records (the spec's logicalType map). */
function intMap<V>(value: unknown, convert: (v: unknown) => V): Map<number, V> | null {
  if (value === null || value === undefined) return null;
  const out = new Map<number, V>();
  if (Array.isArray(value)) {
    for (const item of value as { key: unknown; value: unknown }[])
      out.set(Number(item.key), convert(item.value));
  } else if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out.set(Number(k), convert(v));
  }
  return out;
}

function bytes(value: unknown): Uint8Array | null {
  if (value === null || value === undefined) return null;
  return value instanceof Uint8Array ? new Uint8Array(value) : null;
}

/** The rows of a manifest list, v1/v2 name variants folded together into the writer's in-memory shape (only the
 * decoding here is independent of the writer). */
export async function readManifestList(uri: string): Promise<ManifestFile[]> {
  const { records } = await readAvroFile(uri);
  return records.map((r) => ({
    manifestPath: String(r.manifest_path),
    manifestLength: num(r.manifest_length),
    partitionSpecId: num(r.partition_spec_id),
    content: num(r.content),
    sequenceNumber: num(r.sequence_number),
    minSequenceNumber: num(r.min_sequence_number),
    addedSnapshotId: num(r.added_snapshot_id),
    addedFilesCount: num(r.added_files_count ?? r.added_data_files_count),
    existingFilesCount: num(r.existing_files_count ?? r.existing_data_files_count),
    deletedFilesCount: num(r.deleted_files_count ?? r.deleted_data_files_count),
    addedRowsCount: num(r.added_rows_count),
    existingRowsCount: num(r.existing_rows_count),
    deletedRowsCount: num(r.deleted_rows_count),
    partitions: ((r.partitions as AvroRecord[] | null) ?? []).map((p) => ({
      containsNull: Boolean(p.contains_null),
      containsNan: p.contains_nan === null || p.contains_nan === undefined ? null : Boolean(p.contains_nan),
      lowerBound: bytes(p.lower_bound),
      upperBound: bytes(p.upper_bound),
    })),
  }));
}

function dataFileRow(d: AvroRecord): DataFileRow {
  return {
    content: num(d.content),
    filePath: String(d.file_path),
    fileFormat: String(d.file_format),
    partition: (d.partition as Record<string, unknown> | null) ?? {},
    recordCount: num(d.record_count),
    fileSizeInBytes: num(d.file_size_in_bytes),
    columnSizes: intMap(d.column_sizes, num),
    valueCounts: intMap(d.value_counts, num),
    nullValueCounts: intMap(d.null_value_counts, num),
    nanValueCounts: intMap(d.nan_value_counts, num),
    lowerBounds: intMap(d.lower_bounds, (v) => bytes(v) ?? new Uint8Array()),
    upperBounds: intMap(d.upper_bounds, (v) => bytes(v) ?? new Uint8Array()),
    keyMetadata: bytes(d.key_metadata),
    splitOffsets: Array.isArray(d.split_offsets) ? (d.split_offsets as unknown[]).map(Number) : null,
    equalityIds: Array.isArray(d.equality_ids) ? (d.equality_ids as unknown[]).map(Number) : null,
    sortOrderId: optNum(d.sort_order_id),
    referencedDataFile: typeof d.referenced_data_file === 'string' ? d.referenced_data_file : null,
  };
}

/** Entries of one manifest, with snapshot id and sequence numbers inherited per the spec. */
export async function readManifest(manifest: ManifestFile): Promise<ManifestEntryRow[]> {
  const { records } = await readAvroFile(manifest.manifestPath);
  return records.map((r) => {
    const raw = {
      snapshotId: optNum(r.snapshot_id),
      sequenceNumber: optNum(r.sequence_number),
      fileSequenceNumber: optNum(r.file_sequence_number),
    };
    const status = num(r.status);
    // Only ADDED entries may inherit; the manifest's sequence number is the commit's.
    const inherit = (v: number | null): number => v ?? (status === 1 ? manifest.sequenceNumber : 0);
    return {
      status,
      snapshotId: raw.snapshotId ?? manifest.addedSnapshotId,
      sequenceNumber: inherit(raw.sequenceNumber),
      fileSequenceNumber: inherit(raw.fileSequenceNumber),
      raw,
      dataFile: dataFileRow(r.data_file as AvroRecord),
      manifest,
    };
  });
}

/** All manifests of a snapshot and their entries (including DELETED entries; filter on status for live files). */
export async function readSnapshotEntries(
  manifestListUri: string,
): Promise<{ manifests: ManifestFile[]; entries: ManifestEntryRow[] }> {
  const manifests = await readManifestList(manifestListUri);
  const entries = (await Promise.all(manifests.map(readManifest))).flat();
  return { manifests, entries };
}

/** Live (not DELETED) entries of a snapshot. */
export async function liveEntries(manifestListUri: string): Promise<ManifestEntryRow[]> {
  const { entries } = await readSnapshotEntries(manifestListUri);
  return entries.filter((e) => e.status !== 2);
}
