// Provisions the lab on the local endpoint from the units' resolved values, through the same SDK calls the
// stacks' resources make on AWS: table bucket, namespaces, the flow table, Firehose stream and its error bucket,
// the failed-rows alarm, the Athena workgroups (the lab's and the analysts'). Idempotent: what exists is left as it is.
import {
  CreateWorkGroupCommand,
  GetWorkGroupCommand,
  InvalidRequestException,
  type AthenaClient,
} from '@aws-sdk/client-athena';
import {
  DescribeAlarmsCommand,
  PutMetricAlarmCommand,
  type CloudWatchClient,
} from '@aws-sdk/client-cloudwatch';
import { CreateBucketCommand, HeadBucketCommand, NotFound, type S3Client } from '@aws-sdk/client-s3';
import {
  CreateDeliveryStreamCommand,
  DescribeDeliveryStreamCommand,
  ResourceNotFoundException,
  type FirehoseClient,
} from '@aws-sdk/client-firehose';
import {
  CreateNamespaceCommand,
  CreateTableBucketCommand,
  CreateTableCommand,
  GetTableCommand,
  ListNamespacesCommand,
  ListTableBucketsCommand,
  NotFoundException,
  PutTableMaintenanceConfigurationCommand,
  type S3TablesClient,
} from '@aws-sdk/client-s3tables';
import type { LabResources } from './resources';

export interface LabClients {
  s3tables: S3TablesClient;
  firehose: FirehoseClient;
  athena: AthenaClient;
  cloudwatch: CloudWatchClient;
  s3: S3Client;
}

export interface ProvisionReport {
  tableBucketArn: string;
  created: string[];
}

