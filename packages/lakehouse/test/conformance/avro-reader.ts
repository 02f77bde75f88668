// The conformance oracle's own reader: manifest lists and manifests decoded with avsc's file decoder and read by
// the spec's field names, independently of the engine's reader and writer, so the invariants see exactly what is
// on disk (the view any other Iceberg reader gets), and mapped to rows by the oracle's own entry-rows.ts. Only the
// oracle uses this; the metadata tables read through the engine.
import avro from 'avsc';
import { toPath } from '../../src/io/file-io';
import type { ManifestFile } from '../../src/manifests/data-file';
import { manifestEntryRows, type AvroRecord, type DataFileRow, type ManifestEntryRow } from './entry-rows';

export type { AvroRecord };

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

export type { DataFileRow, ManifestEntryRow };

function num(value: unknown, fallback = 0): number {
  if (value === null || value === undefined) return fallback;
  return Number(value);
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

/** Entries of one manifest: decoded here, mapped to rows by the spec's field names (entry-rows.ts). */
export async function readManifest(manifest: ManifestFile): Promise<ManifestEntryRow[]> {
  const { records } = await readAvroFile(manifest.manifestPath);
  return manifestEntryRows(records, manifest);
}

/** All manifests of a snapshot and their entries (including DELETED entries; filter on status for live files). */
export async function readSnapshotEntries(
  manifestListUri: string,
): Promise<{ manifests: ManifestFile[]; entries: ManifestEntryRow[] }> {
  const manifests = await readManifestList(manifestListUri);
  const entries = (await Promise.all(manifests.map(readManifest))).flat();
  return { manifests, entries };
}
