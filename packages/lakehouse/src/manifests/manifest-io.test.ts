import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import avro from 'avsc';
import { CorruptTableError } from '../errors';
import { toUri } from '../io/file-io';
import { buildPartitionSpec } from '../metadata/partition-spec';
import { buildSchema } from '../metadata/schema';
import { manifestEntrySchema } from './avro-schemas';
import {
  CONTENT_DATA,
  CONTENT_EQUALITY_DELETES,
  STATUS_ADDED,
  STATUS_DELETED,
  STATUS_EXISTING,
  type DataFile,
  type ManifestEntry,
} from './data-file';
import { readManifest, readManifestList, writeManifest, writeManifestList } from './manifest-io';

const schema = buildSchema(0, [
  { name: 'id', type: 'long' },
  { name: 'start_time', type: 'timestamp' },
]);
const spec = buildPartitionSpec(0, schema, [{ sourceColumn: 'start_time', transform: 'hour' }], 999, 't');

function dataFile(path: string, hour: number): DataFile {
  return {
    content: CONTENT_DATA,
    filePath: path,
    fileFormat: 'PARQUET',
    partition: [hour],
    recordCount: 10,
    fileSizeInBytes: 1234,
    columnSizes: new Map([[1, 100]]),
    valueCounts: new Map([[1, 10]]),
    nullValueCounts: new Map([[1, 0]]),
    nanValueCounts: new Map(),
    lowerBounds: new Map([[1, Uint8Array.of(1, 0, 0, 0, 0, 0, 0, 0)]]),
    upperBounds: new Map([[1, Uint8Array.of(9, 0, 0, 0, 0, 0, 0, 0)]]),
    keyMetadata: null,
    splitOffsets: null,
    equalityIds: null,
    sortOrderId: 0,
    referencedDataFile: null,
  };
}

