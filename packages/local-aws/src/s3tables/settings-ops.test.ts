// The S3 Tables operations beyond the catalog, driven with the AWS SDK v3 client over loopback: encryption,
// storage class, metrics, tags, replication, record expiration and RenameTable, as AWS documents them.
import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BadRequestException,
  ConflictException,
  CreateNamespaceCommand,
  CreateTableBucketCommand,
  CreateTableCommand,
  DeleteTableBucketEncryptionCommand,
  DeleteTableBucketMetricsConfigurationCommand,
  DeleteTableBucketReplicationCommand,
  DeleteTableReplicationCommand,
  GetTableBucketEncryptionCommand,
  GetTableBucketMetricsConfigurationCommand,
  GetTableBucketReplicationCommand,
  GetTableBucketStorageClassCommand,
  GetTableCommand,
  GetTableEncryptionCommand,
  GetTableRecordExpirationConfigurationCommand,
  GetTableReplicationStatusCommand,
  GetTableStorageClassCommand,
  ListTagsForResourceCommand,
  MethodNotAllowedException,
  NotFoundException,
  PutTableBucketEncryptionCommand,
  PutTableBucketMetricsConfigurationCommand,
  PutTableBucketReplicationCommand,
  PutTableBucketStorageClassCommand,
  PutTablePolicyCommand,
  GetTablePolicyCommand,
  PutTableRecordExpirationConfigurationCommand,
  PutTableReplicationCommand,
  RenameTableCommand,
  TagResourceCommand,
  UntagResourceCommand,
} from '@aws-sdk/client-s3tables';
import { startLocalEndpoint, type LocalEndpoint } from '../server';
import { MemoryWarehouse } from '../../test/support/memory-warehouse';
import { localClients, type LocalClients } from '../../test/support/clients';

const KMS_KEY = 'arn:aws:kms:us-east-1:123456789012:key/0a1b2c3d-1111-2222-3333-444455556666';
const ROLE = 'arn:aws:iam::123456789012:role/s3tables-replication';
const fields = [{ name: 'id', type: 'long', required: true }];

