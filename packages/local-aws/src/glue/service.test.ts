import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GlueClient,
  CreateDatabaseCommand,
  GetDatabaseCommand,
  CreateTableCommand,
  GetTableCommand,
  UpdateTableCommand,
  DeleteTableCommand,
  GetTablesCommand,
  GetTableVersionsCommand,
  EntityNotFoundException,
  AlreadyExistsException,
  ConcurrentModificationException,
} from '@aws-sdk/client-glue';
import { startLocalEndpoint, type LocalEndpoint } from '../server';
import { localClientConfig } from '../client-config';
import { MemoryWarehouse } from '../../test/support/memory-warehouse';

describe('Glue Data Catalog over loopback', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let glue: GlueClient;
  const warehouse = new MemoryWarehouse();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-glue-'));
    endpoint = await startLocalEndpoint({ dataDir: dir, engine: { openWarehouse: async () => warehouse } });
    glue = new GlueClient(localClientConfig(endpoint.url));
  });
  afterAll(async () => {
    glue.destroy();
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('databases and tables: create, get, list, errors in Glue shapes', async () => {
    // Prepare / Act
    await glue.send(new CreateDatabaseCommand({ DatabaseInput: { Name: 'Snapshots_DB' } }));
    await glue.send(
      new CreateTableCommand({
        DatabaseName: 'snapshots_db',
        TableInput: {
          Name: 'daily',
          TableType: 'EXTERNAL_TABLE',
          Parameters: { classification: 'parquet' },
          StorageDescriptor: {
            Location: 's3://snap-bucket/daily/initial/',
            Columns: [{ Name: 'srcaddr', Type: 'string' }],
          },
        },
      }),
    );
    // Assess
    expect((await glue.send(new GetDatabaseCommand({ Name: 'snapshots_db' }))).Database?.Name).toBe(
      'snapshots_db',
    );
    const { Table } = await glue.send(new GetTableCommand({ DatabaseName: 'snapshots_db', Name: 'daily' }));
    expect(Table).toMatchObject({ Name: 'daily', DatabaseName: 'snapshots_db', VersionId: '0' });
    expect(Table?.CreateTime).toBeInstanceOf(Date);
    expect((await glue.send(new GetTablesCommand({ DatabaseName: 'snapshots_db' }))).TableList).toHaveLength(
      1,
    );
    await expect(
      glue.send(new GetTableCommand({ DatabaseName: 'snapshots_db', Name: 'nope' })),
    ).rejects.toBeInstanceOf(EntityNotFoundException);
    await expect(
      glue.send(new CreateDatabaseCommand({ DatabaseInput: { Name: 'snapshots_db' } })),
    ).rejects.toBeInstanceOf(AlreadyExistsException);
  });

  test('UpdateTable is a compare-and-swap on VersionId and archives the old version', async () => {
    // Prepare
    const { Table } = await glue.send(new GetTableCommand({ DatabaseName: 'snapshots_db', Name: 'daily' }));
    const input = {
      Name: 'daily',
      TableType: Table?.TableType,
      StorageDescriptor: {
        ...Table?.StorageDescriptor,
        Location: 's3://snap-bucket/daily/run=2026-11-27-x/',
      },
      Parameters: { ...Table?.Parameters, 'loglake.snapshot.watermark': '2026-11-27' },
    };
    // Act
    await glue.send(
      new UpdateTableCommand({
        DatabaseName: 'snapshots_db',
        TableInput: input,
        VersionId: Table?.VersionId,
      }),
    );
    // Assess: a second writer holding the old version loses
    await expect(
      glue.send(
        new UpdateTableCommand({
          DatabaseName: 'snapshots_db',
          TableInput: input,
          VersionId: Table?.VersionId,
        }),
      ),
    ).rejects.toBeInstanceOf(ConcurrentModificationException);
    const after = (await glue.send(new GetTableCommand({ DatabaseName: 'snapshots_db', Name: 'daily' })))
      .Table;
    expect(after).toMatchObject({
      VersionId: '1',
      StorageDescriptor: { Location: 's3://snap-bucket/daily/run=2026-11-27-x/' },
    });
    expect(after?.Parameters?.['loglake.snapshot.watermark']).toBe('2026-11-27');
    const versions = await glue.send(
      new GetTableVersionsCommand({ DatabaseName: 'snapshots_db', TableName: 'daily' }),
    );
    expect(versions.TableVersions?.map((v) => v.VersionId)).toEqual(['1', '0']);
    await glue.send(new DeleteTableCommand({ DatabaseName: 'snapshots_db', Name: 'daily' }));
    await expect(
      glue.send(new GetTableCommand({ DatabaseName: 'snapshots_db', Name: 'daily' })),
    ).rejects.toBeInstanceOf(EntityNotFoundException);
  });
});
