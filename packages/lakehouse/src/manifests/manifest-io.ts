// Reading and writing Avro manifests and manifest lists (avsc), including the spec's sequence-number and
// snapshot-id inheritance: ADDED entries are written with nulls and read back from their manifest-list row.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import avro from 'avsc';
import type { Schema } from '../contract';
import type { PartitionSpec } from '../metadata/partition-spec';
import { parseType } from '../metadata/types';
import { compareLiterals, decimalBytes, encodeBound, type Literal } from '../metadata/values';
import { toPath } from '../io/file-io';
import { CorruptTableError } from '../errors';
import { MANIFEST_FILE_SCHEMA, manifestEntrySchema, type PartitionFieldType } from './avro-schemas';
import {
  CONTENT_DATA,
  STATUS_ADDED,
  STATUS_DELETED,
  STATUS_EXISTING,
  type DataFile,
  type FieldSummary,
  type ManifestEntry,
  type ManifestFile,
} from './data-file';

export type AvroRecord = Record<string, unknown>;

type Codec = (data: Buffer, callback: (error: Error | null, result?: Buffer) => void) => void;
/**
 * avsc's default deflate codec is zlib's asynchronous one: each manifest block then waits for a thread-pool
 * round trip and, behind it, for every callback queued on a busy event loop (the local endpoint's PutRecordBatch
 * calls), which made a small commit several times slower there. Manifests are kilobytes: deflate them inline.
 */
function syncCodec(transform: (data: Buffer) => Buffer): Codec {
  return (data, callback) => {
    let result: Buffer;
    try {
      result = transform(data);
    } catch (error) {
      callback(error as Error);
      return;
    }
    callback(null, result);
  };
}
const SYNC_CODECS = {
  null: syncCodec((data) => data),
  deflate: syncCodec((data) => deflateRawSync(data)),
};
const SYNC_DECODECS = {
  null: syncCodec((data) => data),
  deflate: syncCodec((data) => inflateRawSync(data)),
};

/**
 * Compiling an Avro schema into a Type (avsc generates reader/writer code) costs milliseconds; a table's few
 * manifest schemas repeat on every commit and scan, so each is compiled once.
 */
const TYPES = new Map<string, avro.Type>();
function avroType(schema: Record<string, unknown>): avro.Type {
  const key = JSON.stringify(schema);
  let type = TYPES.get(key);
  if (!type) {
    if (TYPES.size >= 256) TYPES.clear();
    type = avro.Type.forSchema(schema as unknown as avro.Schema);
    TYPES.set(key, type);
  }
  return type;
}

/** The Avro object container header: magic, metadata (with the schema) and the sync marker of every block. */
const HEADER_TYPE = avro.Type.forSchema({
  name: 'Header',
  type: 'record',
  fields: [
    { name: 'magic', type: { type: 'fixed', name: 'Magic', size: 4 } },
    { name: 'meta', type: { type: 'map', values: 'bytes' } },
    { name: 'sync', type: { type: 'fixed', name: 'Sync', size: 16 } },
  ],
} as avro.Schema);

async function encode(
  schema: Record<string, unknown>,
  records: AvroRecord[],
  metadata: Record<string, string>,
): Promise<Buffer> {
  // The header is written here from the raw schema object, so it keeps the field-id attributes (a compiled
  // Type's export drops them); the blocks come from avsc with the cached Type and the same sync marker.
  const sync = randomBytes(16);
  const meta: Record<string, Buffer> = { 'avro.schema': Buffer.from(JSON.stringify(schema), 'utf8') };
  meta['avro.codec'] = Buffer.from('deflate', 'utf8');
  for (const [key, value] of Object.entries(metadata)) meta[key] = Buffer.from(value, 'utf8');
  const header = HEADER_TYPE.toBuffer({ magic: Buffer.from('Obj\x01', 'latin1'), meta, sync });
  // avsc's typings omit writeHeader and syncMarker.
  const options = {
    writeHeader: 'never',
    syncMarker: sync,
    codec: 'deflate',
    codecs: SYNC_CODECS,
  } as unknown as {
    codec: string;
  };
  const encoder = new avro.streams.BlockEncoder(avroType(schema), options);
  const chunks: Buffer[] = [header];
  const done = new Promise<void>((resolve, reject) => {
    encoder.on('data', (chunk: Buffer) => chunks.push(chunk));
    encoder.on('end', () => resolve());
    encoder.on('error', reject);
  });
  for (const record of records) encoder.write(record);
  encoder.end();
  await done;
  return Buffer.concat(chunks);
}

