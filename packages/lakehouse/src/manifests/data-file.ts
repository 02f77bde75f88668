// In-memory forms of manifest entries, data/delete files and manifest-list rows (camelCase; the Avro
// encoding with the spec's snake_case names and field ids lives in avro-schemas.ts / manifest-io.ts).
import type { Literal } from '../metadata/values';

export const CONTENT_DATA = 0;
export const CONTENT_POSITION_DELETES = 1;
export const CONTENT_EQUALITY_DELETES = 2;

export const STATUS_EXISTING = 0;
export const STATUS_ADDED = 1;
export const STATUS_DELETED = 2;

/** Per-column metrics keyed by field id; null when the manifest has none (absent is not empty: Athena shows null). */
export type FieldMetrics<V> = Map<number, V> | null;

export interface DataFile {
  content: number;
  /** Absolute URI, byte-identical to what position deletes reference. */
  filePath: string;
  /** As stored: `PARQUET` for every file this engine writes (the spec also names AVRO, ORC, PUFFIN). */
  fileFormat: string;
  /** Partition values in spec field order (canonical literals). */
  partition: (Literal | null)[];
  recordCount: number;
  fileSizeInBytes: number;
  columnSizes: FieldMetrics<number>;
  valueCounts: FieldMetrics<number>;
  nullValueCounts: FieldMetrics<number>;
  nanValueCounts: FieldMetrics<number>;
  lowerBounds: FieldMetrics<Uint8Array>;
  upperBounds: FieldMetrics<Uint8Array>;
  /** Implementation-specific key metadata for encryption (never written by this engine, kept when read). */
  keyMetadata: Uint8Array | null;
  splitOffsets: number[] | null;
  /** Field ids an equality delete file matches on (content 2); null otherwise. */
  equalityIds: number[] | null;
  sortOrderId: number | null;
  referencedDataFile: string | null;
}

export interface ManifestEntry {
  status: number;
  snapshotId: number;
  /** Inherited from the manifest when null on disk (spec: snapshot_id always; sequence numbers of ADDED entries). */
  sequenceNumber: number;
  fileSequenceNumber: number;
  dataFile: DataFile;
}

export interface FieldSummary {
  containsNull: boolean;
  containsNan: boolean | null;
  lowerBound: Uint8Array | null;
  upperBound: Uint8Array | null;
}

export interface ManifestFile {
  manifestPath: string;
  manifestLength: number;
  partitionSpecId: number;
  /** 0 = data, 1 = deletes. */
  content: number;
  sequenceNumber: number;
  minSequenceNumber: number;
  addedSnapshotId: number;
  addedFilesCount: number;
  existingFilesCount: number;
  deletedFilesCount: number;
  addedRowsCount: number;
  existingRowsCount: number;
  deletedRowsCount: number;
  partitions: FieldSummary[];
}

/** A live file with the sequence numbers and spec needed to plan reads. */
export interface LiveFile {
  file: DataFile;
  specId: number;
  sequenceNumber: number;
  fileSequenceNumber: number;
  snapshotId: number;
}
