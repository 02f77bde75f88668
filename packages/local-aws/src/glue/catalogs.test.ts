// Glue's CatalogId and paging through the AWS SDK v3 client over loopback: `<account>:s3tablescatalog/<bucket>` is
// that table bucket's catalog (its namespaces are the databases, its tables read with their columns; a database
// created there is a namespace), the account's id and no id are the default catalog, any other id is not found;
// MaxResults/NextToken page GetDatabases and GetTables; UpdateDatabase replaces the definition.
import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateDatabaseCommand,
  CreateTableCommand,
  DeleteDatabaseCommand,
  GetDatabaseCommand,
  GetDatabasesCommand,
  GetTableCommand,
  GetTablesCommand,
  GlueClient,
  UpdateDatabaseCommand,
} from '@aws-sdk/client-glue';
import { CreateNamespaceCommand, GetNamespaceCommand } from '@aws-sdk/client-s3tables';
import { startLocalEndpoint, type LocalEndpoint } from '../server';
import { localClientConfig } from '../client-config';
import { localClients, type LocalClients } from '../../test/support/clients';
import { MemoryWarehouse } from '../../test/support/memory-warehouse';
import { createFlowTable } from '../../test/support/lab-setup';

const S3TABLES = '123456789012:s3tablescatalog/glue-bucket';
const nameOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'no error',
    (error: { name: string }) => error.name,
  );