describe('Avro manifests and manifest lists', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loglake-manifest-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  test('ADDED entries inherit sequence numbers; EXISTING and DELETED carry them explicitly', async () => {
    // Prepare
    const entries: ManifestEntry[] = [
      {
        status: STATUS_ADDED,
        snapshotId: 7,
        sequenceNumber: 3,
        fileSequenceNumber: 3,
        dataFile: dataFile('file:///a.parquet', 10),
      },
      {
        status: STATUS_EXISTING,
        snapshotId: 5,
        sequenceNumber: 1,
        fileSequenceNumber: 1,
        dataFile: dataFile('file:///b.parquet', 12),
      },
      {
        status: STATUS_DELETED,
        snapshotId: 7,
        sequenceNumber: 2,
        fileSequenceNumber: 2,
        dataFile: dataFile('file:///c.parquet', 11),
      },
    ];
    const path = toUri(join(dir, 'm0.avro'));
    // Act
    const manifest = await writeManifest({
      path,
      schema,
      spec,
      partitionTypes: ['int'],
      content: 0,
      snapshotId: 7,
      sequenceNumber: 3,
      entries,
    });
    const raw: Record<string, unknown>[] = [];
    await new Promise<void>((resolve, reject) =>
      avro
        .createFileDecoder(join(dir, 'm0.avro'))
        .on('data', (r: Record<string, unknown>) => raw.push(r))
        .on('end', () => resolve())
        .on('error', reject),
    );
    const read = await readManifest(manifest, ['int']);
    // Assess
    expect(raw.map((r) => [r['snapshot_id'], r['sequence_number'], r['file_sequence_number']])).toEqual([
      [null, null, null],
      [5, 1, 1],
      [7, 2, 2],
    ]);
    expect(read.map((e) => [e.status, e.snapshotId, e.sequenceNumber])).toEqual([
      [1, 7, 3],
      [0, 5, 1],
      [2, 7, 2],
    ]);
    expect(read[0]!.dataFile).toEqual(entries[0]!.dataFile);
    expect(manifest).toMatchObject({
      addedFilesCount: 1,
      existingFilesCount: 1,
      deletedFilesCount: 1,
      minSequenceNumber: 1,
    });
    expect(manifest.partitions[0]).toMatchObject({ containsNull: false });
    expect(Buffer.from(manifest.partitions[0]!.lowerBound!).readInt32LE()).toBe(10);
    expect(Buffer.from(manifest.partitions[0]!.upperBound!).readInt32LE()).toBe(12);
  });

  test('key metadata, equality ids and absent metrics survive a rewrite (EXISTING entries keep what was read)', async () => {
    // Prepare: an equality-delete file as another writer records it, carried into a new manifest
    const file: DataFile = {
      ...dataFile('file:///eq.parquet', 3),
      content: CONTENT_EQUALITY_DELETES,
      keyMetadata: Uint8Array.of(0xca, 0xfe),
      equalityIds: [1, 2],
      splitOffsets: [4],
      columnSizes: null,
      lowerBounds: null,
    };
    const path = toUri(join(dir, 'm3.avro'));
    // Act
    const manifest = await writeManifest({
      path,
      schema,
      spec,
      partitionTypes: ['int'],
      content: 1,
      snapshotId: 9,
      sequenceNumber: 5,
      entries: [
        { status: STATUS_EXISTING, snapshotId: 8, sequenceNumber: 2, fileSequenceNumber: 2, dataFile: file },
      ],
    });
    const [read] = await readManifest(manifest, ['int']);
    // Assess
    expect(read?.dataFile).toEqual(file);
  });

  test('sequence numbers are inherited only by ADDED entries (spec: manifest_entry)', async () => {
    // Prepare: a writer that left every entry's numbers null, which the spec allows only for ADDED ones
    const manifest = await writeManifest({
      path: toUri(join(dir, 'm4.avro')),
      schema,
      spec,
      partitionTypes: ['int'],
      content: 0,
      snapshotId: 9,
      sequenceNumber: 6,
      entries: [],
    });
    const record = (status: number, name: string) => ({
      status,
      snapshot_id: null,
      sequence_number: null,
      file_sequence_number: null,
      data_file: {
        content: 0,
        file_path: `file:///${name}`,
        file_format: 'PARQUET',
        partition: { start_time_hour: 1 },
        record_count: 1,
        file_size_in_bytes: 1,
      },
    });
    const type = avro.Type.forSchema(
      manifestEntrySchema([{ name: 'start_time_hour', fieldId: 1000, type: 'int' }]) as avro.Schema,
    );
    const writeRaw = async (file: string, status: number): Promise<string> => {
      const chunks: Buffer[] = [];
      const encoder = new avro.streams.BlockEncoder(type);
      const encoded = new Promise((resolve) =>
        encoder.on('data', (c: Buffer) => chunks.push(c)).on('end', resolve),
      );
      // clone fills the fields left out (the metrics, key metadata, ...) with their schema defaults (null).
      encoder.end(type.clone(record(status, file)));
      await encoded;
      writeFileSync(join(dir, file), Buffer.concat(chunks));
      return toUri(join(dir, file));
    };
    // Act
    const added = await readManifest(
      { ...manifest, manifestPath: await writeRaw('m4-added.avro', STATUS_ADDED) },
      ['int'],
    );
    const existing = readManifest(
      { ...manifest, manifestPath: await writeRaw('m4-existing.avro', STATUS_EXISTING) },
      ['int'],
    );
    // Assess: an ADDED entry inherits the manifest's; an EXISTING one with none is refused, never read as 0 (a
    // delete file read as 0 would stop applying to the rows it deletes).
    expect(added.map((e) => [e.status, e.snapshotId, e.sequenceNumber, e.fileSequenceNumber])).toEqual([
      [STATUS_ADDED, 9, 6, 6],
    ]);
    await expect(existing).rejects.toThrow(CorruptTableError);
    await expect(existing).rejects.toThrow('a null sequence_number');
  });

  test('headers carry the schema, spec and field ids readers need', async () => {
    // Prepare
    const path = join(dir, 'm1.avro');
    await writeManifest({
      path: toUri(path),
      schema,
      spec,
      partitionTypes: ['int'],
      content: 1,
      snapshotId: 1,
      sequenceNumber: 1,
      entries: [],
    });
    // Act
    const header = await new Promise<Record<string, Buffer>>((resolve, reject) =>
      avro
        .createFileDecoder(path)
        .on('metadata', (_t: unknown, _c: unknown, h: { meta: Record<string, Buffer> }) => resolve(h.meta))
        .on('error', reject),
    );
    // Assess
    expect(header['content']?.toString()).toBe('deletes');
    expect(header['format-version']?.toString()).toBe('2');
    expect(JSON.parse(header['partition-spec']!.toString())).toEqual([
      { 'source-id': 2, 'field-id': 1000, name: 'start_time_hour', transform: 'hour' },
    ]);
    const avroSchema = header['avro.schema']!.toString();
    expect(avroSchema).toContain('"field-id":102');
    expect(avroSchema).toContain('"field-id":1000');
    expect(avroSchema).not.toContain('"type":"map"');
  });

  test('manifest lists round-trip', async () => {
    // Prepare
    const path = toUri(join(dir, 'snap.avro'));
    const manifest = await writeManifest({
      path: toUri(join(dir, 'm2.avro')),
      schema,
      spec,
      partitionTypes: ['int'],
      content: 0,
      snapshotId: 9,
      sequenceNumber: 4,
      entries: [
        {
          status: STATUS_ADDED,
          snapshotId: 9,
          sequenceNumber: 4,
          fileSequenceNumber: 4,
          dataFile: dataFile('file:///d', 1),
        },
      ],
    });
    // Act
    await writeManifestList(path, [manifest], { snapshotId: 9, parentSnapshotId: 8, sequenceNumber: 4 });
    // Assess
    expect(await readManifestList(path)).toEqual([manifest]);
  });
});
