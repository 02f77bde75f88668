// Delivery stream definitions: CreateDeliveryStream input (Direct PUT → Iceberg tables in an S3 table bucket)
// validated and stored as Firehose would describe it back.
import { bucketFromCatalogArn, bucketFromS3Arn } from '../arn';
import type { AwsServiceError } from '../errors';
import type {
  DeliveryStreamDescription,
  IcebergS3BackupMode,
  IcebergDestinationConfiguration,
  S3DestinationConfiguration,
} from '@aws-sdk/client-firehose';
import type { Wire } from '../model/api';
import type { TagMap } from '../tags';
import { wireError } from '../model/wire-errors';

export interface StreamDefinition {
  name: string;
  arn: string;
  createdAt: number;
  roleArn: string;
  catalogArn: string;
  tableBucket: string;
  database: string;
  table: string;
  uniqueKeys?: string[];
  tableErrorOutputPrefix?: string;
  sizeInMBs: number;
  intervalInSeconds: number;
  errorBucketArn: string;
  errorBucket: string;
  errorOutputPrefix?: string;
  s3RoleArn: string;
  s3BackupMode: IcebergS3BackupMode;
  retryDurationInSeconds: number;
  /** What the caller sent (or UpdateDestination made of it), echoed in DescribeDeliveryStream. */
  icebergConfiguration: Wire<IcebergDestinationConfiguration>;
  /** DescribeDeliveryStream's VersionId: 1 at creation, one more per UpdateDestination (absent = 1). */
  versionId?: number;
  /** The stream's tags (CreateDeliveryStream's Tags, TagDeliveryStream, UntagDeliveryStream). */
  tags?: TagMap;
}

/** The one destination of a local stream (DescribeDeliveryStream's DestinationId, UpdateDestination's). */
export const DESTINATION_ID = 'destinationId-000000000001';

export function invalidArgument(message: string): AwsServiceError {
  return wireError('firehose', 'InvalidArgumentException', message);
}

/** A CreateDeliveryStream's Iceberg destination (already checked against Firehose's model) → the stream. */
export function parseIcebergStream(
  name: string,
  arn: string,
  config: Wire<IcebergDestinationConfiguration>,
): Omit<StreamDefinition, 'createdAt'> {
  const catalogArn = config.CatalogConfiguration?.CatalogARN;
  const tableBucket = catalogArn ? bucketFromCatalogArn(catalogArn) : undefined;
  if (!catalogArn || !tableBucket) {
    throw invalidArgument(
      `CatalogConfiguration.CatalogARN ${JSON.stringify(catalogArn)} is not an S3 Tables catalog ARN: ` +
        'use arn:aws:glue:<region>:<account>:catalog/s3tablescatalog/<table bucket name>.',
    );
  }
  const tables = config.DestinationTableConfigurationList ?? [];
  const destination = tables[0];
  if (tables.length !== 1 || !destination) {
    throw invalidArgument(
      `DestinationTableConfigurationList has ${tables.length} entries: the local endpoint delivers a stream to exactly one ` +
        'table, so give one {DestinationDatabaseName, DestinationTableName}.',
    );
  }
  const sizeInMBs = config.BufferingHints?.SizeInMBs;
  const intervalInSeconds = config.BufferingHints?.IntervalInSeconds;
  if ((sizeInMBs === undefined) !== (intervalInSeconds === undefined)) {
    throw invalidArgument(
      'BufferingHints: if you specify SizeInMBs or IntervalInSeconds you must also specify the other.',
    );
  }
  const s3 = config.S3Configuration as Wire<S3DestinationConfiguration>;
  const errorBucketArn = s3.BucketARN as string;
  const errorBucket = bucketFromS3Arn(errorBucketArn);
  if (!errorBucket)
    throw invalidArgument(
      `S3Configuration.BucketARN ${JSON.stringify(errorBucketArn)} is not an S3 bucket ARN (arn:aws:s3:::<bucket>).`,
    );
  return {
    name,
    arn,
    roleArn: config.RoleARN as string,
    catalogArn,
    tableBucket,
    database: destination.DestinationDatabaseName as string,
    table: destination.DestinationTableName as string,
    uniqueKeys: destination.UniqueKeys,
    tableErrorOutputPrefix: destination.S3ErrorOutputPrefix,
    // Firehose defaults: 5 MiB / 300 s.
    sizeInMBs: sizeInMBs ?? 5,
    intervalInSeconds: intervalInSeconds ?? 300,
    errorBucketArn,
    errorBucket,
    errorOutputPrefix: s3.ErrorOutputPrefix,
    s3RoleArn: s3.RoleARN as string,
    s3BackupMode: config.S3BackupMode ?? 'FailedDataOnly',
    retryDurationInSeconds: config.RetryOptions?.DurationInSeconds ?? 300,
    icebergConfiguration: config,
  };
}

