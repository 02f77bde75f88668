import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ConflictException,
  CreateNamespaceCommand,
  CreateTableBucketCommand,
  CreateTableCommand,
  GetTableBucketMaintenanceConfigurationCommand,
  GetTableCommand,
  GetTableMaintenanceConfigurationCommand,
  GetTableMaintenanceJobStatusCommand,
  GetTableMetadataLocationCommand,
  GetTablePolicyCommand,
  ListNamespacesCommand,
  ListTableBucketsCommand,
  ListTablesCommand,
  NotFoundException,
  BadRequestException,
  PutTableMaintenanceConfigurationCommand,
  PutTablePolicyCommand,
  UpdateTableMetadataLocationCommand,
  DeleteTableCommand,
} from '@aws-sdk/client-s3tables';
import { startLocalEndpoint, type LocalEndpoint } from '../server';
import { runLocalMaintenance } from '../admin-client';
import { MemoryWarehouse } from '../../test/support/memory-warehouse';
import { localClients, type LocalClients } from '../../test/support/clients';

describe('S3 Tables over loopback (protocol layer, in-memory engine stand-in)', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let clients: LocalClients;
  const warehouse = new MemoryWarehouse();
  let bucketArn: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-s3tables-'));
    endpoint = await startLocalEndpoint({ dataDir: dir, engine: { openWarehouse: async () => warehouse } });
    clients = localClients(endpoint.url);
    bucketArn = (await clients.s3tables.send(new CreateTableBucketCommand({ name: 'lab-bucket' })))
      .arn as string;
    await clients.s3tables.send(
      new CreateNamespaceCommand({ tableBucketARN: bucketArn, namespace: ['network'] }),
    );
  });
  afterAll(async () => {
    clients.destroy();
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('creates a table from metadata.iceberg.schema and lists buckets, namespaces and tables', async () => {
    // Act
    const created = await clients.s3tables.send(
      new CreateTableCommand({
        tableBucketARN: bucketArn,
        namespace: 'network',
        name: 'vpc_flow_logs',
        format: 'ICEBERG',
        metadata: {
          iceberg: {
            schema: {
              fields: [
                { name: 'srcaddr', type: 'string' },
                { name: 'bytes', type: 'long', required: true },
              ],
            },
          },
        },
      }),
    );
    const buckets = await clients.s3tables.send(new ListTableBucketsCommand({}));
    const namespaces = await clients.s3tables.send(new ListNamespacesCommand({ tableBucketARN: bucketArn }));
    const tables = await clients.s3tables.send(
      new ListTablesCommand({ tableBucketARN: bucketArn, namespace: 'network' }),
    );
    const table = await clients.s3tables.send(
      new GetTableCommand({ tableBucketARN: bucketArn, namespace: 'network', name: 'vpc_flow_logs' }),
    );

    // Assess
    expect(bucketArn).toBe('arn:aws:s3tables:us-east-1:123456789012:bucket/lab-bucket');
    expect(created.tableARN).toMatch(
      /^arn:aws:s3tables:us-east-1:123456789012:bucket\/lab-bucket\/table\/.+/,
    );
    expect(created.versionToken).toBe('v1');
    expect(buckets.tableBuckets?.map((b) => b.name)).toEqual(['lab-bucket']);
    expect(buckets.tableBuckets?.[0]?.createdAt).toBeInstanceOf(Date);
    expect(namespaces.namespaces?.map((n) => n.namespace)).toEqual([['network']]);
    expect(tables.tables?.map((t) => t.name)).toEqual(['vpc_flow_logs']);
    expect(table.format).toBe('ICEBERG');
    expect(table.tableARN).toBe(created.tableARN);
    expect(
      warehouse.tables
        .get('lab-bucket/network/vpc_flow_logs')
        ?.metadata.schemas[0]?.fields.map((f) => [f.name, f.type, f.required]),
    ).toEqual([
      ['srcaddr', 'string', false],
      ['bytes', 'long', true],
    ]);
  });

  test('compare-and-swap of the metadata location with version tokens', async () => {
    // Prepare
    await clients.s3tables.send(
      new CreateTableCommand({
        tableBucketARN: bucketArn,
        namespace: 'network',
        name: 'cas',
        format: 'ICEBERG',
        metadata: { iceberg: { schema: { fields: [{ name: 'x', type: 'int' }] } } },
      }),
    );
    const before = await clients.s3tables.send(
      new GetTableMetadataLocationCommand({ tableBucketARN: bucketArn, namespace: 'network', name: 'cas' }),
    );

    // Act
    const updated = await clients.s3tables.send(
      new UpdateTableMetadataLocationCommand({
        tableBucketARN: bucketArn,
        namespace: 'network',
        name: 'cas',
        versionToken: before.versionToken as string,
        metadataLocation: 'file:///elsewhere/v2.metadata.json',
      }),
    );
    const stale = clients.s3tables.send(
      new UpdateTableMetadataLocationCommand({
        tableBucketARN: bucketArn,
        namespace: 'network',
        name: 'cas',
        versionToken: before.versionToken as string,
        metadataLocation: 'file:///elsewhere/v3.metadata.json',
      }),
    );

    // Assess
    expect(updated.versionToken).not.toBe(before.versionToken);
    expect(updated.metadataLocation).toBe('file:///elsewhere/v2.metadata.json');
    await expect(stale).rejects.toBeInstanceOf(ConflictException);
  });

  test('errors come back as the SDK exception classes AWS would raise', async () => {
    await expect(
      clients.s3tables.send(
        new GetTableCommand({ tableBucketARN: bucketArn, namespace: 'network', name: 'missing' }),
      ),
    ).rejects.toBeInstanceOf(NotFoundException);
    await expect(
      clients.s3tables.send(
        new CreateNamespaceCommand({ tableBucketARN: bucketArn, namespace: ['network'] }),
      ),
    ).rejects.toBeInstanceOf(ConflictException);
    await expect(
      clients.s3tables.send(
        new CreateTableCommand({
          tableBucketARN: bucketArn,
          namespace: 'network',
          name: 'bad_types',
          format: 'ICEBERG',
          metadata: { iceberg: { schema: { fields: [{ name: 'x', type: 'varchar' }] } } },
        }),
      ),
    ).rejects.toThrow(BadRequestException);
  });

  test('maintenance configuration round-trips and job status reports Successful runs with the engine reports beside it', async () => {
    // Prepare
    const args = { tableBucketARN: bucketArn, namespace: 'network', name: 'vpc_flow_logs' };
    const before = await clients.s3tables.send(new GetTableMaintenanceJobStatusCommand(args));

    // Act
    await clients.s3tables.send(
      new PutTableMaintenanceConfigurationCommand({
        ...args,
        type: 'icebergSnapshotManagement',
        value: {
          status: 'enabled',
          settings: { icebergSnapshotManagement: { minSnapshotsToKeep: 5, maxSnapshotAgeHours: 24 } },
        },
      }),
    );
    const config = await clients.s3tables.send(new GetTableMaintenanceConfigurationCommand(args));
    const bucketConfig = await clients.s3tables.send(
      new GetTableBucketMaintenanceConfigurationCommand({ tableBucketARN: bucketArn }),
    );
    const runs = await runLocalMaintenance(endpoint.url, {
      bucket: 'lab-bucket',
      namespace: 'network',
      table: 'vpc_flow_logs',
    });
    const after = await clients.s3tables.send(new GetTableMaintenanceJobStatusCommand(args));

    // Assess
    expect(before.status?.icebergCompaction?.status).toBe('Not_Yet_Run');
    expect(config.configuration?.icebergSnapshotManagement?.settings?.icebergSnapshotManagement).toEqual({
      minSnapshotsToKeep: 5,
      maxSnapshotAgeHours: 24,
    });
    expect(config.configuration?.icebergCompaction?.settings?.icebergCompaction?.targetFileSizeMB).toBe(512);
    expect(bucketConfig.configuration?.icebergUnreferencedFileRemoval?.status).toBe('enabled');
    expect(runs.map((r) => [r.type, r.status])).toEqual([
      ['icebergCompaction', 'Successful'],
      ['icebergSnapshotManagement', 'Successful'],
      ['icebergUnreferencedFileRemoval', 'Successful'],
    ]);
    expect(runs[0]?.compaction?.rewrittenDataFiles).toBe(0);
    expect(after.status?.icebergCompaction?.status).toBe('Successful');
    expect(after.status?.icebergCompaction?.lastRunTimestamp).toBeInstanceOf(Date);
  });

  test('policies are stored documents', async () => {
    const args = { tableBucketARN: bucketArn, namespace: 'network', name: 'vpc_flow_logs' };
    await expect(clients.s3tables.send(new GetTablePolicyCommand(args))).rejects.toBeInstanceOf(
      NotFoundException,
    );
    const policy = JSON.stringify({ Version: '2012-10-17', Statement: [] });
    await clients.s3tables.send(new PutTablePolicyCommand({ ...args, resourcePolicy: policy }));
    expect((await clients.s3tables.send(new GetTablePolicyCommand(args))).resourcePolicy).toBe(policy);
  });

  test('DeleteTable with a stale version token is refused', async () => {
    await expect(
      clients.s3tables.send(
        new DeleteTableCommand({
          tableBucketARN: bucketArn,
          namespace: 'network',
          name: 'vpc_flow_logs',
          versionToken: 'v999',
        }),
      ),
    ).rejects.toBeInstanceOf(ConflictException);
  });
});
