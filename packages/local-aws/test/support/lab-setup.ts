// TEST SUPPORT: the lab's resources as the tests and the bench create them through the SDK clients — a table
// bucket with network.vpc_flow_logs, a Firehose Iceberg stream into it — plus synthetic flow records.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  CreateNamespaceCommand,
  CreateTableBucketCommand,
  CreateTableCommand,
  type S3TablesClient,
  type SchemaField,
} from '@aws-sdk/client-s3tables';

export interface IcebergStreamOptions {
  name: string;
  /** Table bucket behind the s3tablescatalog/<bucket> catalog; the destination is network.vpc_flow_logs. */
  bucket: string;
  /** Name of the IAM role in the example account (both role ARNs use it). */
  role: string;
  errorBucket: string;
  errorPrefix?: string;
  sizeInMBs?: number;
  intervalInSeconds?: number;
}

/** CreateDeliveryStream input for a DirectPut stream into network.vpc_flow_logs. */
export function icebergStreamInput(options: IcebergStreamOptions) {
  const roleArn = `arn:aws:iam::123456789012:role/${options.role}`;
  return {
    DeliveryStreamName: options.name,
    DeliveryStreamType: 'DirectPut' as const,
    IcebergDestinationConfiguration: {
      RoleARN: roleArn,
      CatalogConfiguration: {
        CatalogARN: `arn:aws:glue:us-east-1:123456789012:catalog/s3tablescatalog/${options.bucket}`,
      },
      DestinationTableConfigurationList: [
        { DestinationDatabaseName: 'network', DestinationTableName: 'vpc_flow_logs' },
      ],
      BufferingHints: {
        SizeInMBs: options.sizeInMBs ?? 1,
        IntervalInSeconds: options.intervalInSeconds ?? 60,
      },
      S3Configuration: {
        RoleARN: roleArn,
        BucketARN: `arn:aws:s3:::${options.errorBucket}`,
        ...(options.errorPrefix === undefined ? {} : { ErrorOutputPrefix: options.errorPrefix }),
      },
    },
  };
}

/** Creates the table bucket, its `network` namespace and network.vpc_flow_logs; returns the bucket ARN. */
export async function createFlowTable(
  s3tables: S3TablesClient,
  bucket: string,
  fields: SchemaField[],
): Promise<string> {
  const { arn } = await s3tables.send(new CreateTableBucketCommand({ name: bucket }));
  await s3tables.send(new CreateNamespaceCommand({ tableBucketARN: arn, namespace: ['network'] }));
  await s3tables.send(
    new CreateTableCommand({
      tableBucketARN: arn,
      namespace: 'network',
      name: 'vpc_flow_logs',
      format: 'ICEBERG',
      metadata: { iceberg: { schema: { fields } } },
    }),
  );
  return arn as string;
}

/** Every file under `dir`, recursively (none when it does not exist). */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, String(f)))
    .filter((f) => statSync(f).isFile());
}

/**
 * The i-th synthetic flow record as Firehose receives it (one JSON object, ISO timestamps), without `version` and
 * `log_status` (those columns stay null). Deterministic, so a run can be counted exactly.
 */
export function syntheticFlowRecord(i: number): Buffer {
  const start = Date.UTC(2026, 10, 29, 10, 0, 0) + i * 100;
  return Buffer.from(
    JSON.stringify({
      account_id: '123456789012',
      interface_id: `eni-${(i % 7).toString(16).padStart(17, '0')}`,
      srcaddr: `10.0.${(i >> 8) & 255}.${i & 255}`,
      dstaddr: `172.31.${i % 13}.${i % 251}`,
      srcport: 1024 + (i % 50000),
      dstport: [443, 80, 22, 5432][i % 4],
      protocol: 6,
      packets: 1 + (i % 17),
      bytes: 40 * (1 + (i % 17)) + (i % 1500),
      start_time: new Date(start).toISOString(),
      end_time: new Date(start + 60_000).toISOString(),
      action: i % 10 === 0 ? 'REJECT' : 'ACCEPT',
    }),
  );
}
