import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFile, utimes } from 'node:fs/promises';
import { toPath } from '../io/file-io';
import { openWarehouse } from './warehouse';
import { FLOW_TABLE, flowRows, testWarehouse, type TestWarehouse } from '../../test/table/testing';

describe('the S3-Tables-shaped catalog', () => {
  let env: TestWarehouse;
  beforeAll(async () => {
    env = await testWarehouse();
  });
  afterAll(async () => env.dispose());

  test('buckets → namespaces → tables: create, get, list, delete, with S3 Tables rules', async () => {
    // Prepare
    const w = env.warehouse;
    // Act
    const bucket = await w.createTableBucket('catalog-test');
    await w.createNamespace('catalog-test', 'network');
    await w.createTable('catalog-test', 'network', 'flows', FLOW_TABLE);
    // Assess
    expect(bucket.arn).toBe('arn:aws:s3tables:us-east-1:000000000000:bucket/catalog-test');
    await expect(w.createTableBucket('catalog-test')).rejects.toMatchObject({
      name: 'TableBucketAlreadyExistsError',
    });
    await expect(w.createTableBucket('Bad_Name')).rejects.toMatchObject({ name: 'InvalidNameError' });
    await expect(w.createNamespace('catalog-test', 'network')).rejects.toMatchObject({
      name: 'NamespaceAlreadyExistsError',
    });
    await expect(w.createNamespace('missing', 'network')).rejects.toMatchObject({
      name: 'NoSuchTableBucketError',
    });
    await expect(w.createTable('catalog-test', 'network', 'flows', FLOW_TABLE)).rejects.toMatchObject({
      name: 'TableAlreadyExistsError',
    });
    await expect(w.loadTable('catalog-test', 'network', 'nope')).rejects.toThrow(
      /Table network.nope does not exist in table bucket 'catalog-test'/,
    );
    await expect(w.deleteNamespace('catalog-test', 'network')).rejects.toMatchObject({
      name: 'NamespaceNotEmptyError',
    });
    await expect(w.deleteTableBucket('catalog-test')).rejects.toMatchObject({
      name: 'TableBucketNotEmptyError',
    });
    expect((await w.listTables('catalog-test')).map((t) => t.name)).toEqual(['flows']);
    expect((await w.listNamespaces('catalog-test')).map((n) => n.namespace)).toEqual(['network']);
    await w.dropTable('catalog-test', 'network', 'flows');
    await w.deleteNamespace('catalog-test', 'network');
    await w.deleteTableBucket('catalog-test');
    expect((await w.listTableBuckets()).map((b) => b.name)).not.toContain('catalog-test');
  });

  test('a table is never modified before it was created (the file clock may lag the record)', async () => {
    const w = env.warehouse;
    await w.createTableBucket('clock-test');
    await w.createNamespace('clock-test', 'ns');
    await w.createTable('clock-test', 'ns', 't', FLOW_TABLE);
    const created = await w.getTable('clock-test', 'ns', 't');
    // The metadata file's time as a coarse file-system clock can leave it: before the catalog record's.
    const earlier = new Date(created.createdAt.getTime() - 5);
    await utimes(toPath(created.metadataLocation), earlier, earlier);
    const summary = await w.getTable('clock-test', 'ns', 't');
    expect(summary.modifiedAt.getTime()).toBeGreaterThanOrEqual(summary.createdAt.getTime());
    const empty = await w.createTable('clock-test', 'ns', 'later', { columns: [], deferSchema: true });
    expect((await empty.metadata()).schemas).toEqual([{ 'schema-id': 0, type: 'struct', fields: [] }]);
    await expect(w.createTable('clock-test', 'ns', 'refused', { columns: [] })).rejects.toMatchObject({
      name: 'InvalidSchemaError',
    });
  });

  test('the catalog persists across restarts; version tokens move with commits', async () => {
    // Prepare
    const w = env.warehouse;
    await w.createTableBucket('persist');
    await w.createNamespace('persist', 'ns');
    const table = await w.createTable('persist', 'ns', 't', FLOW_TABLE);
    const created = await w.getTable('persist', 'ns', 't');
    await table.append({ rows: flowRows(3) });
    // Act
    const reopened = await openWarehouse(env.dir);
    try {
      const summary = await reopened.getTable('persist', 'ns', 't');
      // Assess
      expect(created.versionToken).toBe('1');
      expect(summary.versionToken).toBe('2');
      expect(summary.metadataLocation).toMatch(/^file:\/\/.*\/metadata\/v2\.metadata\.json$/);
      const hint = await readFile(
        toPath(summary.metadataLocation).replace(/v2\.metadata\.json$/, 'version-hint.text'),
        'utf8',
      );
      expect(hint).toBe('2');
      const meta = await (await reopened.loadTable('persist', 'ns', 't')).metadata();
      expect(meta.snapshots).toHaveLength(1);
    } finally {
      await reopened.close();
    }
  });

  test('UpdateTableMetadataLocation is a compare-and-swap on the version token', async () => {
    // Prepare
    const w = env.warehouse;
    await w.createTableBucket('cas');
    await w.createNamespace('cas', 'ns');
    await w.createTable('cas', 'ns', 't', FLOW_TABLE);
    const v1 = await w.getTable('cas', 'ns', 't');
    // Act
    const moved = await w.updateMetadataLocation('cas', 'ns', 't', v1.versionToken, v1.metadataLocation);
    const stale = w.updateMetadataLocation('cas', 'ns', 't', v1.versionToken, v1.metadataLocation);
    // Assess
    expect(moved.versionToken).toBe('2');
    await expect(stale).rejects.toMatchObject({ name: 'CommitConflictError' });
  });

  test('a handle to a dropped table fails with NoSuchTableError naming its metadata', async () => {
    // Prepare
    const w = env.warehouse;
    await w.createTableBucket('dropped');
    await w.createNamespace('dropped', 'ns');
    const table = await w.createTable('dropped', 'ns', 't', FLOW_TABLE);
    await w.dropTable('dropped', 'ns', 't');
    // Act
    const read = table.metadata();
    // Assess
    await expect(read).rejects.toMatchObject({
      name: 'NoSuchTableError',
      message: expect.stringMatching(/v0\.metadata\.json does not exist: the table was dropped/),
    });
  });
});
