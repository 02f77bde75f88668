// Delivery stream definitions: CreateDeliveryStream input (Direct PUT → Iceberg tables in an S3 table bucket)
// validated and stored as Firehose would describe it back.
import { bucketFromCatalogArn, bucketFromS3Arn } from '../arn';
import { AwsServiceError } from '../errors';
import { InputReader } from '../input';

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
  s3BackupMode: string;
  retryDurationInSeconds: number;
  /** What the caller sent, echoed in DescribeDeliveryStream. */
  icebergConfiguration: Record<string, unknown>;
}

export function invalidArgument(message: string): AwsServiceError {
  return new AwsServiceError('InvalidArgumentException', 400, message);
}

export function parseIcebergStream(
  name: string,
  arn: string,
  config: Record<string, unknown>,
): Omit<StreamDefinition, 'createdAt'> {
  const reader = new InputReader(config, invalidArgument);
  const roleArn = reader.requiredString('RoleARN');
  const catalog = reader.child('CatalogConfiguration');
  const catalogArn = catalog?.requiredString('CatalogARN');
  const tableBucket = catalogArn ? bucketFromCatalogArn(catalogArn) : undefined;
  if (!catalogArn || !tableBucket) {
    throw invalidArgument(
      `CatalogConfiguration.CatalogARN ${JSON.stringify(catalogArn)} is not an S3 Tables catalog ARN: ` +
        'use arn:aws:glue:<region>:<account>:catalog/s3tablescatalog/<table bucket name>.',
    );
  }
  const tables = (reader.optionalArray('DestinationTableConfigurationList') ?? []) as Record<
    string,
    unknown
  >[];
  if (tables.length !== 1) {
    throw invalidArgument(
      `DestinationTableConfigurationList has ${tables.length} entries: the local endpoint delivers a stream to exactly one ` +
        'table, so give one {DestinationDatabaseName, DestinationTableName}.',
    );
  }
  const tableReader = new InputReader(tables[0] ?? {}, invalidArgument);
  const database = tableReader.requiredString('DestinationDatabaseName');
  const table = tableReader.requiredString('DestinationTableName');
  const hints = reader.child('BufferingHints');
  const sizeInMBs = hints?.optionalInteger('SizeInMBs', 1, 128);
  const intervalInSeconds = hints?.optionalInteger('IntervalInSeconds', 0, 900);
  if ((sizeInMBs === undefined) !== (intervalInSeconds === undefined)) {
    throw invalidArgument(
      'BufferingHints: if you specify SizeInMBs or IntervalInSeconds you must also specify the other.',
    );
  }
  const s3 = reader.child('S3Configuration');
  if (!s3)
    throw invalidArgument(
      'S3Configuration is required: the bucket Firehose writes failed records to ({RoleARN, BucketARN, ErrorOutputPrefix}).',
    );
  const errorBucketArn = s3.requiredString('BucketARN');
  const errorBucket = bucketFromS3Arn(errorBucketArn);
  if (!errorBucket)
    throw invalidArgument(
      `S3Configuration.BucketARN ${JSON.stringify(errorBucketArn)} is not an S3 bucket ARN (arn:aws:s3:::<bucket>).`,
    );
  const backupMode = reader.optionalString('S3BackupMode') ?? 'FailedDataOnly';
  if (backupMode !== 'FailedDataOnly' && backupMode !== 'AllData')
    throw invalidArgument(`S3BackupMode must be FailedDataOnly or AllData, got ${backupMode}.`);
  return {
    name,
    arn,
    roleArn,
    catalogArn,
    tableBucket,
    database,
    table,
    uniqueKeys: (tables[0]?.UniqueKeys as string[] | undefined) ?? undefined,
    tableErrorOutputPrefix: tableReader.optionalString('S3ErrorOutputPrefix'),
    // Firehose defaults: 5 MiB / 300 s.
    sizeInMBs: sizeInMBs ?? 5,
    intervalInSeconds: intervalInSeconds ?? 300,
    errorBucketArn,
    errorBucket,
    errorOutputPrefix: s3.optionalString('ErrorOutputPrefix'),
    s3RoleArn: s3.requiredString('RoleARN'),
    s3BackupMode: backupMode,
    retryDurationInSeconds:
      reader.child('RetryOptions')?.optionalInteger('DurationInSeconds', 0, 7200) ?? 300,
    icebergConfiguration: config,
  };
}

export function describeStream(stream: StreamDefinition): Record<string, unknown> {
  const bufferingHints = { SizeInMBs: stream.sizeInMBs, IntervalInSeconds: stream.intervalInSeconds };
  const iceberg = stream.icebergConfiguration;
  return {
    DeliveryStreamName: stream.name,
    DeliveryStreamARN: stream.arn,
    DeliveryStreamStatus: 'ACTIVE',
    DeliveryStreamType: 'DirectPut',
    VersionId: '1',
    CreateTimestamp: stream.createdAt / 1000,
    DeliveryStreamEncryptionConfiguration: { Status: 'DISABLED' },
    Source: { DirectPutSourceDescription: { ThroughputHintInMBs: 5 } },
    HasMoreDestinations: false,
    Destinations: [
      {
        DestinationId: 'destinationId-000000000001',
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
            ...(stream.errorOutputPrefix !== undefined
              ? { ErrorOutputPrefix: stream.errorOutputPrefix }
              : {}),
            BufferingHints: bufferingHints,
            CompressionFormat: 'UNCOMPRESSED',
            EncryptionConfiguration: { NoEncryptionConfig: 'NoEncryption' },
          },
        },
      },
    ],
  };
}