/**
 * The stream as DescribeDeliveryStream answers it: the Iceberg destination's settings as they were given (defaults
 * as Firehose's API reference states them where none was), and the error bucket's own (S3DestinationDescription:
 * its buffering hints, 5 MiB / 300 s by default, its compression, UNCOMPRESSED by default, its encryption).
 */
export function describeStream(stream: StreamDefinition): Wire<DeliveryStreamDescription> {
  const bufferingHints = { SizeInMBs: stream.sizeInMBs, IntervalInSeconds: stream.intervalInSeconds };
  const iceberg = stream.icebergConfiguration;
  const s3: Partial<Wire<S3DestinationConfiguration>> = iceberg.S3Configuration ?? {};
  return {
    DeliveryStreamName: stream.name,
    DeliveryStreamARN: stream.arn,
    DeliveryStreamStatus: 'ACTIVE',
    DeliveryStreamType: 'DirectPut',
    VersionId: String(stream.versionId ?? 1),
    CreateTimestamp: stream.createdAt / 1000,
    DeliveryStreamEncryptionConfiguration: { Status: 'DISABLED' },
    Source: { DirectPutSourceDescription: { ThroughputHintInMBs: 5 } },
    HasMoreDestinations: false,
    Destinations: [
      {
        DestinationId: DESTINATION_ID,
        IcebergDestinationDescription: {
          DestinationTableConfigurationList: iceberg.DestinationTableConfigurationList,
          BufferingHints: bufferingHints,
          CloudWatchLoggingOptions: iceberg.CloudWatchLoggingOptions ?? { Enabled: false },
          ProcessingConfiguration: iceberg.ProcessingConfiguration ?? { Enabled: false },
          S3BackupMode: stream.s3BackupMode,
          RetryOptions: { DurationInSeconds: stream.retryDurationInSeconds },
          RoleARN: stream.roleArn,
          AppendOnly: iceberg.AppendOnly ?? false,
          CatalogConfiguration: iceberg.CatalogConfiguration,
          S3DestinationDescription: {
            RoleARN: stream.s3RoleArn,
            BucketARN: stream.errorBucketArn,
            ...(s3.Prefix !== undefined ? { Prefix: s3.Prefix } : {}),
            ...(stream.errorOutputPrefix !== undefined
              ? { ErrorOutputPrefix: stream.errorOutputPrefix }
              : {}),
            BufferingHints: {
              SizeInMBs: s3.BufferingHints?.SizeInMBs ?? 5,
              IntervalInSeconds: s3.BufferingHints?.IntervalInSeconds ?? 300,
            },
            CompressionFormat: s3.CompressionFormat ?? 'UNCOMPRESSED',
            EncryptionConfiguration: s3.EncryptionConfiguration ?? { NoEncryptionConfig: 'NoEncryption' },
            CloudWatchLoggingOptions: s3.CloudWatchLoggingOptions ?? { Enabled: false },
          },
        },
      },
    ],
  };
}
