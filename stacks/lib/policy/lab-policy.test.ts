import { describe, expect, test } from '@jest/globals';
import { Aspects, TerraformStack, Testing } from 'cdktf';
import { AthenaWorkgroup } from '@cdktf/provider-aws/lib/athena-workgroup';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { IamRolePolicy } from '@cdktf/provider-aws/lib/iam-role-policy';
import { AwsProvider } from '@cdktf/provider-aws/lib/provider';
import { S3Bucket } from '@cdktf/provider-aws/lib/s3-bucket';
import type { ResolvedUnit } from '../contract';
import { buildLab } from '../../app';
import { spec as firehoseSpec } from '../../firehose/inputs';
import { spec as integrationSpec } from '../../s3tables-integration/inputs';
import { spec as snapshotsSpec } from '../../snapshots/inputs';
import { spec as refSpec } from '../../ref-data/inputs';
import { spec as tbSpec } from '../../table-bucket/inputs';
import { fixtureUnit, integrationDependency, tableBucketDependency } from '../../test/fixtures';
import { policyJson } from '../iam';
import { PrivateBucket } from '../private-bucket';
import { LabPolicy } from './lab-policy';

function check(
  build: (stack: TerraformStack) => void,
  tags: Record<string, string> = { lab: '01', unit: 'bad', 'managed-by': 'cdktf' },
) {
  const app = Testing.app();
  const stack = new TerraformStack(app, 'bad');
  new AwsProvider(stack, 'aws', { region: 'us-east-1', defaultTags: [{ tags }] });
  build(stack);
  const policy = new LabPolicy({ namePrefix: 'loglake-01' });
  Aspects.of(stack).add(policy);
  return { policy, stack };
}

const SNAPSHOT = {
  name: 'vpc_flow_logs_daily',
  source: { namespace: 'network', table: 'vpc_flow_logs', timeColumn: 'start_time' },
  columns: [{ name: 'srcaddr', type: 'string' }],
  latenessGraceMinutes: 30,
  runsToKeep: 2,
};

