import { describe, expect, test } from '@jest/globals';
import { Aspects, Testing } from 'cdktf';
import type { TfCommand } from '../lib/contract';
import {
  fixtureUnit,
  onlyResource,
  resourcesOf,
  tableBucketDependency,
  type StackJson,
} from '../test/fixtures';
import { IamRolePolicy } from '@cdktf/provider-aws/lib/iam-role-policy';
import { policyJson } from '../lib/iam';
import { LabPolicy } from '../lib/policy/lab-policy';
import { spec, type SnapshotsInputs } from './inputs';
import { SnapshotsStack } from './stack';

const READS = ['table_bucket_name', 'table_bucket_arn', 'alerts_topic_arn', 'lab_role_arn', 'lab_role_name'];
const DAILY = {
  name: 'vpc_flow_logs_daily',
  source: { namespace: 'network', table: 'vpc_flow_logs', timeColumn: 'start_time' },
  columns: [
    { name: 'srcaddr', type: 'string' },
    { name: 'bytes', type: 'bigint' },
    { name: 'start_time', type: 'timestamp' },
    { name: 'action', type: 'string' },
  ],
  latenessGraceMinutes: 30,
  runsToKeep: 2,
};
const BASE = {
  schedule: { hour: 6, timezone: 'Europe/Paris' },
  snapshots: [DAILY],
};

function unitWith(inputs: Record<string, unknown> = {}) {
  return fixtureUnit<SnapshotsInputs>(spec, {
    name: 'snapshots',
    inputs: { ...BASE, ...inputs },
    dependencies: [tableBucketDependency(READS)],
  });
}

function synth(
  command?: TfCommand,
  inputs: Record<string, unknown> = {},
): { json: StackJson; policy: LabPolicy } {
  const policy = new LabPolicy({ namePrefix: 'loglake-01', command });
  const stack = new SnapshotsStack(Testing.app(), unitWith(inputs), { command });
  Aspects.of(stack).add(policy);
  return { json: JSON.parse(Testing.synth(stack)) as StackJson, policy };
}

type Doc = { Statement: { Sid: string; Action: string[]; Resource: string | string[] }[] };
const statements = (json: StackJson, id: string) =>
  Object.fromEntries(
    (JSON.parse(String(resourcesOf(json, 'aws_iam_role_policy')[id]?.policy)) as Doc).Statement.map((s) => [
      s.Sid,
      s,
    ]),
  );

