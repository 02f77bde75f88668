// The metadata tables read manifests through the engine's reader (manifests/live-files.ts over manifest-io.ts), as
// pyiceberg's InspectTable reads through its scan's: no Avro decoder of their own, and not the conformance oracle's.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import avro from 'avsc';
import type { Snapshot, TableHandle, TableMetadata } from '../contract';
import { toPath } from '../io/file-io';
import { manifestEntrySchema } from '../manifests/avro-schemas';
import type { ManifestFile } from '../manifests/data-file';
import { snapshotFiles } from '../manifests/live-files';
import { readManifestList, writeManifestList } from '../manifests/manifest-io';
import { branchHead } from '../metadata/table-metadata';
import { encodeBound } from '../metadata/values';
import { readSnapshotEntries } from '../../test/conformance/avro-reader';
import { flowRows, flowTable, query, testWarehouse, type TestWarehouse } from '../../test/table/testing';
import { buildMetadataTable, toRelationSql } from './index';

const DIR = fileURLToPath(new URL('.', import.meta.url));

describe('metadata tables', () => {
  test("read manifests only through the engine's reader, never as raw Avro records", () => {
    // Prepare
    const sources = readdirSync(DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

    // Act
    const offenders = sources.filter((f) =>
      /from '(avsc|\.\.\/conformance\/[^']*|\.\.\/manifests\/manifest-io)'/.test(
        readFileSync(`${DIR}/${f}`, 'utf8'),
      ),
    );

    // Assess
    expect(sources).toContain('file-tables.ts');
    expect(offenders).toEqual([]);
  });
});

