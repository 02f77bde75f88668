// The firehose unit: error bucket (private, encrypted, TLS-only, expiring), log group, a least-privilege role with
// Lake Formation grants on the one table, the delivery stream writing Iceberg commits into network.vpc_flow_logs,
// and an alarm on the stream's failed rows that mails the lab's alerts topic. The table bucket's values (the topic
// among them) come from its remote state through the `table_bucket` dependency.
import type { Construct } from 'constructs';
import type * as cloudwatchLogGroup from '@cdktf/provider-aws/lib/cloudwatch-log-group';
import type * as cloudwatchLogStream from '@cdktf/provider-aws/lib/cloudwatch-log-stream';
import type * as cloudwatchMetricAlarm from '@cdktf/provider-aws/lib/cloudwatch-metric-alarm';
import type * as iamRole from '@cdktf/provider-aws/lib/iam-role';
import type * as iamRolePolicy from '@cdktf/provider-aws/lib/iam-role-policy';
import type * as kinesisFirehoseDeliveryStream from '@cdktf/provider-aws/lib/kinesis-firehose-delivery-stream';
import type { ResolvedUnit } from '../lib/contract';
import { addDependsOn } from '../lib/destroy-hooks';
import { assumeRolePolicy, policyJson } from '../lib/iam';
import { LabStack, type LabStackOptions } from '../lib/lab-stack';
import { namespaceGrants } from '../lib/namespace-grants';
import { PrivateBucket } from '../lib/private-bucket';
import { FIREHOSE_OUTPUTS, failedRowsAlarmDefinition, type FirehoseInputs } from './inputs';
import { awsLib } from '../lib/provider-aws';

const { CloudwatchLogGroup } = awsLib<typeof cloudwatchLogGroup>('cloudwatch-log-group');
const { CloudwatchLogStream } = awsLib<typeof cloudwatchLogStream>('cloudwatch-log-stream');
const { CloudwatchMetricAlarm } = awsLib<typeof cloudwatchMetricAlarm>('cloudwatch-metric-alarm');
const { IamRole } = awsLib<typeof iamRole>('iam-role');
const { IamRolePolicy } = awsLib<typeof iamRolePolicy>('iam-role-policy');
const { KinesisFirehoseDeliveryStream } = awsLib<typeof kinesisFirehoseDeliveryStream>(
  'kinesis-firehose-delivery-stream',
);

export class FirehoseStack extends LabStack<FirehoseInputs> {
  static readonly outputs = FIREHOSE_OUTPUTS;
  readonly stream: kinesisFirehoseDeliveryStream.KinesisFirehoseDeliveryStream;
  readonly failedRowsAlarm: cloudwatchMetricAlarm.CloudwatchMetricAlarm;