describe('Glue catalogs (CatalogId) and pages (AWS SDK v3 over loopback)', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let clients: LocalClients;
  let glue: GlueClient;
  let bucketArn: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-glue-catalogs-'));
    endpoint = await startLocalEndpoint({
      dataDir: dir,
      engine: { openWarehouse: async () => new MemoryWarehouse() },
    });
    clients = localClients(endpoint.url);
    glue = new GlueClient(localClientConfig(endpoint.url));
    bucketArn = await createFlowTable(clients.s3tables, 'glue-bucket', [
      { name: 'srcaddr', type: 'string' },
      { name: 'bytes', type: 'long', required: true },
    ]);
    for (const namespace of ['ref', 'snapshots'])
      await clients.s3tables.send(
        new CreateNamespaceCommand({ tableBucketARN: bucketArn, namespace: [namespace] }),
      );
    await glue.send(new CreateDatabaseCommand({ DatabaseInput: { Name: 'default_catalog_db' } }));
  });
  afterAll(async () => {
    clients.destroy();
    glue.destroy();
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("an S3 Tables catalog's databases are its bucket's namespaces, paged by MaxResults/NextToken", async () => {
    const first = await glue.send(new GetDatabasesCommand({ CatalogId: S3TABLES, MaxResults: 2 }));
    expect(first.DatabaseList?.map((d) => [d.Name, d.CatalogId])).toEqual([
      ['network', S3TABLES],
      ['ref', S3TABLES],
    ]);
    expect(first.NextToken).toBeDefined();
    const rest = await glue.send(
      new GetDatabasesCommand({ CatalogId: S3TABLES, NextToken: first.NextToken }),
    );
    expect(rest.DatabaseList?.map((d) => d.Name)).toEqual(['snapshots']);
    expect(rest.NextToken).toBeUndefined();
    expect(
      (await glue.send(new GetDatabaseCommand({ CatalogId: S3TABLES, Name: 'ref' }))).Database?.Name,
    ).toBe('ref');
    // The default catalog is the account's, with or without its id.
    for (const CatalogId of [undefined, '123456789012'])
      expect(
        (await glue.send(new GetDatabasesCommand({ CatalogId }))).DatabaseList?.map((d) => d.Name),
      ).toEqual(['default_catalog_db']);
    expect(await nameOf(glue.send(new GetDatabasesCommand({ CatalogId: '999999999999' })))).toBe(
      'EntityNotFoundException',
    );
    expect(
      await nameOf(glue.send(new GetDatabasesCommand({ CatalogId: '123456789012:s3tablescatalog' }))),
    ).toBe('InvalidInputException');
  });

  test('a database created in an S3 Tables catalog is a namespace of its bucket; its tables are read with their columns', async () => {
    await glue.send(new CreateDatabaseCommand({ CatalogId: S3TABLES, DatabaseInput: { Name: 'enriched' } }));
    const namespace = await clients.s3tables.send(
      new GetNamespaceCommand({ tableBucketARN: bucketArn, namespace: 'enriched' }),
    );
    expect(namespace.namespace).toEqual(['enriched']);
    expect((await glue.send(new GetDatabasesCommand({}))).DatabaseList?.map((d) => d.Name)).toEqual([
      'default_catalog_db',
    ]);
    const { TableList } = await glue.send(
      new GetTablesCommand({ CatalogId: S3TABLES, DatabaseName: 'network' }),
    );
    expect(
      TableList?.map((t) => [
        t.Name,
        t.Parameters?.table_type,
        t.StorageDescriptor?.Columns?.map((c) => [c.Name, c.Type]),
      ]),
    ).toEqual([
      [
        'vpc_flow_logs',
        'ICEBERG',
        [
          ['srcaddr', 'string'],
          ['bytes', 'bigint'],
        ],
      ],
    ]);
    expect(
      (
        await glue.send(
          new GetTableCommand({ CatalogId: S3TABLES, DatabaseName: 'network', Name: 'vpc_flow_logs' }),
        )
      ).Table?.Name,
    ).toBe('vpc_flow_logs');
    // Its tables are made through S3 Tables, Athena or the Iceberg REST endpoint, not Glue.
    expect(
      await nameOf(
        glue.send(
          new CreateTableCommand({ CatalogId: S3TABLES, DatabaseName: 'network', TableInput: { Name: 'x' } }),
        ),
      ),
    ).toBe('InvalidInputException');
    // A namespace that still has tables is not deleted through Glue either.
    expect(await nameOf(glue.send(new DeleteDatabaseCommand({ CatalogId: S3TABLES, Name: 'network' })))).toBe(
      'InvalidInputException',
    );
    await glue.send(new DeleteDatabaseCommand({ CatalogId: S3TABLES, Name: 'enriched' }));
    expect(await nameOf(glue.send(new GetDatabaseCommand({ CatalogId: S3TABLES, Name: 'enriched' })))).toBe(
      'EntityNotFoundException',
    );
  });

  test('GetTables pages and filters by Expression in the default catalog; UpdateDatabase replaces the definition', async () => {
    await glue.send(new CreateDatabaseCommand({ DatabaseInput: { Name: 'paged', Description: 'first' } }));
    for (const name of ['a_one', 'a_two', 'b_three'])
      await glue.send(new CreateTableCommand({ DatabaseName: 'paged', TableInput: { Name: name } }));
    const first = await glue.send(new GetTablesCommand({ DatabaseName: 'paged', MaxResults: 2 }));
    const rest = await glue.send(new GetTablesCommand({ DatabaseName: 'paged', NextToken: first.NextToken }));
    expect([first.TableList?.length, rest.TableList?.length, rest.NextToken]).toEqual([2, 1, undefined]);
    expect(
      (await glue.send(new GetTablesCommand({ DatabaseName: 'paged', Expression: 'a_.*' }))).TableList?.map(
        (t) => t.Name,
      ).sort(),
    ).toEqual(['a_one', 'a_two']);
    await glue.send(
      new UpdateDatabaseCommand({
        Name: 'paged',
        DatabaseInput: { Name: 'paged', Description: 'second', Parameters: { owner: 'lab' } },
      }),
    );
    const { Database } = await glue.send(new GetDatabaseCommand({ Name: 'paged' }));
    expect([Database?.Description, Database?.Parameters]).toEqual(['second', { owner: 'lab' }]);
    expect(
      await nameOf(
        glue.send(new UpdateDatabaseCommand({ Name: 'paged', DatabaseInput: { Name: 'renamed' } })),
      ),
    ).toBe('InvalidInputException');
  });
});
