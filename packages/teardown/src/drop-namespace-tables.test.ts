import { beforeEach, describe, expect, test } from '@jest/globals';
import { DeleteTableCommand, ListTablesCommand, S3TablesClient } from '@aws-sdk/client-s3tables';
import { mockClient } from 'aws-sdk-client-mock';
import { dropNamespaceTables } from './drop-namespace-tables';

const s3tables = mockClient(S3TablesClient);
const arn = 'arn:aws:s3tables:us-east-1:123456789012:bucket/loglake-01-flow-logs';
const table = (name: string) => ({
  name,
  namespace: ['network'],
  type: 'customer' as const,
  tableARN: `${arn}/table/${name}`,
  createdAt: new Date(),
  modifiedAt: new Date(),
});

beforeEach(() => {
  s3tables.reset();
});

describe('dropNamespaceTables (destroy-time step before a namespace delete)', () => {
  test('drops every SQL-created table of the namespace, across pages, keeping the Terraform-managed ones', async () => {
    s3tables
      .on(ListTablesCommand)
      .resolvesOnce({ tables: [table('vpc_flow_logs'), table('experiments')], continuationToken: 't1' })
      .resolvesOnce({ tables: [table('flows_enriched')] });
    s3tables.on(DeleteTableCommand).resolves({});
    const dropped = await dropNamespaceTables(new S3TablesClient({ region: 'us-east-1' }), {
      tableBucketArn: arn,
      namespace: 'network',
      keep: ['vpc_flow_logs'],
    });
    expect(dropped).toEqual(['experiments', 'flows_enriched']);
    expect(s3tables.commandCalls(ListTablesCommand).map((c) => c.args[0].input)).toEqual([
      { tableBucketARN: arn, namespace: 'network', continuationToken: undefined },
      { tableBucketARN: arn, namespace: 'network', continuationToken: 't1' },
    ]);
    expect(s3tables.commandCalls(DeleteTableCommand).map((c) => c.args[0].input)).toEqual([
      { tableBucketARN: arn, namespace: 'network', name: 'experiments' },
      { tableBucketARN: arn, namespace: 'network', name: 'flows_enriched' },
    ]);
  });

  test('an empty namespace needs nothing', async () => {
    s3tables.on(ListTablesCommand).resolves({ tables: [] });
    expect(
      await dropNamespaceTables(new S3TablesClient({ region: 'us-east-1' }), {
        tableBucketArn: arn,
        namespace: 'ref',
      }),
    ).toEqual([]);
    expect(s3tables.commandCalls(DeleteTableCommand)).toHaveLength(0);
  });

  test('a delete failure propagates (the destroy must stop, not leave a namespace Terraform cannot delete)', async () => {
    s3tables.on(ListTablesCommand).resolves({ tables: [table('inventory')] });
    s3tables
      .on(DeleteTableCommand)
      .rejects(Object.assign(new Error('Access Denied'), { name: 'AccessDeniedException' }));
    await expect(
      dropNamespaceTables(new S3TablesClient({ region: 'us-east-1' }), {
        tableBucketArn: arn,
        namespace: 'ref',
      }),
    ).rejects.toThrow('Access Denied');
  });

  test('a malformed bucket ARN is refused with the value', async () => {
    await expect(
      dropNamespaceTables(new S3TablesClient({ region: 'us-east-1' }), {
        tableBucketArn: 'mock-bucket',
        namespace: 'ref',
      }),
    ).rejects.toThrow('TABLE_BUCKET_ARN "mock-bucket" is not a table bucket ARN');
  });
});
