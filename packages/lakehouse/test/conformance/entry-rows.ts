// The conformance oracle's mapping of decoded manifest records to entry rows, by the spec's field names: partition
// records by field name, absent maps as null, and the spec's inheritance (snapshot id always, sequence numbers of
// ADDED entries) beside what was literally on disk. Kept apart from the engine's decoder (manifests/manifest-io.ts)
// so the invariants read the files as any other Iceberg reader would, not as the engine does.
import type { ManifestFile } from '../../src/manifests/data-file';

export type AvroRecord = Record<string, unknown>;

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

/**
 * A manifest's decoded records as entry rows, with snapshot id and sequence numbers inherited per the spec (a pure
 * mapping by the spec's field names, applied to the records the oracle's own decoder reads).
 */
export function manifestEntryRows(
  records: readonly AvroRecord[],
  manifest: ManifestFile,
): ManifestEntryRow[] {
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