describe('lab policy aspect', () => {
  test('the real stacks pass, and buildLab puts the policy on every stack (one on the App would never run)', async () => {
    const tbOutputs = [
      'table_bucket_arn',
      'table_bucket_name',
      'namespace',
      'table_name',
      'table_arn',
      'alerts_topic_arn',
    ];
    const units: Record<string, ResolvedUnit> = {
      's3tables-integration': fixtureUnit(integrationSpec, { name: 's3tables-integration', level: 'region' }),
      'table-bucket': fixtureUnit(tbSpec, {
        name: 'table-bucket',
        inputs: { alertEmail: 'data-eng@loglake.dev' },
        dependencies: [integrationDependency()],
      }),
      firehose: fixtureUnit(firehoseSpec, {
        name: 'firehose',
        dependencies: [tableBucketDependency(tbOutputs)],
      }),
      'ref-data': fixtureUnit(refSpec, {
        name: 'ref-data',
        dependencies: [
          tableBucketDependency([
            'table_bucket_arn',
            'table_bucket_name',
            'table_catalog_id',
            'lab_role_arn',
          ]),
        ],
      }),
      snapshots: fixtureUnit(snapshotsSpec, {
        name: 'snapshots',
        inputs: { snapshots: [SNAPSHOT] },
        dependencies: [
          tableBucketDependency([
            'table_bucket_name',
            'table_bucket_arn',
            'alerts_topic_arn',
            'lab_role_arn',
            'lab_role_name',
          ]),
        ],
      }),
    };
    const order = ['s3tables-integration', 'table-bucket', 'firehose', 'ref-data', 'snapshots'];
    const clean = await buildLab({ units, order }, { app: Testing.app(), command: 'apply' });
    clean.app.synth();
    expect(clean.policy!.violations).toEqual([]);

    // A violation in any one stack is caught through the same wiring.
    for (const name of order) {
      const built = await buildLab({ units, order }, { app: Testing.app(), command: 'apply' });
      new S3Bucket(built.stacks.get(name)!, 'bare', { bucket: 'someone-elses-bucket' });
      expect(() => built.app.synth()).toThrow(/lab policy: aws_s3_bucket.bare/);
      expect(built.policy!.violations.join('\n')).toContain(`${name}: aws_s3_bucket.bare`);
    }
  });

  test('trust policies: a positive condition on a key the service is not documented to send is refused', () => {
    const trust = (service: string, condition?: Record<string, Record<string, string>>) =>
      policyJson({
        Effect: 'Allow',
        Principal: { Service: service },
        Action: ['sts:AssumeRole'],
        ...(condition ? { Condition: condition } : {}),
      });
    const { policy, stack } = check((s) => {
      const role = (id: string, doc: string) =>
        new IamRole(s, id, { name: `loglake-01-${id}`, assumeRolePolicy: doc });
      role(
        'firehose-source-account',
        trust('firehose.amazonaws.com', { StringEquals: { 'aws:SourceAccount': '1' } }),
      );
      role(
        'lf-source-account',
        trust('lakeformation.amazonaws.com', { StringEquals: { 'aws:SourceAccount': '1' } }),
      );
      role('unknown-service', trust('example.amazonaws.com', { StringEquals: { 'aws:SourceAccount': '1' } }));
      // Documented, negated or IfExists: fine.
      role('states', trust('states.amazonaws.com', { StringEquals: { 'aws:SourceAccount': '1' } }));
      role(
        'scheduler',
        trust('scheduler.amazonaws.com', { ArnLike: { 'aws:SourceArn': 'arn:aws:scheduler:*' } }),
      );
      role(
        'firehose-external-id',
        trust('firehose.amazonaws.com', { StringEquals: { 'sts:ExternalId': '1' } }),
      );
      role(
        'lambda-if-exists',
        trust('lambda.amazonaws.com', { StringEqualsIfExists: { 'aws:SourceAccount': '1' } }),
      );
      role('plain', trust('lakeformation.amazonaws.com'));
      // Null true holds when the key is absent; Null false needs it.
      role('null-absent', trust('lakeformation.amazonaws.com', { Null: { 'aws:SourceArn': 'true' } }));
      role('null-present', trust('lambda.amazonaws.com', { Null: { 'aws:SourceArn': 'false' } }));
    });
    Testing.synth(stack);
    expect(policy.violations).toEqual([
      'bad: aws_iam_role.firehose-source-account trusts firehose.amazonaws.com on condition StringEquals aws:SourceAccount, a key firehose.amazonaws.com is not documented to send: the assume-role would be denied; drop the condition or use StringEqualsIfExists',
      'bad: aws_iam_role.lf-source-account trusts lakeformation.amazonaws.com on condition StringEquals aws:SourceAccount, a key lakeformation.amazonaws.com is not documented to send: the assume-role would be denied; drop the condition or use StringEqualsIfExists',
      'bad: aws_iam_role.unknown-service trusts example.amazonaws.com on condition StringEquals aws:SourceAccount, a key example.amazonaws.com is not known (stacks/lib/policy/rules.ts) to send: the assume-role would be denied; drop the condition or use StringEqualsIfExists',
      'bad: aws_iam_role.null-present trusts lambda.amazonaws.com on condition Null aws:SourceArn, a key lambda.amazonaws.com is not documented to send: the assume-role would be denied; drop the condition',
    ]);
  });

  test('a bare bucket: public, unencrypted, plain HTTP, unprefixed name', () => {
    const { policy, stack } = check((s) => void new S3Bucket(s, 'bare', { bucket: 'someone-elses-bucket' }));
    expect(() => Testing.fullSynth(stack)).toThrow(/lab policy/);
    expect(policy.violations).toEqual([
      'bad: aws_s3_bucket.bare does not block all public access (add aws_s3_bucket_public_access_block with all four flags true)',
      'bad: aws_s3_bucket.bare has no server-side encryption configuration',
      'bad: aws_s3_bucket.bare is not TLS-only (add a bucket policy denying aws:SecureTransport = false)',
      'bad: aws_s3_bucket.bare is named "someone-elses-bucket", without the lab prefix "loglake-01"',
    ]);
  });

  test('the PrivateBucket construct satisfies the bucket rules', () => {
    const { policy, stack } = check(
      (s) => void new PrivateBucket(s, 'ok', { bucket: 'loglake-01-ok', expireAfterDays: 1 }),
    );
    Testing.synth(stack);
    expect(policy.violations).toEqual([]);
  });

  test('IAM: wildcard actions and writes on "*" are refused; reads on "*" are fine', () => {
    const { policy, stack } = check((s) => {
      const role = new IamRole(s, 'role', {
        name: 'loglake-01-r',
        assumeRolePolicy: policyJson({
          Effect: 'Allow',
          Principal: { Service: 'firehose.amazonaws.com' },
          Action: ['sts:AssumeRole'],
        }),
      });
      new IamRolePolicy(s, 'too-broad', {
        name: 'loglake-01-p',
        role: role.id,
        policy: policyJson(
          { Effect: 'Allow', Action: ['s3:*'], Resource: 'arn:aws:s3:::loglake-01-x' },
          { Effect: 'Allow', Action: ['s3:PutObject', 's3:GetObject'], Resource: '*' },
          { Effect: 'Allow', Action: ['logs:DescribeLogGroups'], Resource: '*' },
        ),
      });
    });
    Testing.synth(stack);
    expect(policy.violations).toEqual([
      'bad: aws_iam_role_policy.too-broad statement 0 grants wildcard actions s3:*',
      'bad: aws_iam_role_policy.too-broad statement 1 grants write actions s3:PutObject on Resource "*"',
    ]);
  });

  test('workgroup without enforcement, result location or cutoff, and a provider without lab tags', () => {
    const { policy, stack } = check(
      (s) =>
        void new AthenaWorkgroup(s, 'wg', {
          name: 'loglake-01-wg',
          configuration: { enforceWorkgroupConfiguration: false },
        }),
      { project: 'x' },
    );
    Testing.synth(stack);
    expect(policy.violations).toEqual([
      'bad: AWS provider default_tags lack lab, unit, managed-by',
      'bad: aws_athena_workgroup.wg neither enforces its configuration nor sets result_configuration.output_location',
      'bad: aws_athena_workgroup.wg has no bytes_scanned_cutoff_per_query of at least 10 MiB',
    ]);
  });

  test('a workgroup that does not enforce but keeps results in its own location passes', () => {
    const { policy, stack } = check(
      (s) =>
        void new AthenaWorkgroup(s, 'wg', {
          name: 'loglake-01-snapshots',
          configuration: {
            enforceWorkgroupConfiguration: false,
            bytesScannedCutoffPerQuery: 10 * 1024 * 1024,
            resultConfiguration: { outputLocation: 's3://loglake-01-snapshots-123456789012/athena-results/' },
          },
        }),
    );
    Testing.synth(stack);
    expect(policy.violations).toEqual([]);
  });
});
