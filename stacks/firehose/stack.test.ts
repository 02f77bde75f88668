import { describe, expect, test } from '@jest/globals';
import { Testing } from 'cdktf';
import type { TfCommand } from '../lib/contract';
import {
  fixtureUnit,
  onlyResource,
  resourcesOf,
  tableBucketDependency,
  type StackJson,
} from '../test/fixtures';
import { spec, type FirehoseInputs } from './inputs';
import { FirehoseStack } from './stack';

const READS = [
  'table_bucket_arn',
  'table_bucket_name',
  'namespace',
  'table_name',
  'table_arn',
  'alerts_topic_arn',
];

function synth(command?: TfCommand, inputs: Record<string, unknown> = {}): StackJson {
  const unit = fixtureUnit<FirehoseInputs>(spec, {
    name: 'firehose',
    inputs,
    dependencies: [tableBucketDependency(READS)],
  });
  return JSON.parse(Testing.synth(new FirehoseStack(Testing.app(), unit, { command }))) as StackJson;
}

describe('firehose stack', () => {
  const json = synth();

  test('reads the table bucket through terraform_remote_state of the table-bucket backend', () => {
    const rs = json.data!.terraform_remote_state!.table_bucket as { backend: string };
    expect(rs.backend).toBe('local');
    expect(json.locals!.table_bucket_state_path).toContain('table-bucket/terraform.tfstate');
  });

  test('delivery stream: iceberg into s3tablescatalog/<bucket>, network.vpc_flow_logs, 1 MB / 60 s, failures to the error bucket', () => {
    const stream = onlyResource(json, 'aws_kinesis_firehose_delivery_stream');
    expect(stream.name).toBe('loglake-01-vpc-flow-logs');
    expect(stream.destination).toBe('iceberg');
    const ice = stream.iceberg_configuration as Record<string, unknown>;
    expect(ice.catalog_arn).toBe(
      'arn:${data.aws_partition.partition.partition}:glue:us-east-1:${data.aws_caller_identity.account.account_id}:catalog/s3tablescatalog/${local.table_bucket_table_bucket_name}',
    );
    expect(ice.buffering_size).toBe(1);
    expect(ice.buffering_interval).toBe(60);
    expect(ice.s3_backup_mode).toBe('FailedDataOnly');
    expect(ice.destination_table_configuration).toEqual([
      {
        database_name: '${local.table_bucket_namespace}',
        table_name: '${local.table_bucket_table_name}',
        s3_error_output_prefix: 'errors/',
      },
    ]);
    expect(ice.s3_configuration).toMatchObject({
      bucket_arn: '${aws_s3_bucket.error-bucket_4BD0632E.arn}',
      error_output_prefix: 'errors/',
    });
    expect(stream.depends_on).toEqual(expect.arrayContaining(['terraform_data.table_bucket_upstream_guard']));
  });

  test('error bucket: public access blocked, SSE, TLS-only, lifecycle expiry, named with the lab prefix', () => {
    const bucket = onlyResource(json, 'aws_s3_bucket');
    expect(bucket.bucket).toBe('loglake-01-firehose-errors-${data.aws_caller_identity.account.account_id}');
    expect(onlyResource(json, 'aws_s3_bucket_public_access_block')).toMatchObject({
      block_public_acls: true,
      block_public_policy: true,
      ignore_public_acls: true,
      restrict_public_buckets: true,
    });
    expect(
      JSON.stringify(onlyResource(json, 'aws_s3_bucket_server_side_encryption_configuration')),
    ).toContain('AES256');
    const policy = JSON.parse(String(onlyResource(json, 'aws_s3_bucket_policy').policy)) as {
      Statement: Array<{ Effect: string; Condition: unknown }>;
    };
    expect(policy.Statement[0]).toMatchObject({
      Effect: 'Deny',
      Condition: { Bool: { 'aws:SecureTransport': 'false' } },
    });
    expect(JSON.stringify(onlyResource(json, 'aws_s3_bucket_lifecycle_configuration'))).toContain('"days":7');
  });

  test('role is least-privilege: this table, this error bucket, this log group; no write on *', () => {
    const policy = JSON.parse(String(onlyResource(json, 'aws_iam_role_policy').policy)) as {
      Statement: Array<{ Sid: string; Action: string[]; Resource: string | string[] }>;
    };
    const bySid = Object.fromEntries(policy.Statement.map((s) => [s.Sid, s]));
    expect(bySid.GlueTableOfThisBucket!.Resource).toContain(
      'arn:${data.aws_partition.partition.partition}:glue:us-east-1:${data.aws_caller_identity.account.account_id}:table/s3tablescatalog/${local.table_bucket_table_bucket_name}/${local.table_bucket_namespace}/${local.table_bucket_table_name}',
    );
    expect(bySid.ErrorBucket!.Resource).toEqual([
      '${aws_s3_bucket.error-bucket_4BD0632E.arn}',
      '${aws_s3_bucket.error-bucket_4BD0632E.arn}/*',
    ]);
    expect(bySid.DeliveryLogs!.Resource).toEqual(['${aws_cloudwatch_log_group.log-group.arn}:log-stream:*']);
    for (const s of policy.Statement)
      if (s.Resource === '*') expect(s.Action).toEqual(['lakeformation:GetDataAccess']);
    const trust = JSON.parse(String(onlyResource(json, 'aws_iam_role').assume_role_policy)) as {
      Statement: Array<{ Principal: unknown }>;
    };
    expect(trust.Statement[0]!.Principal).toEqual({ Service: 'firehose.amazonaws.com' });
  });

  test('Lake Formation grants for the role on the one table', () => {
    const grants = Object.values(resourcesOf(json, 'aws_lakeformation_permissions'));
    const table = grants.find((g) => g.table) as { table: Record<string, string>; principal: string };
    expect(table.principal).toBe('${aws_iam_role.role.arn}');
    expect(table.table).toEqual({
      catalog_id:
        '${data.aws_caller_identity.account.account_id}:s3tablescatalog/${local.table_bucket_table_bucket_name}',
      database_name: '${local.table_bucket_namespace}',
      name: '${local.table_bucket_table_name}',
    });
  });

  test("an alarm on DeliveryToIceberg.FailedRowCount mails the lab's alerts topic on ALARM and on OK", () => {
    const alarm = onlyResource(json, 'aws_cloudwatch_metric_alarm');
    expect(alarm).toMatchObject({
      alarm_name: 'loglake-01-firehose-failed-rows',
      namespace: 'AWS/Firehose',
      metric_name: 'DeliveryToIceberg.FailedRowCount',
      dimensions: { DeliveryStreamName: '${aws_kinesis_firehose_delivery_stream.stream.name}' },
      statistic: 'Sum',
      period: 60,
      evaluation_periods: 1,
      datapoints_to_alarm: 1,
      threshold: 0,
      comparison_operator: 'GreaterThanThreshold',
      treat_missing_data: 'notBreaching',
      alarm_actions: ['${local.table_bucket_alerts_topic_arn}'],
      ok_actions: ['${local.table_bucket_alerts_topic_arn}'],
    });
    // It uses the topic from table-bucket's state: it waits for the dependency guard.
    expect(alarm.depends_on).toEqual(expect.arrayContaining(['terraform_data.table_bucket_upstream_guard']));
  });

  test("the alarm's period follows Firehose's one-minute metrics and CloudWatch's one-day evaluation limit", () => {
    expect(
      onlyResource(
        synth(undefined, { failedRowsAlarm: { periodSeconds: 300, evaluationPeriods: 3 } }),
        'aws_cloudwatch_metric_alarm',
      ),
    ).toMatchObject({ period: 300, evaluation_periods: 3, datapoints_to_alarm: 3 });
    expect(() => synth(undefined, { failedRowsAlarm: { periodSeconds: 30 } })).toThrow(
      'inputs.failedRowsAlarm.periodSeconds is 30',
    );
    expect(() => synth(undefined, { failedRowsAlarm: { periodSeconds: 90 } })).toThrow(
      'use a multiple of 60 (Firehose publishes per minute)',
    );
    expect(() =>
      synth(undefined, { failedRowsAlarm: { periodSeconds: 60, evaluationPeriods: 1441 } }),
    ).toThrow("1441 × 60 s exceeds CloudWatch's 86400 s");
  });

  test('outputs: stream name and ARN, error bucket, the alarm', () => {
    expect(Object.keys(json.output ?? {})).toEqual(
      expect.arrayContaining(['stream_name', 'stream_arn', 'error_bucket_name', 'failed_rows_alarm_name']),
    );
  });

  test('mock outputs only for a plan; apply synthesizes strictly', () => {
    expect(synth('plan').locals!.table_bucket_table_bucket_name).toContain('"mock-bucket"');
    expect(synth('apply').locals!.table_bucket_table_bucket_name).toBe(
      '${try(data.terraform_remote_state.table_bucket[0].outputs.table_bucket_name, "")}',
    );
  });

  test('bad buffering is refused at the edge with unit, field and fix', () => {
    expect(() => synth(undefined, { buffering: { sizeMb: 500 } })).toThrow(
      'unit firehose: inputs.buffering.sizeMb is 500, but must be an integer between 1 and 128',
    );
  });
});