  constructor(scope: Construct, unit: ResolvedUnit<FirehoseInputs>, options: LabStackOptions = {}) {
    super(scope, unit, options);
    const i = unit.inputs;
    const tb = this.upstream('table_bucket');
    const bucketName = tb.get('table_bucket_name');
    const namespace = tb.get('namespace');
    const tableName = tb.get('table_name');
    const account = this.callerIdentity.accountId;
    const glue = (resource: string) => this.arn('glue', resource);

    const errors = new PrivateBucket(this, 'error-bucket', {
      bucket: `${i.errorBucket.namePrefix}-${account}`,
      expireAfterDays: i.errorBucket.expireAfterDays,
    });
    const logGroup = new CloudwatchLogGroup(this, 'log-group', {
      name: `/aws/kinesisfirehose/${i.streamName}`,
      retentionInDays: i.logRetentionDays,
    });
    const logStream = new CloudwatchLogStream(this, 'log-stream', {
      name: 'DestinationDelivery',
      logGroupName: logGroup.name,
    });

    // Trust as AWS's Firehose → S3 Tables guide writes it: the service, no condition keys (a positive condition on a
    // key Firehose does not send would deny the assume-role and every delivery would fail).
    const role = new IamRole(this, 'role', {
      name: this.name('firehose'),
      assumeRolePolicy: assumeRolePolicy('firehose.amazonaws.com'),
    });
    const rolePolicy = new IamRolePolicy(this, 'role-policy', {
      name: this.name('firehose'),
      role: role.id,
      policy: policyJson(
        {
          Sid: 'GlueTableOfThisBucket',
          Effect: 'Allow',
          Action: ['glue:GetTable', 'glue:GetDatabase', 'glue:UpdateTable'],
          Resource: [
            glue(`catalog`),
            glue(`catalog/s3tablescatalog`),
            glue(`catalog/s3tablescatalog/${bucketName}`),
            glue(`database/s3tablescatalog/${bucketName}/${namespace}`),
            glue(`table/s3tablescatalog/${bucketName}/${namespace}/${tableName}`),
          ],
        },
        // Lake Formation vends the table's credentials; GetDataAccess has no resource-level scoping (read-only).
        {
          Sid: 'LakeFormationCredentials',
          Effect: 'Allow',
          Action: ['lakeformation:GetDataAccess'],
          Resource: '*',
        },
        {
          Sid: 'ErrorBucket',
          Effect: 'Allow',
          Action: [
            's3:AbortMultipartUpload',
            's3:GetBucketLocation',
            's3:GetObject',
            's3:ListBucket',
            's3:ListBucketMultipartUploads',
            's3:PutObject',
          ],
          Resource: [errors.bucket.arn, `${errors.bucket.arn}/*`],
        },
        {
          Sid: 'DeliveryLogs',
          Effect: 'Allow',
          Action: ['logs:PutLogEvents'],
          Resource: [`${logGroup.arn}:log-stream:*`],
        },
      ),
    });
    const [dbGrant, tableGrant] = namespaceGrants(
      this,
      { database: 'lf-database', tables: 'lf-table' },
      {
        principal: role.arn,
        account,
        tableCatalogId: `${account}:s3tablescatalog/${bucketName}`,
        namespace,
        databasePermissions: ['DESCRIBE'],
        tablePermissions: ['ALL'],
        table: tableName,
      },
    );

    this.stream = new KinesisFirehoseDeliveryStream(this, 'stream', {
      name: i.streamName,
      destination: 'iceberg',
      icebergConfiguration: {
        roleArn: role.arn,
        catalogArn: glue(`catalog/s3tablescatalog/${bucketName}`),
        bufferingSize: i.buffering.sizeMb,
        bufferingInterval: i.buffering.intervalSeconds,
        retryDuration: i.retryDurationSeconds,
        s3BackupMode: 'FailedDataOnly',
        destinationTableConfiguration: [
          { databaseName: namespace, tableName, s3ErrorOutputPrefix: i.errorBucket.errorPrefix },
        ],
        s3Configuration: {
          roleArn: role.arn,
          bucketArn: errors.bucket.arn,
          errorOutputPrefix: i.errorBucket.errorPrefix,
          bufferingSize: 5,
          bufferingInterval: 300,
          compressionFormat: 'GZIP',
        },
        cloudwatchLoggingOptions: {
          enabled: true,
          logGroupName: logGroup.name,
          logStreamName: logStream.name,
        },
      },
      // The role's permissions before the stream: a stream that goes ACTIVE first sends its first deliveries to the
      // error prefix.
      dependsOn: [rolePolicy, dbGrant, tableGrant],
    });

    // Bad records on purpose (Part 2): a row Firehose cannot deliver goes to the error bucket and counts in the
    // stream's DeliveryToIceberg.FailedRowCount; a minute with any of them sets the alarm off, a clean one clears it.
    const alarm = failedRowsAlarmDefinition(i, tb.get('alerts_topic_arn'));
    this.failedRowsAlarm = new CloudwatchMetricAlarm(this, 'alarm-failed-rows', {
      alarmName: alarm.AlarmName,
      alarmDescription: alarm.AlarmDescription,
      namespace: alarm.Namespace,
      metricName: alarm.MetricName,
      // The stream's name as a reference: the alarm is created after the stream it watches.
      dimensions: { DeliveryStreamName: this.stream.name },
      statistic: alarm.Statistic,
      period: alarm.Period,
      evaluationPeriods: alarm.EvaluationPeriods,
      datapointsToAlarm: alarm.DatapointsToAlarm,
      threshold: alarm.Threshold,
      comparisonOperator: alarm.ComparisonOperator,
      treatMissingData: alarm.TreatMissingData,
      alarmActions: [...alarm.AlarmActions],
      okActions: [...alarm.OKActions],
    });

    // Everything that used the table bucket's values waits for the dependency guard (and is skipped if it fails).
    for (const r of [role, rolePolicy, dbGrant, tableGrant, this.stream, this.failedRowsAlarm])
      addDependsOn(r, this.upstreamGuards);

    const outputs: Record<(typeof FIREHOSE_OUTPUTS)[number], string> = {
      stream_name: this.stream.name,
      stream_arn: this.stream.arn,
      error_bucket_name: errors.bucket.bucket,
      role_arn: role.arn,
      log_group_name: logGroup.name,
      failed_rows_alarm_name: this.failedRowsAlarm.alarmName,
    };
    this.addOutputs(outputs);
  }
}

export const create = (scope: Construct, unit: ResolvedUnit, options?: LabStackOptions): LabStack =>
  new FirehoseStack(scope, unit as ResolvedUnit<FirehoseInputs>, options);