describe('one decoder of manifest entries', () => {
  let env: TestWarehouse;
  let table: TableHandle;
  beforeAll(async () => {
    env = await testWarehouse();
    table = await flowTable(env.warehouse, 'flows');
    await table.append({ rows: flowRows(4, 1) });
  });
  afterAll(async () => env.dispose());

  /**
   * Adds to the current snapshot a delete manifest as another writer (Java, pyiceberg) may write it: an ADDED
   * equality-delete entry with null snapshot id and sequence numbers (inherited), key metadata, split offsets,
   * equality ids and no metrics at all (null maps, not empty ones).
   */
  async function withForeignDeleteManifest(
    meta: TableMetadata,
    hour: number,
  ): Promise<{ meta: TableMetadata; snapshot: Snapshot; filePath: string }> {
    const snapshot = branchHead(meta)!;
    const metadataDir = `${meta.location}/metadata`;
    const manifestPath = `${metadataDir}/foreign-m0.avro`;
    const filePath = `${meta.location}/data/foreign-eq-deletes.parquet`;
    const spec = meta['partition-specs'][0]!;
    const type = avro.Type.forSchema(
      manifestEntrySchema([{ name: 'start_time_hour', fieldId: 1000, type: 'int' }]) as avro.Schema,
    );
    const chunks: Buffer[] = [];
    const encoder = new avro.streams.BlockEncoder(type, {
      metadata: {
        'partition-spec': Buffer.from(JSON.stringify(spec.fields)),
        'partition-spec-id': Buffer.from('0'),
        'format-version': Buffer.from('2'),
        content: Buffer.from('deletes'),
      },
    } as unknown as ConstructorParameters<typeof avro.streams.BlockEncoder>[1]);
    const done = new Promise((resolve) => encoder.on('end', resolve));
    encoder.on('data', (chunk: Buffer) => chunks.push(chunk));
    encoder.end({
      status: 1,
      snapshot_id: null,
      sequence_number: null,
      file_sequence_number: null,
      data_file: {
        content: 2,
        file_path: filePath,
        file_format: 'PARQUET',
        partition: { start_time_hour: hour },
        record_count: 3,
        file_size_in_bytes: 321,
        column_sizes: null,
        value_counts: null,
        null_value_counts: null,
        nan_value_counts: null,
        lower_bounds: null,
        upper_bounds: null,
        key_metadata: Buffer.from([0xca, 0xfe]),
        split_offsets: [4],
        equality_ids: [1, 4],
        sort_order_id: null,
        referenced_data_file: null,
      },
    });
    await done;
    const bytes = Buffer.concat(chunks);
    writeFileSync(toPath(manifestPath), bytes);
    const deletes: ManifestFile = {
      manifestPath,
      manifestLength: bytes.length,
      partitionSpecId: 0,
      content: 1,
      sequenceNumber: snapshot['sequence-number'],
      minSequenceNumber: snapshot['sequence-number'],
      addedSnapshotId: snapshot['snapshot-id'],
      addedFilesCount: 1,
      existingFilesCount: 0,
      deletedFilesCount: 0,
      addedRowsCount: 3,
      existingRowsCount: 0,
      deletedRowsCount: 0,
      partitions: [
        {
          containsNull: false,
          containsNan: null,
          lowerBound: encodeBound('int', hour),
          upperBound: encodeBound('int', hour),
        },
      ],
    };
    const listPath = `${metadataDir}/snap-foreign.avro`;
    await writeManifestList(listPath, [...(await readManifestList(snapshot['manifest-list'])), deletes], {
      snapshotId: snapshot['snapshot-id'],
      parentSnapshotId: null,
      sequenceNumber: snapshot['sequence-number'],
    });
    const patched = { ...snapshot, 'manifest-list': listPath };
    return {
      meta: { ...meta, snapshots: meta.snapshots.map((s) => (s === snapshot ? patched : s)) },
      snapshot: patched,
      filePath,
    };
  }

  test('an entry reads the same through the engine, $files and the independent oracle', async () => {
    // Prepare
    const hour = Math.floor(Date.UTC(2024, 4, 1) / 3_600_000);
    const { meta, snapshot, filePath } = await withForeignDeleteManifest(await table.metadata(), hour);

    // Act
    const engine = (await snapshotFiles(meta, snapshot)).deleteFiles.find(
      (d) => d.file.filePath === filePath,
    );
    const files = await buildMetadataTable('flows', meta, 'files');
    const at = (name: string) => files.columns.findIndex((c) => c.name === name);
    const row = files.rows.find((r) => r[at('file_path')] === filePath);
    const oracle = (await readSnapshotEntries(snapshot['manifest-list'])).entries.find(
      (e) => e.dataFile.filePath === filePath,
    );
    const [sql] = await query(
      env.warehouse,
      `SELECT content, hex(key_metadata) AS key, equality_ids, split_offsets, column_sizes IS NULL AS no_sizes,
              partition.start_time_hour AS hour
       FROM ${toRelationSql(files)} AS f WHERE content = 2`,
    );

    // Assess: the engine decodes the fields and inherits per the spec ...
    expect(engine).toMatchObject({
      snapshotId: snapshot['snapshot-id'],
      sequenceNumber: snapshot['sequence-number'],
      fileSequenceNumber: snapshot['sequence-number'],
      file: {
        content: 2,
        fileFormat: 'PARQUET',
        partition: [hour],
        keyMetadata: Uint8Array.from([0xca, 0xfe]),
        splitOffsets: [4],
        equalityIds: [1, 4],
        columnSizes: null,
        lowerBounds: null,
      },
    });
    // ... as the conformance oracle's own reader reads the same bytes ...
    expect(oracle).toMatchObject({
      snapshotId: engine!.snapshotId,
      sequenceNumber: engine!.sequenceNumber,
      fileSequenceNumber: engine!.fileSequenceNumber,
      dataFile: {
        keyMetadata: engine!.file.keyMetadata,
        equalityIds: engine!.file.equalityIds,
        splitOffsets: engine!.file.splitOffsets,
        columnSizes: null,
      },
    });
    // ... and $files shows the engine's entry.
    expect(row?.slice(0, at('key_metadata') + 3)).toEqual([
      2,
      filePath,
      'PARQUET',
      3,
      321,
      null,
      null,
      null,
      null,
      null,
      null,
      engine!.file.keyMetadata,
      [4],
      [1, 4],
    ]);
    expect(sql).toEqual({
      content: 2,
      key: 'CAFE',
      equality_ids: [1, 4],
      split_offsets: [4n],
      no_sizes: true,
      hour,
    });
  });
});
