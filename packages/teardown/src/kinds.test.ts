import { beforeEach, describe, expect, test } from '@jest/globals';
import { AthenaClient, ListWorkGroupsCommand } from '@aws-sdk/client-athena';
import { CloudWatchClient, DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { CloudWatchLogsClient, DescribeLogGroupsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { FirehoseClient, ListDeliveryStreamsCommand } from '@aws-sdk/client-firehose';
import {
  EntityNotFoundException,
  GetCatalogCommand,
  GetCatalogsCommand,
  GetDatabasesCommand,
  GlueClient,
} from '@aws-sdk/client-glue';
import { IAMClient, ListPoliciesCommand, ListRolesCommand } from '@aws-sdk/client-iam';
import { LambdaClient, ListFunctionsCommand } from '@aws-sdk/client-lambda';
import { ListBucketsCommand, S3Client } from '@aws-sdk/client-s3';
import {
  ListNamespacesCommand,
  ListTableBucketsCommand,
  ListTablesCommand,
  S3TablesClient,
} from '@aws-sdk/client-s3tables';
import { ListSchedulesCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { ListStateMachinesCommand, SFNClient } from '@aws-sdk/client-sfn';
import { ListTopicsCommand, SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { createClients } from './clients';
import { KINDS, type KindLister } from './kinds';
import type { LabScope } from './scope';

const scope: LabScope = {
  labId: '01',
  namePrefix: 'loglake-01',
  region: 'us-east-1',
  glueCatalogManaged: true,
};
const clients = createClients('us-east-1');
const kind = (name: string): KindLister => KINDS.find((k) => k.kind === name)!;
const mocks = {
  s3tables: mockClient(S3TablesClient),
  firehose: mockClient(FirehoseClient),
  glue: mockClient(GlueClient),
  athena: mockClient(AthenaClient),
  iam: mockClient(IAMClient),
  s3: mockClient(S3Client),
  logs: mockClient(CloudWatchLogsClient),
  sns: mockClient(SNSClient),
  lambda: mockClient(LambdaClient),
  sfn: mockClient(SFNClient),
  scheduler: mockClient(SchedulerClient),
  cloudwatch: mockClient(CloudWatchClient),
};

beforeEach(() => Object.values(mocks).forEach((m) => m.reset()));

describe('leftover listers (one per kind the stacks create)', () => {
  test('table buckets, with their namespaces and tables (SQL-created ones included)', async () => {
    const arn = 'arn:aws:s3tables:us-east-1:123456789012:bucket/loglake-01-flow-logs';
    mocks.s3tables
      .on(ListTableBucketsCommand, { prefix: 'loglake-01' })
      .resolves({
        tableBuckets: [
          { name: 'loglake-01-flow-logs', arn, ownerAccountId: '123456789012', createdAt: new Date() },
        ],
      });
    mocks.s3tables
      .on(ListNamespacesCommand, { tableBucketARN: arn })
      .resolves({
        namespaces: [
          { namespace: ['ref'], createdAt: new Date(), createdBy: 'x', ownerAccountId: '123456789012' },
        ],
      });
    mocks.s3tables.on(ListTablesCommand, { tableBucketARN: arn }).resolves({
      tables: [
        {
          namespace: ['ref'],
          name: 'inventory',
          type: 'customer',
          tableARN: `${arn}/table/1`,
          createdAt: new Date(),
          modifiedAt: new Date(),
        },
      ],
    });
    expect(await kind('table bucket').list(clients, scope)).toEqual([
      { kind: 'table bucket', name: 'loglake-01-flow-logs', detail: arn },
      { kind: 'namespace', name: 'loglake-01-flow-logs/ref' },
      { kind: 'table', name: 'loglake-01-flow-logs/ref.inventory' },
    ]);
  });

  test('delivery streams, across pages, only the lab’s', async () => {
    mocks.firehose
      .on(ListDeliveryStreamsCommand)
      .resolvesOnce({
        DeliveryStreamNames: ['a-other', 'loglake-01-vpc-flow-logs'],
        HasMoreDeliveryStreams: true,
      })
      .resolvesOnce({ DeliveryStreamNames: ['loglake-02-x'], HasMoreDeliveryStreams: false });
    expect(await kind('delivery stream').list(clients, scope)).toEqual([
      { kind: 'delivery stream', name: 'loglake-01-vpc-flow-logs' },
    ]);
    expect(
      mocks.firehose.commandCalls(ListDeliveryStreamsCommand)[1]!.args[0].input
        .ExclusiveStartDeliveryStreamName,
    ).toBe('loglake-01-vpc-flow-logs');
  });

  test('glue: s3tablescatalog (when the lab created it), the bucket’s child catalog, lab databases', async () => {
    mocks.glue.on(GetCatalogCommand).resolves({ Catalog: { Name: 's3tablescatalog' } });
    mocks.glue
      .on(GetCatalogsCommand)
      .resolves({ CatalogList: [{ Name: 'loglake-01-flow-logs' }, { Name: 'someone-else' }] });
    mocks.glue
      .on(GetDatabasesCommand)
      .resolves({ DatabaseList: [{ Name: 'loglake_01_snapshots' }, { Name: 'default' }] });
    expect(await kind('glue catalog entry').list(clients, scope)).toEqual([
      { kind: 'glue catalog', name: 's3tablescatalog', detail: 'created by this lab' },
      { kind: 'glue catalog', name: 's3tablescatalog/loglake-01-flow-logs' },
      { kind: 'glue database', name: 'loglake_01_snapshots' },
    ]);
    mocks.glue.on(GetCatalogCommand).rejects(new EntityNotFoundException({ message: 'gone', $metadata: {} }));
    mocks.glue.on(GetDatabasesCommand).resolves({ DatabaseList: [] });
    expect(await kind('glue catalog entry').list(clients, scope)).toEqual([]);
  });

  test('athena workgroups', async () => {
    mocks.athena
      .on(ListWorkGroupsCommand)
      .resolves({ WorkGroups: [{ Name: 'primary' }, { Name: 'loglake-01', State: 'ENABLED' }] });
    expect(await kind('athena workgroup').list(clients, scope)).toEqual([
      { kind: 'athena workgroup', name: 'loglake-01', detail: 'ENABLED' },
    ]);
  });

  test('iam roles and policies, across pages', async () => {
    const role = (n: string) => ({
      RoleName: n,
      Path: '/',
      RoleId: 'x',
      Arn: `arn:aws:iam::123456789012:role/${n}`,
      CreateDate: new Date(),
    });
    mocks.iam
      .on(ListRolesCommand)
      .resolvesOnce({ Roles: [role('admin')], IsTruncated: true, Marker: 'm1' })
      .resolvesOnce({ Roles: [role('loglake-01-firehose')], IsTruncated: false });
    mocks.iam
      .on(ListPoliciesCommand)
      .resolves({ Policies: [{ PolicyName: 'loglake-01-extra' }], IsTruncated: false });
    expect(await kind('iam role/policy').list(clients, scope)).toEqual([
      { kind: 'iam role', name: 'loglake-01-firehose' },
      { kind: 'iam policy', name: 'loglake-01-extra' },
    ]);
    expect(mocks.iam.commandCalls(ListRolesCommand)[1]!.args[0].input.Marker).toBe('m1');
  });

  test('s3 buckets (error bucket, snapshot bucket)', async () => {
    mocks.s3
      .on(ListBucketsCommand)
      .resolves({ Buckets: [{ Name: 'loglake-01-firehose-errors-123456789012' }] });
    expect(await kind('s3 bucket').list(clients, scope)).toEqual([
      { kind: 's3 bucket', name: 'loglake-01-firehose-errors-123456789012' },
    ]);
    expect(mocks.s3.commandCalls(ListBucketsCommand)[0]!.args[0].input).toMatchObject({
      Prefix: 'loglake-01',
      BucketRegion: 'us-east-1',
    });
  });

  test('log groups', async () => {
    mocks.logs
      .on(DescribeLogGroupsCommand)
      .resolves({ logGroups: [{ logGroupName: '/aws/kinesisfirehose/loglake-01-vpc-flow-logs' }] });
    expect(await kind('log group').list(clients, scope)).toEqual([
      { kind: 'log group', name: '/aws/kinesisfirehose/loglake-01-vpc-flow-logs' },
    ]);
  });

  test('sns topics', async () => {
    mocks.sns
      .on(ListTopicsCommand)
      .resolves({
        Topics: [
          { TopicArn: 'arn:aws:sns:us-east-1:123456789012:loglake-01-alerts' },
          { TopicArn: 'arn:aws:sns:us-east-1:123456789012:other' },
        ],
      });
    expect(await kind('sns topic').list(clients, scope)).toEqual([
      {
        kind: 'sns topic',
        name: 'loglake-01-alerts',
        detail: 'arn:aws:sns:us-east-1:123456789012:loglake-01-alerts',
      },
    ]);
  });

  test('lambda functions', async () => {
    mocks.lambda
      .on(ListFunctionsCommand)
      .resolves({ Functions: [{ FunctionName: 'loglake-01-watermark' }, { FunctionName: 'other' }] });
    expect(await kind('lambda function').list(clients, scope)).toEqual([
      { kind: 'lambda function', name: 'loglake-01-watermark' },
    ]);
  });

  test('state machines', async () => {
    mocks.sfn
      .on(ListStateMachinesCommand)
      .resolves({
        stateMachines: [
          {
            name: 'loglake-01-snapshots',
            stateMachineArn: 'arn',
            type: 'STANDARD',
            creationDate: new Date(),
          },
        ],
      });
    expect(await kind('state machine').list(clients, scope)).toEqual([
      { kind: 'state machine', name: 'loglake-01-snapshots' },
    ]);
  });

  test('schedules', async () => {
    mocks.scheduler
      .on(ListSchedulesCommand)
      .resolves({ Schedules: [{ Name: 'loglake-01-daily', GroupName: 'default' }] });
    expect(await kind('schedule').list(clients, scope)).toEqual([
      { kind: 'schedule', name: 'default/loglake-01-daily' },
    ]);
  });

  test('cloudwatch alarms', async () => {
    mocks.cloudwatch
      .on(DescribeAlarmsCommand)
      .resolves({ MetricAlarms: [{ AlarmName: 'loglake-01-delivery-failures' }] });
    expect(await kind('cloudwatch alarm').list(clients, scope)).toEqual([
      { kind: 'cloudwatch alarm', name: 'loglake-01-delivery-failures' },
    ]);
  });
});