describe('snapshots stack', () => {
  const { json, policy } = synth();

  test('passes the lab policy (private/encrypted/TLS-only buckets, no wildcard or write-on-* IAM, prefixes, tags)', () => {
    expect(policy.violations).toEqual([]);
    // The same synth path does catch a violation (the aspect really ran over this stack).
    const strict = new LabPolicy({ namePrefix: 'loglake-01' });
    const stack = new SnapshotsStack(Testing.app(), unitWith());
    Aspects.of(stack).add(strict);
    new IamRolePolicy(stack, 'too-broad', {
      name: 'loglake-01-bad',
      role: 'x',
      policy: policyJson({ Effect: 'Allow', Action: ['s3:*'], Resource: '*' }),
    });
    Testing.synth(stack);
    expect(strict.violations.join('\n')).toContain('grants wildcard actions s3:*');
  });

  test('reads the table bucket through terraform_remote_state, behind its guard', () => {
    expect(json.data!.terraform_remote_state!.table_bucket).toBeDefined();
    const fn = resourcesOf(json, 'aws_lambda_function')['snapshot-build'] as Record<string, unknown>;
    expect(fn.depends_on).toEqual(expect.arrayContaining(['terraform_data.table_bucket_upstream_guard']));
    expect((fn.environment as { variables: Record<string, string> }).variables).toMatchObject({
      SOURCE_TABLE_BUCKET: '${local.table_bucket_table_bucket_name}',
      ATHENA_WORKGROUP: '${aws_athena_workgroup.workgroup.name}',
      SNAPSHOT_DATABASE: 'loglake_01_snapshots',
    });
  });

  test("the Lambdas' own workgroup does not enforce its settings (a CTAS with external_location runs), keeps results in the snapshot bucket, caps scans", () => {
    expect(onlyResource(json, 'aws_athena_workgroup')).toMatchObject({
      name: 'loglake-01-snapshots',
      configuration: {
        enforce_workgroup_configuration: false,
        bytes_scanned_cutoff_per_query: 10 * 1024 ** 3,
        engine_version: { selected_engine_version: 'Athena engine version 3' },
        result_configuration: {
          output_location: 's3://${aws_s3_bucket.snapshot-bucket_1167CB4B.bucket}/athena-results/',
        },
      },
    });
    expect(json.output?.snapshot_workgroup?.value).toBe('${aws_athena_workgroup.workgroup.name}');
  });

  test('snapshot bucket: public access blocked, SSE, TLS-only, lifecycle expiry', () => {
    expect(onlyResource(json, 'aws_s3_bucket').bucket).toBe(
      'loglake-01-snapshots-${data.aws_caller_identity.account.account_id}',
    );
    expect(onlyResource(json, 'aws_s3_bucket_public_access_block')).toMatchObject({
      block_public_acls: true,
      restrict_public_buckets: true,
    });
    expect(
      JSON.stringify(onlyResource(json, 'aws_s3_bucket_server_side_encryption_configuration')),
    ).toContain('AES256');
    expect(String(onlyResource(json, 'aws_s3_bucket_policy').policy)).toContain(
      '"aws:SecureTransport":"false"',
    );
    expect(JSON.stringify(onlyResource(json, 'aws_s3_bucket_lifecycle_configuration'))).toContain(
      '"days":30',
    );
  });

  test('one Glue table per snapshot, catalogued by Terraform, ignoring the drift the publish step makes', () => {
    expect(onlyResource(json, 'aws_glue_catalog_database').name).toBe('loglake_01_snapshots');
    const table = onlyResource(json, 'aws_glue_catalog_table');
    expect(table).toMatchObject({ name: 'loglake_01_vpc_flow_logs_daily', table_type: 'EXTERNAL_TABLE' });
    expect(table.lifecycle).toEqual({ ignore_changes: ['storage_descriptor[0].location', 'parameters'] });
    const sd = table.storage_descriptor as { columns: { name: string }[]; location: string };
    expect(sd.columns.map((c) => c.name)).toEqual([
      'srcaddr',
      'bytes',
      'start_time',
      'action',
      'snapshot_watermark',
      'snapshot_built_at',
    ]);
    expect(sd.location).toBe(
      's3://${aws_s3_bucket.snapshot-bucket_1167CB4B.bucket}/loglake_01_vpc_flow_logs_daily/initial/',
    );
  });

  test('two Lambdas on nodejs22.x from esbuild assets, each with its own log group', () => {
    const fns = resourcesOf(json, 'aws_lambda_function');
    expect(Object.keys(fns).sort()).toEqual(['snapshot-build', 'snapshot-resolve-watermark']);
    for (const [id, fn] of Object.entries(fns)) {
      expect(fn).toMatchObject({ runtime: 'nodejs22.x', handler: 'index.handler' });
      expect(fn.source_code_hash).toMatch(/^[0-9A-F]{32}$/);
      // The zip's content hash names its asset folder: Terraform redeploys exactly when the bundled bytes change.
      expect(fn.filename).toBe(`assets/${id}-asset/${String(fn.source_code_hash)}/archive.zip`);
    }
    expect(fns['snapshot-build']!.timeout).toBe(900);
    expect(fns['snapshot-resolve-watermark']!.timeout).toBe(480);
  });

  test.each([30, 200, 420])(
    'queries at %i s: each Lambda fits its queries back to back (build: CTAS then count) with a minute to spare',
    (bound) => {
      const { json: j } = synth(undefined, { queryTimeoutSeconds: bound });
      const fns = resourcesOf(j, 'aws_lambda_function');
      const env = (id: string) =>
        Number(
          (fns[id]!.environment as { variables: Record<string, string> }).variables.QUERY_TIMEOUT_SECONDS,
        );
      for (const [id, queries] of [
        ['snapshot-build', 2],
        ['snapshot-resolve-watermark', 1],
      ] as const) {
        expect(env(id)).toBe(bound);
        expect(Number(fns[id]!.timeout)).toBe(queries * bound + 60);
        expect(Number(fns[id]!.timeout)).toBeLessThanOrEqual(900);
      }
    },
  );

  test('a query bound the build Lambda cannot fit twice is refused with the reason', () => {
    expect(() => synth(undefined, { queryTimeoutSeconds: 421 })).toThrow(
      /queryTimeoutSeconds.*buildSnapshot runs 2 queries back to back/,
    );
  });

  test('IAM: the pre-processor only reads; only the CTAS step writes, and only to the snapshot bucket and tables', () => {
    const resolve = statements(json, 'snapshot-resolve-watermark-policy');
    const build = statements(json, 'snapshot-build-policy');
    const actions = (doc: typeof resolve) => Object.values(doc).flatMap((s) => s.Action);
    // Its only writes: its logs, and its query results under the workgroup's results prefix (Athena writes them
    // with the caller's permissions).
    expect(actions(resolve).filter((a) => /Put|Delete|Create|Update/.test(a))).toEqual([
      's3:PutObject',
      'logs:CreateLogStream',
      'logs:PutLogEvents',
    ]);
    expect(resolve.QueryResults!.Resource).toEqual([
      '${aws_s3_bucket.snapshot-bucket_1167CB4B.arn}/athena-results/*',
    ]);
    expect(resolve.ReadPublishedWatermark!.Resource).toContain(
      'arn:${data.aws_partition.partition.partition}:glue:us-east-1:${data.aws_caller_identity.account.account_id}:table/loglake_01_snapshots/loglake_01_vpc_flow_logs_daily',
    );
    expect(build.SnapshotRuns!.Resource).toEqual([
      '${aws_s3_bucket.snapshot-bucket_1167CB4B.arn}/loglake_01_vpc_flow_logs_daily/*',
    ]);
    expect(build.CatalogueRunsAndPublish!.Resource).toContain(
      'arn:${data.aws_partition.partition.partition}:glue:us-east-1:${data.aws_caller_identity.account.account_id}:table/loglake_01_snapshots/loglake_01_vpc_flow_logs_daily__run_*',
    );
    expect(build.AthenaInTheSnapshotWorkgroup!.Resource).toEqual([
      'arn:${data.aws_partition.partition.partition}:athena:us-east-1:${data.aws_caller_identity.account.account_id}:workgroup/${aws_athena_workgroup.workgroup.name}',
    ]);
    const sfn = statements(json, 'state-machine-policy');
    expect(sfn.PublishFailureAlerts!.Resource).toEqual(['${local.table_bucket_alerts_topic_arn}']);
    expect(statements(json, 'scheduler-policy').StartDailyExecution!.Resource).toEqual([
      '${aws_sfn_state_machine.state-machine.arn}',
    ]);
  });

  test('state machine from the generated ASL: Lambda ARNs wired, SNS failure path', () => {
    const sm = onlyResource(json, 'aws_sfn_state_machine');
    const def = JSON.parse(String(sm.definition)) as { States: Record<string, Record<string, unknown>> };
    expect(def.States.ResolveWatermark!.Resource).toBe(
      '${aws_lambda_function.snapshot-resolve-watermark.arn}',
    );
    expect(def.States.BuildSnapshot!.Resource).toBe('${aws_lambda_function.snapshot-build.arn}');
    expect(def.States.NotifyFailure).toMatchObject({
      Resource: 'arn:${data.aws_partition.partition.partition}:states:::sns:publish',
      Next: 'Failed',
    });
    expect((def.States.NotifyFailure!.Parameters as Record<string, string>).TopicArn).toBe(
      '${local.table_bucket_alerts_topic_arn}',
    );
  });

  test('daily schedule in the unit time zone, one per snapshot, input naming the snapshot', () => {
    const schedule = onlyResource(json, 'aws_scheduler_schedule');
    expect(schedule).toMatchObject({
      schedule_expression: 'cron(0 6 * * ? *)',
      schedule_expression_timezone: 'Europe/Paris',
      flexible_time_window: { mode: 'OFF' },
    });
    expect((schedule.target as { input: string }).input).toBe(
      '{"snapshot":"loglake_01_vpc_flow_logs_daily"}',
    );
  });

  test("alerts go to the lab's topic (table-bucket's); one alert per failed run; staleness not in ALARM before the first run", () => {
    // The lab-wide topic and its subscription belong to the table-bucket unit; this unit creates neither.
    expect(resourcesOf(json, 'aws_sns_topic')).toEqual({});
    expect(resourcesOf(json, 'aws_sns_topic_subscription')).toEqual({});
    const alarms = Object.values(resourcesOf(json, 'aws_cloudwatch_metric_alarm'));
    // ExecutionsFailed would repeat the state machine's own NotifyFailure mail; a timeout skips that catch.
    expect(alarms.map((a) => a.metric_name).sort()).toEqual(['ExecutionsTimedOut', 'WatermarkLagSeconds']);
    const stale = alarms.find((a) => a.metric_name === 'WatermarkLagSeconds')!;
    expect(stale).toMatchObject({
      namespace: 'loglake/snapshots',
      dimensions: { service: 'snapshots', Snapshot: 'loglake_01_vpc_flow_logs_daily' },
      threshold: 48 * 3600,
      period: 3600,
      evaluation_periods: 26,
      datapoints_to_alarm: 1,
      treat_missing_data: 'missing',
      alarm_actions: ['${local.table_bucket_alerts_topic_arn}'],
      insufficient_data_actions: ['${local.table_bucket_alerts_topic_arn}'],
    });
    expect(stale.ok_actions).toBeUndefined();
    // CloudWatch: for periods of an hour or more the evaluation range may be up to 7 days.
    expect((stale.period as number) * (stale.evaluation_periods as number)).toBeLessThanOrEqual(604_800);
  });

  test('Lake Formation grants on the snapshot database: the CTAS step manages its tables, the pre-processor and readers read', () => {
    const grants = resourcesOf(json, 'aws_lakeformation_permissions');
    const db = (id: string) =>
      grants[id] as {
        permissions: string[];
        principal?: string;
        database?: { catalog_id: string; name: string };
      };
    expect(db('snapshot-build-lf-snapshot-db')).toMatchObject({
      permissions: ['DESCRIBE', 'CREATE_TABLE', 'ALTER', 'DROP'],
      database: {
        catalog_id: '${data.aws_caller_identity.account.account_id}',
        name: '${aws_glue_catalog_database.database.name}',
      },
    });
    expect(db('snapshot-build-lf-snapshot-tables').permissions).toEqual(['ALL']);
    expect(db('snapshot-resolve-watermark-lf-snapshot-tables').permissions).toEqual(['SELECT', 'DESCRIBE']);
    expect(db('lf-lab-snapshot-tables').permissions).toEqual(['SELECT', 'DESCRIBE']);
    expect(db('lf-lab-snapshot-tables').principal).toBe('${local.table_bucket_lab_role_arn}');
    expect(JSON.stringify(json)).not.toContain('aws_iam_session_context.deployer');
    const fn = resourcesOf(json, 'aws_lambda_function')['snapshot-build'] as { depends_on: string[] };
    expect(fn.depends_on).toEqual(
      expect.arrayContaining(['aws_lakeformation_permissions.snapshot-build-lf-snapshot-db']),
    );
    const analyst = 'arn:aws:iam::123456789012:role/analyst';
    const withReaders = resourcesOf(
      synth(undefined, { labPrincipalArns: [analyst] }).json,
      'aws_lakeformation_permissions',
    );
    expect(Object.values(withReaders).filter((g) => g.principal === analyst)).toHaveLength(2);
  });

  test('mock outputs only for a plan; apply synthesizes strictly', () => {
    expect(synth('plan').json.locals!.table_bucket_table_bucket_name).toContain('"mock-bucket"');
    expect(synth('apply').json.locals!.table_bucket_table_bucket_name).toBe(
      '${try(data.terraform_remote_state.table_bucket[0].outputs.table_bucket_name, "")}',
    );
  });

  test.each([
    [
      { schedule: { hour: 6, timezone: 'Mars/Olympus' } },
      'inputs.schedule.timezone is "Mars/Olympus", which is not an IANA time zone',
    ],
    [{ schedule: { hour: 25 } }, 'inputs.schedule.hour is 25'],
    [
      { snapshots: [{ ...DAILY, name: 'daily; DROP TABLE x' }] },
      'inputs.snapshots is invalid: Snapshot definition #0.name',
    ],
    [{ snapshots: [{ ...DAILY, runsToKeep: 1 }] }, 'runsToKeep'],
  ])('bad input %p is refused with unit, field and fix', (inputs, message) => {
    expect(() => unitWith(inputs)).toThrow(message);
  });

  // Canonical zones are checked against Intl's list; aliases it omits must still pass through DateTimeFormat.
  test.each(['Europe/Paris', 'UTC', 'Etc/UTC', 'US/Eastern', 'Asia/Calcutta'])(
    'time zone %s (canonical or alias) is accepted',
    (timezone) => {
      expect(unitWith({ schedule: { hour: 6, timezone } }).inputs.schedule.timezone).toBe(timezone);
    },
  );
});