async function decode(path: string): Promise<{ records: AvroRecord[]; metadata: Record<string, string> }> {
  const bytes = readFileSync(toPath(path)); // small and page-cached: no event-loop round trip
  const decoder = new avro.streams.BlockDecoder({
    codecs: SYNC_DECODECS,
    parseHook: (schema: unknown) => avroType(schema as Record<string, unknown>),
  } as ConstructorParameters<typeof avro.streams.BlockDecoder>[0]);
  const records: AvroRecord[] = [];
  const metadata: Record<string, string> = {};
  await new Promise<void>((resolve, reject) => {
    decoder.on('metadata', (_type: unknown, _codec: unknown, header: { meta: Record<string, Buffer> }) => {
      for (const [key, value] of Object.entries(header.meta)) metadata[key] = value.toString('utf8');
    });
    decoder.on('data', (record: AvroRecord) => records.push(record));
    decoder.on('end', () => resolve());
    decoder.on('error', (error: unknown) =>
      reject(new CorruptTableError(`Cannot read Avro file ${path}.`, { cause: error, value: path })),
    );
    decoder.end(bytes);
  });
  return { records, metadata };
}

// ---- partition values ----

function partitionValueToAvro(type: string, value: Literal | null): unknown {
  if (value === null) return null;
  const kind = parseType(type).kind;
  if (kind === 'decimal') return Buffer.from(decimalBytes(value as bigint));
  if (kind === 'binary') return Buffer.from(value as Uint8Array);
  if (typeof value === 'bigint') return Number(value);
  return value;
}

function partitionValueFromAvro(type: string, value: unknown): Literal | null {
  if (value === null || value === undefined) return null;
  const kind = parseType(type).kind;
  if (kind === 'decimal') {
    const b = value as Buffer;
    return b.length === 0 ? 0n : BigInt.asIntN(b.length * 8, BigInt(`0x${b.toString('hex')}`));
  }
  if (kind === 'binary') return new Uint8Array(value as Buffer);
  if (kind === 'long' || kind === 'time' || kind === 'timestamp' || kind === 'timestamptz')
    return BigInt(value as number);
  return value as Literal;
}

function mapToAvro<T>(
  map: Map<number, T> | null,
  convert: (v: T) => unknown,
): { key: number; value: unknown }[] | null {
  if (map === null) return null;
  return [...map.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([key, value]) => ({ key, value: convert(value) }));
}

/** An int-keyed map (the spec's array of key/value records); null stays null: a file without metrics. */
function mapFromAvro<T>(value: unknown, convert: (v: unknown) => T): Map<number, T> | null {
  if (value === null || value === undefined) return null;
  const map = new Map<number, T>();
  for (const item of value as { key: number; value: unknown }[]) map.set(item.key, convert(item.value));
  return map;
}

const bytesFromAvro = (v: unknown): Uint8Array => new Uint8Array(v as Buffer);

// ---- manifests ----

export interface WriteManifestInput {
  path: string;
  schema: Schema;
  spec: PartitionSpec;
  partitionTypes: string[];
  /** 0 = data, 1 = deletes. */
  content: number;
  /** The snapshot being committed: its ADDED entries inherit snapshot id and sequence number. */
  snapshotId: number;
  sequenceNumber: number;
  entries: ManifestEntry[];
}

