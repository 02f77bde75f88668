// TEST SUPPORT: the resources the generated conformance suite's valid requests name (a table bucket with a
// namespace and tables, a delivery stream, a workgroup with a query, a Glue database and table, an S3 bucket), made
// through the AWS SDK clients, and the member values that point the requests at them.
import { CreateWorkGroupCommand, StartQueryExecutionCommand } from '@aws-sdk/client-athena';
import { CreateDeliveryStreamCommand } from '@aws-sdk/client-firehose';
import {
  CreateDatabaseCommand,
  CreateTableCommand as CreateGlueTableCommand,
  GlueClient,
} from '@aws-sdk/client-glue';
import {
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import {
  CreateNamespaceCommand,
  CreateTableBucketCommand,
  CreateTableCommand,
} from '@aws-sdk/client-s3tables';
import { localClientConfig } from '../../src/client-config';
import type { ServiceFixtures } from '../model/conformance';
import { localClients } from './clients';

const ROLE = 'arn:aws:iam::123456789012:role/conformance';

export async function prepareConformance(url: string): Promise<Record<string, ServiceFixtures>> {
  const clients = localClients(url);
  const glue = new GlueClient(localClientConfig(url, 1));
  const s3 = new S3Client({ ...localClientConfig(url, 1), forcePathStyle: true });
  try {
    const { arn: bucketArn } = await clients.s3tables.send(
      new CreateTableBucketCommand({ name: 'conformance' }),
    );
    const tableBucketARN = bucketArn as string;
    await clients.s3tables.send(new CreateNamespaceCommand({ tableBucketARN, namespace: ['ns'] }));
    const table = async (name: string) =>
      (
        await clients.s3tables.send(
          new CreateTableCommand({
            tableBucketARN,
            namespace: 'ns',
            name,
            format: 'ICEBERG',
            metadata: { iceberg: { schema: { fields: [{ name: 'a', type: 'long' }] } } },
          }),
        )
      ).tableARN as string;
    const tableArn = await table('tbl');
    await table('to_rename');
    const iceberg = {
      RoleARN: ROLE,
      CatalogConfiguration: {
        CatalogARN: 'arn:aws:glue:us-east-1:123456789012:catalog/s3tablescatalog/conformance',
      },
      DestinationTableConfigurationList: [{ DestinationDatabaseName: 'ns', DestinationTableName: 'tbl' }],
      S3Configuration: { RoleARN: ROLE, BucketARN: 'arn:aws:s3:::conformance-errors' },
    };
    await clients.firehose.send(
      new CreateDeliveryStreamCommand({
        DeliveryStreamName: 'conformance-stream',
        DeliveryStreamType: 'DirectPut',
        IcebergDestinationConfiguration: iceberg,
      }),
    );
    await clients.athena.send(
      new CreateWorkGroupCommand({
        Name: 'conformance',
        Configuration: { ResultConfiguration: { OutputLocation: 's3://conformance-results/' } },
      }),
    );
    const { QueryExecutionId } = await clients.athena.send(
      new StartQueryExecutionCommand({ QueryString: 'SELECT 1', WorkGroup: 'conformance' }),
    );
    await glue.send(new CreateDatabaseCommand({ DatabaseInput: { Name: 'conformance_db' } }));
    await glue.send(
      new CreateGlueTableCommand({
        DatabaseName: 'conformance_db',
        TableInput: { Name: 'conformance_table' },
      }),
    );
    await s3.send(new CreateBucketCommand({ Bucket: 'conformance-bucket' }));
    await s3.send(new PutObjectCommand({ Bucket: 'conformance-bucket', Key: 'k', Body: 'hello' }));
    const upload = await s3.send(
      new CreateMultipartUploadCommand({ Bucket: 'conformance-bucket', Key: 'k' }),
    );
    return {
      S3Tables: {
        members: {
          tableBucketARN,
          tableArn,
          resourceArn: tableBucketARN,
          namespace: 'ns',
          'CreateNamespace.namespace': ['ns_new'],
          name: 'tbl',
          'CreateTableBucket.name': 'conformance-new',
          'CreateTable.name': 'tbl_new',
          'PutTablePolicy.resourcePolicy': '{"Version":"2012-10-17","Statement":[]}',
          'PutTableBucketPolicy.resourcePolicy': '{"Version":"2012-10-17","Statement":[]}',
          'RenameTable.name': 'to_rename',
          'RenameTable.newName': 'renamed',
          'UpdateTableMetadataLocation.metadataLocation': 's3://conformance/none.metadata.json',
        },
      },
      Firehose: {
        members: {
          DeliveryStreamName: 'conformance-stream',
          'CreateDeliveryStream.DeliveryStreamName': 'conformance-new',
          'CreateDeliveryStream.IcebergDestinationConfiguration': iceberg,
        },
      },
      Athena: {
        members: {
          WorkGroup: 'conformance',
          QueryExecutionId,
          QueryExecutionIds: [QueryExecutionId],
          QueryString: 'SELECT 1',
          'CreateWorkGroup.Name': 'conformance_new',
        },
      },
      Glue: {
        members: {
          DatabaseName: 'conformance_db',
          TableName: 'conformance_table',
          'GetDatabase.Name': 'conformance_db',
          'DeleteDatabase.Name': 'conformance_db',
          'GetTable.Name': 'conformance_table',
          'DeleteTable.Name': 'conformance_table',
          'CreateDatabase.DatabaseInput': { Name: 'conformance_new' },
          'CreateTable.TableInput': { Name: 'conformance_new_table' },
          'UpdateTable.TableInput': { Name: 'conformance_table' },
        },
      },
      // The model requires few members of these two (EvaluationPeriods and ComparisonOperator stopped being required
      // when alarms with EvaluationCriteria came); a metric alarm needs them and its metric, and GetMetricData a
      // window, which AWS answers with its common errors (MissingParameter, InvalidParameterValue) otherwise.
      CloudWatch: {
        members: {
          'PutMetricAlarm.MetricName': 'IncomingRecords',
          'PutMetricAlarm.Namespace': 'AWS/Firehose',
          'PutMetricAlarm.Statistic': 'Sum',
          'PutMetricAlarm.Period': 60,
          'PutMetricAlarm.Threshold': 1,
          'PutMetricAlarm.EvaluationPeriods': 1,
          'PutMetricAlarm.ComparisonOperator': 'GreaterThanThreshold',
          'GetMetricData.StartTime': 1_700_000_000,
          'GetMetricData.EndTime': 1_700_003_600,
          'GetMetricData.MetricDataQueries': [
            {
              Id: 'm1',
              MetricStat: {
                Metric: { Namespace: 'AWS/Firehose', MetricName: 'IncomingRecords' },
                Period: 60,
                Stat: 'Sum',
              },
            },
          ],
        },
      },
      S3: {
        members: { Bucket: 'conformance-bucket', Key: 'k', UploadId: upload.UploadId, PartNumber: 1 },
        rawBodies: {
          DeleteObjects: '<Delete><Object><Key>gone</Key></Object></Delete>',
          PutObject: 'hello',
          UploadPart: 'part',
          PutBucketPolicy: '{"Version":"2012-10-17","Statement":[]}',
          PutBucketVersioning: '<VersioningConfiguration><Status>Enabled</Status></VersioningConfiguration>',
          PutBucketLifecycleConfiguration:
            '<LifecycleConfiguration><Rule><ID>r</ID><Filter/><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>',
          PutBucketEncryption:
            '<ServerSideEncryptionConfiguration><Rule><ApplyServerSideEncryptionByDefault><SSEAlgorithm>AES256</SSEAlgorithm></ApplyServerSideEncryptionByDefault></Rule></ServerSideEncryptionConfiguration>',
          PutPublicAccessBlock:
            '<PublicAccessBlockConfiguration><BlockPublicAcls>true</BlockPublicAcls></PublicAccessBlockConfiguration>',
          PutBucketOwnershipControls:
            '<OwnershipControls><Rule><ObjectOwnership>BucketOwnerEnforced</ObjectOwnership></Rule></OwnershipControls>',
          PutBucketCors:
            '<CORSConfiguration><CORSRule><AllowedMethod>GET</AllowedMethod><AllowedOrigin>*</AllowedOrigin></CORSRule></CORSConfiguration>',
          PutBucketWebsite:
            '<WebsiteConfiguration><IndexDocument><Suffix>index.html</Suffix></IndexDocument></WebsiteConfiguration>',
          PutBucketLogging: '<BucketLoggingStatus/>',
          PutBucketAccelerateConfiguration:
            '<AccelerateConfiguration><Status>Suspended</Status></AccelerateConfiguration>',
          PutBucketRequestPayment:
            '<RequestPaymentConfiguration><Payer>BucketOwner</Payer></RequestPaymentConfiguration>',
          PutBucketTagging: '<Tagging><TagSet><Tag><Key>k</Key><Value>v</Value></Tag></TagSet></Tagging>',
          PutBucketNotificationConfiguration: '<NotificationConfiguration/>',
        },
        anyClientError: true,
      },
    };
  } finally {
    clients.destroy();
    glue.destroy();
    s3.destroy();
  }
}