export async function provisionLab(clients: LabClients, r: LabResources): Promise<ProvisionReport> {
  const created: string[] = [];
  const buckets = await clients.s3tables.send(new ListTableBucketsCommand({ prefix: r.tableBucketName }));
  let tableBucketArn = buckets.tableBuckets?.find((b) => b.name === r.tableBucketName)?.arn;
  if (!tableBucketArn) {
    tableBucketArn = (await clients.s3tables.send(new CreateTableBucketCommand({ name: r.tableBucketName })))
      .arn as string;
    created.push(`table bucket ${r.tableBucketName}`);
  }

  const existing = await clients.s3tables.send(new ListNamespacesCommand({ tableBucketARN: tableBucketArn }));
  const have = new Set((existing.namespaces ?? []).flatMap((n) => n.namespace ?? []));
  for (const namespace of [r.namespace, ...r.sqlNamespaces]) {
    if (have.has(namespace)) continue;
    await clients.s3tables.send(
      new CreateNamespaceCommand({ tableBucketARN: tableBucketArn, namespace: [namespace] }),
    );
    created.push(`namespace ${namespace}`);
  }

  const tableFound = await exists(
    () =>
      clients.s3tables.send(
        new GetTableCommand({ tableBucketARN: tableBucketArn, namespace: r.namespace, name: r.table }),
      ),
    NotFoundException,
  );
  if (!tableFound) {
    await clients.s3tables.send(
      new CreateTableCommand({
        tableBucketARN: tableBucketArn,
        namespace: r.namespace,
        name: r.table,
        format: 'ICEBERG',
        metadata: {
          iceberg: {
            schema: {
              fields: r.columns.map((c) => ({ name: c.name, type: c.type, required: c.required ?? false })),
            },
          },
        },
      }),
    );
    await clients.s3tables.send(
      new PutTableMaintenanceConfigurationCommand({
        tableBucketARN: tableBucketArn,
        namespace: r.namespace,
        name: r.table,
        type: 'icebergCompaction',
        value: {
          status: 'enabled',
          settings: { icebergCompaction: { targetFileSizeMB: r.maintenance.compactionTargetFileSizeMb } },
        },
      }),
    );
    await clients.s3tables.send(
      new PutTableMaintenanceConfigurationCommand({
        tableBucketARN: tableBucketArn,
        namespace: r.namespace,
        name: r.table,
        type: 'icebergSnapshotManagement',
        value: {
          status: 'enabled',
          settings: {
            icebergSnapshotManagement: {
              minSnapshotsToKeep: r.maintenance.minSnapshotsToKeep,
              maxSnapshotAgeHours: r.maintenance.maxSnapshotAgeHours,
            },
          },
        },
      }),
    );
    created.push(`table ${r.namespace}.${r.table}`);
  }

  const streamFound = await exists(
    () => clients.firehose.send(new DescribeDeliveryStreamCommand({ DeliveryStreamName: r.streamName })),
    ResourceNotFoundException,
  );
  if (!streamFound) {
    // The firehose stack's role (a stream needs one; without the stack's, one named after the stream).
    const roleArn = r.roles.firehose ?? `arn:aws:iam::${r.accountId}:role/${r.streamName}-role`;
    await clients.firehose.send(
      new CreateDeliveryStreamCommand({
        DeliveryStreamName: r.streamName,
        DeliveryStreamType: 'DirectPut',
        IcebergDestinationConfiguration: {
          RoleARN: roleArn,
          CatalogConfiguration: {
            CatalogARN: `arn:aws:glue:${r.region}:${r.accountId}:catalog/s3tablescatalog/${r.tableBucketName}`,
          },
          DestinationTableConfigurationList: [
            { DestinationDatabaseName: r.namespace, DestinationTableName: r.table },
          ],
          BufferingHints: { SizeInMBs: r.buffering.sizeMb, IntervalInSeconds: r.buffering.intervalSeconds },
          S3Configuration: {
            RoleARN: roleArn,
            BucketARN: `arn:aws:s3:::${r.errorBucketName}`,
            ErrorOutputPrefix: r.errorPrefix,
          },
        },
      }),
    );
    created.push(`stream ${r.streamName}`);
  }

  // The error bucket (the firehose stack's), so the error output can be listed before the first failure.
  const errorBucketFound = await exists(
    () => clients.s3.send(new HeadBucketCommand({ Bucket: r.errorBucketName })),
    NotFound,
  );
  if (!errorBucketFound) {
    await clients.s3.send(new CreateBucketCommand({ Bucket: r.errorBucketName }));
    created.push(`error bucket ${r.errorBucketName}`);
  }

  if (r.failedRowsAlarm) {
    const alarms = await clients.cloudwatch.send(
      new DescribeAlarmsCommand({ AlarmNames: [r.failedRowsAlarm.AlarmName] }),
    );
    if ((alarms.MetricAlarms ?? []).length === 0) {
      const a = r.failedRowsAlarm;
      await clients.cloudwatch.send(
        new PutMetricAlarmCommand({
          ...a,
          Dimensions: [...a.Dimensions],
          AlarmActions: [...a.AlarmActions],
          OKActions: [...a.OKActions],
        }),
      );
      created.push(`alarm ${a.AlarmName}`);
    }
  }

  // The lab's shared workgroup and the analysts' own (analyst unit): both enforce their settings, keep results in
  // Athena's managed storage and cap each query's scan, as the stacks configure them.
  const workgroups = [
    { name: r.workgroup, cutoff: r.bytesScannedCutoff },
    ...(r.analystWorkgroup
      ? [{ name: r.analystWorkgroup.name, cutoff: r.analystWorkgroup.bytesScannedCutoff }]
      : []),
  ];
  for (const wg of workgroups) {
    const workgroupFound = await exists(
      () => clients.athena.send(new GetWorkGroupCommand({ WorkGroup: wg.name })),
      // Athena answers an unknown workgroup with InvalidRequestException.
      InvalidRequestException,
    );
    if (workgroupFound) continue;
    await clients.athena.send(
      new CreateWorkGroupCommand({
        Name: wg.name,
        Configuration: {
          BytesScannedCutoffPerQuery: wg.cutoff,
          EnforceWorkGroupConfiguration: true,
          EngineVersion: { SelectedEngineVersion: 'Athena engine version 3' },
          ManagedQueryResultsConfiguration: { Enabled: true },
        },
      }),
    );
    created.push(`workgroup ${wg.name}`);
  }
  return { tableBucketArn, created };
}

/** Whether a Get/Describe call finds the resource; the service's not-found exception (by class) means no. */
async function exists(
  probe: () => Promise<unknown>,
  notFound: abstract new (...args: never[]) => Error,
): Promise<boolean> {
  try {
    await probe();
    return true;
  } catch (error) {
    if (error instanceof notFound) return false;
    throw error;
  }
}