function partitionFieldTypes(spec: PartitionSpec, types: string[]): PartitionFieldType[] {
  return spec.fields.map((f, i) => ({ name: f.name, fieldId: f['field-id'], type: types[i] ?? 'int' }));
}

export async function writeManifest(input: WriteManifestInput): Promise<ManifestFile> {
  const fields = partitionFieldTypes(input.spec, input.partitionTypes);
  const records = input.entries.map((entry) => {
    // Only entries added by this snapshot with its own sequence number inherit (null on disk); an added
    // entry keeping an older data sequence number (compaction) writes its numbers explicitly.
    const inherited =
      entry.status === STATUS_ADDED &&
      entry.snapshotId === input.snapshotId &&
      entry.sequenceNumber === input.sequenceNumber;
    const file = entry.dataFile;
    const partition: AvroRecord = {};
    fields.forEach((f, i) => (partition[f.name] = partitionValueToAvro(f.type, file.partition[i] ?? null)));
    return {
      status: entry.status,
      snapshot_id: inherited ? null : entry.snapshotId,
      sequence_number: inherited ? null : entry.sequenceNumber,
      file_sequence_number: inherited ? null : entry.fileSequenceNumber,
      data_file: {
        content: file.content,
        file_path: file.filePath,
        file_format: file.fileFormat,
        partition,
        record_count: file.recordCount,
        file_size_in_bytes: file.fileSizeInBytes,
        column_sizes: mapToAvro(file.columnSizes, (v) => v),
        value_counts: mapToAvro(file.valueCounts, (v) => v),
        null_value_counts: mapToAvro(file.nullValueCounts, (v) => v),
        nan_value_counts: mapToAvro(file.nanValueCounts, (v) => v),
        lower_bounds: mapToAvro(file.lowerBounds, (v) => Buffer.from(v)),
        upper_bounds: mapToAvro(file.upperBounds, (v) => Buffer.from(v)),
        key_metadata: file.keyMetadata === null ? null : Buffer.from(file.keyMetadata),
        split_offsets: file.splitOffsets,
        equality_ids: file.equalityIds,
        sort_order_id: file.sortOrderId,
        referenced_data_file: file.referencedDataFile,
      },
    };
  });
  const bytes = await encode(manifestEntrySchema(fields), records, {
    schema: JSON.stringify(input.schema),
    'schema-id': String(input.schema['schema-id']),
    'partition-spec': JSON.stringify(input.spec.fields),
    'partition-spec-id': String(input.spec['spec-id']),
    'format-version': '2',
    content: input.content === 0 ? 'data' : 'deletes',
  });
  writeFileSync(toPath(input.path), bytes, { flag: 'wx' });
  return summarizeManifest(input, bytes.length);
}

function summarizeManifest(input: WriteManifestInput, length: number): ManifestFile {
  const count = (status: number) => input.entries.filter((e) => e.status === status);
  const rows = (entries: ManifestEntry[]) => entries.reduce((n, e) => n + e.dataFile.recordCount, 0);
  const live = input.entries.filter((e) => e.status !== STATUS_DELETED);
  const sequences = live.map((e) => e.sequenceNumber);
  return {
    manifestPath: input.path,
    manifestLength: length,
    partitionSpecId: input.spec['spec-id'],
    content: input.content,
    sequenceNumber: input.sequenceNumber,
    minSequenceNumber: sequences.length > 0 ? Math.min(...sequences) : input.sequenceNumber,
    addedSnapshotId: input.snapshotId,
    addedFilesCount: count(STATUS_ADDED).length,
    existingFilesCount: count(STATUS_EXISTING).length,
    deletedFilesCount: count(STATUS_DELETED).length,
    addedRowsCount: rows(count(STATUS_ADDED)),
    existingRowsCount: rows(count(STATUS_EXISTING)),
    deletedRowsCount: rows(count(STATUS_DELETED)),
    partitions: partitionSummaries(
      input.partitionTypes,
      input.entries.map((e) => e.dataFile),
    ),
  };
}