describe('S3 Tables settings, tags, replication and RenameTable (SDK client over loopback)', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let clients: LocalClients;
  let bucketArn: string;
  const createTable = async (name: string, extra: Record<string, unknown> = {}) =>
    (
      await clients.s3tables.send(
        new CreateTableCommand({
          tableBucketARN: bucketArn,
          namespace: 'network',
          name,
          format: 'ICEBERG',
          metadata: { iceberg: { schema: { fields } } },
          ...extra,
        }),
      )
    ).tableARN as string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-s3tables-settings-'));
    endpoint = await startLocalEndpoint({
      dataDir: dir,
      engine: { openWarehouse: async () => new MemoryWarehouse() },
    });
    clients = localClients(endpoint.url);
    bucketArn = (
      await clients.s3tables.send(
        new CreateTableBucketCommand({ name: 'settings-bucket', tags: { team: 'net' } }),
      )
    ).arn as string;
    await clients.s3tables.send(
      new CreateNamespaceCommand({ tableBucketARN: bucketArn, namespace: ['network'] }),
    );
  });
  afterAll(async () => {
    clients.destroy();
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('encryption: SSE-S3 by default, SSE-KMS recorded for new tables, a table keeps what it was created with', async () => {
    // Prepare
    const before = await createTable('sse_s3');
    // Act
    const defaults = await clients.s3tables.send(
      new GetTableBucketEncryptionCommand({ tableBucketARN: bucketArn }),
    );
    await clients.s3tables.send(
      new PutTableBucketEncryptionCommand({
        tableBucketARN: bucketArn,
        encryptionConfiguration: { sseAlgorithm: 'aws:kms', kmsKeyArn: KMS_KEY },
      }),
    );
    const after = await createTable('sse_kms');
    const own = await createTable('own_sse', { encryptionConfiguration: { sseAlgorithm: 'AES256' } });
    const tableEncryption = async (name: string) =>
      (
        await clients.s3tables.send(
          new GetTableEncryptionCommand({ tableBucketARN: bucketArn, namespace: 'network', name }),
        )
      ).encryptionConfiguration;
    // Assess
    expect(defaults.encryptionConfiguration).toEqual({ sseAlgorithm: 'AES256' });
    expect(await tableEncryption('sse_s3')).toEqual({ sseAlgorithm: 'AES256' });
    expect(await tableEncryption('sse_kms')).toEqual({ sseAlgorithm: 'aws:kms', kmsKeyArn: KMS_KEY });
    expect(await tableEncryption('own_sse')).toEqual({ sseAlgorithm: 'AES256' });
    expect([before, after, own]).toHaveLength(3);
    await expect(
      clients.s3tables.send(
        new PutTableBucketEncryptionCommand({
          tableBucketARN: bucketArn,
          encryptionConfiguration: { sseAlgorithm: 'aws:kms' },
        }),
      ),
    ).rejects.toBeInstanceOf(BadRequestException);
    await clients.s3tables.send(new DeleteTableBucketEncryptionCommand({ tableBucketARN: bucketArn }));
    expect(
      (await clients.s3tables.send(new GetTableBucketEncryptionCommand({ tableBucketARN: bucketArn })))
        .encryptionConfiguration,
    ).toEqual({ sseAlgorithm: 'AES256' });
  });

  test('storage class: the bucket default applies to tables created after it changes', async () => {
    // Prepare
    await createTable('standard_table');
    // Act
    await clients.s3tables.send(
      new PutTableBucketStorageClassCommand({
        tableBucketARN: bucketArn,
        storageClassConfiguration: { storageClass: 'INTELLIGENT_TIERING' },
      }),
    );
    await createTable('tiered_table');
    const classOf = async (name: string) =>
      (
        await clients.s3tables.send(
          new GetTableStorageClassCommand({ tableBucketARN: bucketArn, namespace: 'network', name }),
        )
      ).storageClassConfiguration?.storageClass;
    // Assess
    expect(
      (await clients.s3tables.send(new GetTableBucketStorageClassCommand({ tableBucketARN: bucketArn })))
        .storageClassConfiguration?.storageClass,
    ).toBe('INTELLIGENT_TIERING');
    expect(await classOf('standard_table')).toBe('STANDARD');
    expect(await classOf('tiered_table')).toBe('INTELLIGENT_TIERING');
  });

  test('metrics configuration: absent is NotFound, put then get, delete', async () => {
    const get = () =>
      clients.s3tables.send(new GetTableBucketMetricsConfigurationCommand({ tableBucketARN: bucketArn }));
    await expect(get()).rejects.toBeInstanceOf(NotFoundException);
    await clients.s3tables.send(new PutTableBucketMetricsConfigurationCommand({ tableBucketARN: bucketArn }));
    expect((await get()).tableBucketARN).toBe(bucketArn);
    await clients.s3tables.send(
      new DeleteTableBucketMetricsConfigurationCommand({ tableBucketARN: bucketArn }),
    );
    await expect(get()).rejects.toBeInstanceOf(NotFoundException);
  });

  test('tags on buckets and tables: created with, added, removed; aws: keys and more than 50 refused', async () => {
    // Prepare
    const tableArn = await createTable('tagged', { tags: { owner: 'lab' } });
    const tagsOf = async (arn: string) =>
      (await clients.s3tables.send(new ListTagsForResourceCommand({ resourceArn: arn }))).tags;
    // Act
    await clients.s3tables.send(new TagResourceCommand({ resourceArn: tableArn, tags: { stage: 'dev' } }));
    await clients.s3tables.send(new UntagResourceCommand({ resourceArn: tableArn, tagKeys: ['owner'] }));
    // Assess
    expect(await tagsOf(bucketArn)).toEqual({ team: 'net' });
    expect(await tagsOf(tableArn)).toEqual({ stage: 'dev' });
    await expect(
      clients.s3tables.send(new TagResourceCommand({ resourceArn: bucketArn, tags: { 'aws:owner': 'x' } })),
    ).rejects.toBeInstanceOf(BadRequestException);
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
    await expect(
      clients.s3tables.send(new TagResourceCommand({ resourceArn: bucketArn, tags: many })),
    ).rejects.toThrow(/at most 50 tags/);
    expect(await tagsOf(bucketArn)).toEqual({ team: 'net' });
  });

  test('replication is recorded with version tokens and reported as not carried out locally', async () => {
    // Prepare
    const tableArn = await createTable('replicated');
    const configuration = {
      role: ROLE,
      rules: [
        {
          destinations: [
            { destinationTableBucketARN: 'arn:aws:s3tables:us-west-2:123456789012:bucket/replica' },
          ],
        },
      ],
    };
    // Act
    const put = await clients.s3tables.send(
      new PutTableBucketReplicationCommand({ tableBucketARN: bucketArn, configuration }),
    );
    const got = await clients.s3tables.send(
      new GetTableBucketReplicationCommand({ tableBucketARN: bucketArn }),
    );
    const status = await clients.s3tables.send(new GetTableReplicationStatusCommand({ tableArn }));
    // Assess
    expect(got).toMatchObject({ versionToken: put.versionToken, configuration });
    expect(status.destinations?.[0]).toMatchObject({ replicationStatus: 'failed' });
    await expect(
      clients.s3tables.send(
        new PutTableBucketReplicationCommand({
          tableBucketARN: bucketArn,
          configuration,
          versionToken: 'stale',
        }),
      ),
    ).rejects.toBeInstanceOf(ConflictException);
    const table = await clients.s3tables.send(new PutTableReplicationCommand({ tableArn, configuration }));
    await expect(
      clients.s3tables.send(new DeleteTableReplicationCommand({ tableArn, versionToken: 'stale' })),
    ).rejects.toBeInstanceOf(ConflictException);
    await clients.s3tables.send(
      new DeleteTableReplicationCommand({ tableArn, versionToken: table.versionToken }),
    );
    await clients.s3tables.send(
      new DeleteTableBucketReplicationCommand({ tableBucketARN: bucketArn, versionToken: put.versionToken }),
    );
    await expect(
      clients.s3tables.send(new GetTableBucketReplicationCommand({ tableBucketARN: bucketArn })),
    ).rejects.toBeInstanceOf(NotFoundException);
  });

  test('record expiration is refused for tables you create (MethodNotAllowedException, 405)', async () => {
    const tableArn = await createTable('expiring');
    const refused = clients.s3tables.send(
      new PutTableRecordExpirationConfigurationCommand({
        tableArn,
        value: { status: 'enabled', settings: { days: 30 } },
      }),
    );
    await expect(refused).rejects.toBeInstanceOf(MethodNotAllowedException);
    await expect(refused).rejects.toMatchObject({ $metadata: { httpStatusCode: 405 } });
    await expect(
      clients.s3tables.send(new GetTableRecordExpirationConfigurationCommand({ tableArn })),
    ).rejects.toBeInstanceOf(MethodNotAllowedException);
  });

  test('the SDK client gets the model refusal as its own exception class, naming the member', async () => {
    // The SDK v3 does not check patterns or lengths client-side: the endpoint's model-driven validation answers.
    const refused = clients.s3tables.send(new CreateTableBucketCommand({ name: 'Not_Valid' }));
    await expect(refused).rejects.toBeInstanceOf(BadRequestException);
    await expect(refused).rejects.toThrow(
      "1 validation error detected: Value 'Not_Valid' at 'name' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[0-9a-z-]*$",
    );
    await expect(
      clients.s3tables.send(
        new TagResourceCommand({ resourceArn: bucketArn, tags: { ['k'.repeat(129)]: 'v' } }),
      ),
    ).rejects.toThrow(
      /at 'tags' failed to satisfy constraint: Map keys must satisfy constraint: \[Member must have length less than or equal to 128\]/,
    );
  });

  test('RenameTable moves the table with its ARN, tags and policy; a stale version token or a taken name conflicts', async () => {
    // Prepare
    const tableArn = await createTable('old_name', { tags: { keep: 'me' } });
    await createTable('taken');
    await clients.s3tables.send(
      new PutTablePolicyCommand({
        tableBucketARN: bucketArn,
        namespace: 'network',
        name: 'old_name',
        resourcePolicy: '{"Version":"2012-10-17","Statement":[]}',
      }),
    );
    const args = { tableBucketARN: bucketArn, namespace: 'network', name: 'old_name' };
    const { versionToken } = await clients.s3tables.send(new GetTableCommand(args));
    // Act
    const stale = clients.s3tables.send(
      new RenameTableCommand({ ...args, newName: 'new_name', versionToken: 'nope' }),
    );
    const taken = clients.s3tables.send(new RenameTableCommand({ ...args, newName: 'taken' }));
    await expect(stale).rejects.toBeInstanceOf(ConflictException);
    await expect(taken).rejects.toBeInstanceOf(ConflictException);
    await clients.s3tables.send(new RenameTableCommand({ ...args, newName: 'new_name', versionToken }));
    // Assess
    const renamed = await clients.s3tables.send(new GetTableCommand({ tableArn }));
    expect(renamed.name).toBe('new_name');
    await expect(clients.s3tables.send(new GetTableCommand(args))).rejects.toBeInstanceOf(NotFoundException);
    expect(
      (await clients.s3tables.send(new ListTagsForResourceCommand({ resourceArn: tableArn }))).tags,
    ).toEqual({ keep: 'me' });
    expect(
      (await clients.s3tables.send(new GetTablePolicyCommand({ ...args, name: 'new_name' }))).resourcePolicy,
    ).toContain('2012-10-17');
  });
});
