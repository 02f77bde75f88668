import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readdir } from 'node:fs/promises';
import { snapshotFiles, readManifestListCached, readManifestCached } from '../manifests/live-files';
import { STATUS_DELETED, STATUS_EXISTING } from '../manifests/data-file';
import { branchHead } from '../metadata/table-metadata';
import { flowRows, flowTable, testWarehouse, type TestWarehouse } from '../../test/table/testing';
import type { IcebergTable } from '../table/table-handle';
import { produceSnapshot } from './snapshot-producer';

describe('the snapshot producer', () => {
  let env: TestWarehouse;
  let table: IcebergTable;
  beforeAll(async () => {
    env = await testWarehouse();
    table = (await flowTable(env.warehouse, 'producer')) as IcebergTable;
    await table.append({ rows: flowRows(20, 2) });
  });
  afterAll(async () => env.dispose());

  test('removing a file rewrites its manifest with DELETED and EXISTING entries and explicit numbers', async () => {
    // Prepare
    const base = await table.metadata();
    const live = await snapshotFiles(base, branchHead(base));
    const victim = live.dataFiles[0]!;
    // Act
    const produced = await produceSnapshot(base, table.layout, {
      operation: 'delete',
      added: [],
      removed: [victim.file.filePath],
    });
    // Assess
    expect(produced.snapshot.summary).toMatchObject({
      operation: 'delete',
      'deleted-data-files': '1',
      'deleted-records': String(victim.file.recordCount),
      'total-records': String(20 - victim.file.recordCount),
      'total-data-files': '1',
      'changed-partition-count': '1',
    });
    expect(produced.snapshot['parent-snapshot-id']).toBe(base['current-snapshot-id']);
    expect(produced.snapshot['sequence-number']).toBe(base['last-sequence-number'] + 1);
    const [manifest] = await readManifestListCached(produced.snapshot['manifest-list']);
    const entries = await readManifestCached(produced.metadata, manifest!);
    expect(entries.map((e) => [e.status, e.sequenceNumber])).toEqual(
      expect.arrayContaining([
        [STATUS_DELETED, 1],
        [STATUS_EXISTING, 1],
      ]),
    );
    expect(entries.find((e) => e.status === STATUS_DELETED)?.snapshotId).toBe(
      produced.snapshot['snapshot-id'],
    );
  });

  test('removing a file that is not live is a conflict and leaves no manifest behind', async () => {
    // Prepare
    const base = await table.metadata();
    const before = await readdir(table.layout.metadataDir);
    // Act
    const attempt = produceSnapshot(base, table.layout, {
      operation: 'delete',
      added: [],
      removed: ['file:///gone.parquet'],
    });
    // Assess
    await expect(attempt).rejects.toMatchObject({ name: 'CommitConflictError' });
    expect((await readdir(table.layout.metadataDir)).sort()).toEqual(before.sort());
  });
});