function partitionSummaries(types: string[], files: DataFile[]): FieldSummary[] {
  return types.map((type, i) => {
    const values = files.map((f) => f.partition[i] ?? null);
    const present = values.filter(
      (v): v is Literal => v !== null && !(typeof v === 'number' && Number.isNaN(v)),
    );
    const kind = parseType(type).kind;
    const sorted = [...present].sort(compareLiterals);
    const lower = sorted[0];
    const upper = sorted[sorted.length - 1];
    return {
      containsNull: values.some((v) => v === null),
      containsNan:
        kind === 'float' || kind === 'double'
          ? values.some((v) => typeof v === 'number' && Number.isNaN(v))
          : null,
      lowerBound: lower === undefined ? null : encodeBound(type, lower),
      upperBound: upper === undefined ? null : encodeBound(type, upper),
    };
  });
}

/** The data and delete files a manifest names (their paths as written), without decoding the rest. */
export async function manifestFilePaths(manifestPath: string): Promise<string[]> {
  const { records } = await decode(manifestPath);
  return records.map((record) => (record['data_file'] as AvroRecord)['file_path'] as string);
}

/**
 * Reads a manifest's entries, applying inheritance from its manifest-list row. The one decoder of manifest entries:
 * scan planning and the metadata tables ($files, $partitions) both read through it.
 */
export async function readManifest(
  manifest: ManifestFile,
  partitionTypes: string[],
): Promise<ManifestEntry[]> {
  const { records, metadata } = await decode(manifest.manifestPath);
  const specFields = JSON.parse(metadata['partition-spec'] ?? '[]') as { name: string }[];
  return records.map((record) => {
    const file = record['data_file'] as AvroRecord;
    const partition = file['partition'] as AvroRecord;
    const status = record['status'] as number;
    // Spec, manifest_entry: snapshot_id is inherited when null; sequence_number and file_sequence_number when
    // null and the status is ADDED. A v1 manifest has no such columns: 0, the v1 default. A v2 EXISTING or DELETED
    // entry must carry its own; reading a null there as anything would move the file in the order deletes apply
    // in (a delete file read as 0 would stop applying, and deleted rows come back), so it is refused.
    const inheritedSeq = (value: unknown, field: string) => {
      if (value !== null && value !== undefined) return value as number;
      if (status === STATUS_ADDED) return manifest.sequenceNumber;
      if (value === undefined) return 0;
      throw new CorruptTableError(
        `Manifest ${manifest.manifestPath} has an entry with status ${status} (not ADDED) and a null ${field}: ` +
          'only added entries inherit theirs (Iceberg spec, manifest_entry). Rewrite the manifest with its writer.',
        { value: manifest.manifestPath },
      );
    };
    return {
      status,
      snapshotId: (record['snapshot_id'] as number | null) ?? manifest.addedSnapshotId,
      sequenceNumber: inheritedSeq(record['sequence_number'], 'sequence_number'),
      fileSequenceNumber: inheritedSeq(record['file_sequence_number'], 'file_sequence_number'),
      dataFile: {
        // v1 manifests have no content column: every file is a data file.
        content: (file['content'] as number | undefined) ?? CONTENT_DATA,
        filePath: file['file_path'] as string,
        fileFormat: file['file_format'] as string,
        partition: specFields.map((f, i) =>
          partitionValueFromAvro(partitionTypes[i] ?? 'int', partition[f.name]),
        ),
        recordCount: file['record_count'] as number,
        fileSizeInBytes: file['file_size_in_bytes'] as number,
        columnSizes: mapFromAvro(file['column_sizes'], (v) => v as number),
        valueCounts: mapFromAvro(file['value_counts'], (v) => v as number),
        nullValueCounts: mapFromAvro(file['null_value_counts'], (v) => v as number),
        nanValueCounts: mapFromAvro(file['nan_value_counts'], (v) => v as number),
        lowerBounds: mapFromAvro(file['lower_bounds'], bytesFromAvro),
        upperBounds: mapFromAvro(file['upper_bounds'], bytesFromAvro),
        keyMetadata: file['key_metadata'] ? bytesFromAvro(file['key_metadata']) : null,
        splitOffsets: (file['split_offsets'] as number[] | null) ?? null,
        equalityIds: (file['equality_ids'] as number[] | null) ?? null,
        sortOrderId: (file['sort_order_id'] as number | null) ?? null,
        referencedDataFile: (file['referenced_data_file'] as string | null) ?? null,
      },
    };
  });
}

// ---- manifest lists ----

export async function writeManifestList(
  path: string,
  manifests: ManifestFile[],
  info: { snapshotId: number; parentSnapshotId: number | null; sequenceNumber: number },
): Promise<void> {
  const records = manifests.map((m) => ({
    manifest_path: m.manifestPath,
    manifest_length: m.manifestLength,
    partition_spec_id: m.partitionSpecId,
    content: m.content,
    sequence_number: m.sequenceNumber,
    min_sequence_number: m.minSequenceNumber,
    added_snapshot_id: m.addedSnapshotId,
    added_files_count: m.addedFilesCount,
    existing_files_count: m.existingFilesCount,
    deleted_files_count: m.deletedFilesCount,
    added_rows_count: m.addedRowsCount,
    existing_rows_count: m.existingRowsCount,
    deleted_rows_count: m.deletedRowsCount,
    partitions: m.partitions.map((p) => ({
      contains_null: p.containsNull,
      contains_nan: p.containsNan,
      lower_bound: p.lowerBound === null ? null : Buffer.from(p.lowerBound),
      upper_bound: p.upperBound === null ? null : Buffer.from(p.upperBound),
    })),
    key_metadata: null,
  }));
  const bytes = await encode(MANIFEST_FILE_SCHEMA, records, {
    'snapshot-id': String(info.snapshotId),
    'parent-snapshot-id': info.parentSnapshotId === null ? 'null' : String(info.parentSnapshotId),
    'sequence-number': String(info.sequenceNumber),
    'format-version': '2',
  });
  writeFileSync(toPath(path), bytes, { flag: 'wx' });
}

export async function readManifestList(path: string): Promise<ManifestFile[]> {
  const { records } = await decode(path);
  return records.map((r) => ({
    manifestPath: r['manifest_path'] as string,
    manifestLength: r['manifest_length'] as number,
    partitionSpecId: r['partition_spec_id'] as number,
    content: r['content'] as number,
    // v1 manifest lists have no sequence numbers: the spec's default is 0.
    sequenceNumber: (r['sequence_number'] as number | undefined) ?? 0,
    minSequenceNumber: (r['min_sequence_number'] as number | undefined) ?? 0,
    addedSnapshotId: r['added_snapshot_id'] as number,
    // v1 manifest lists name the counts added_data_files_count, ...
    addedFilesCount: (r['added_files_count'] ?? r['added_data_files_count']) as number,
    existingFilesCount: (r['existing_files_count'] ?? r['existing_data_files_count']) as number,
    deletedFilesCount: (r['deleted_files_count'] ?? r['deleted_data_files_count']) as number,
    addedRowsCount: r['added_rows_count'] as number,
    existingRowsCount: r['existing_rows_count'] as number,
    deletedRowsCount: r['deleted_rows_count'] as number,
    partitions: ((r['partitions'] as AvroRecord[] | null) ?? []).map((p) => ({
      containsNull: p['contains_null'] as boolean,
      containsNan: (p['contains_nan'] as boolean | null) ?? null,
      lowerBound: p['lower_bound'] ? new Uint8Array(p['lower_bound'] as Buffer) : null,
      upperBound: p['upper_bound'] ? new Uint8Array(p['upper_bound'] as Buffer) : null,
    })),
  }));
}
