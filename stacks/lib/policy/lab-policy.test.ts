import { describe, expect, test } from '@jest/globals';
import { Aspects, TerraformStack, Testing } from 'cdktf';
import { AthenaWorkgroup } from '@cdktf/provider-aws/lib/athena-workgroup';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { IamRolePolicy } from '@cdktf/provider-aws/lib/iam-role-policy';
import { AwsProvider } from '@cdktf/provider-aws/lib/provider';
import { S3Bucket } from '@cdktf/provider-aws/lib/s3-bucket';
import { spec as firehoseSpec } from '../../firehose/inputs';
import { FirehoseStack } from '../../firehose/stack';
import { spec as refSpec } from '../../ref-data/inputs';
import { RefDataStack } from '../../ref-data/stack';
import { spec as tbSpec } from '../../table-bucket/inputs';
import { TableBucketStack } from '../../table-bucket/stack';
import { fixtureUnit, tableBucketDependency } from '../fixtures';
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

describe('lab policy aspect', () => {
  test('the real stacks pass', () => {
    const app = Testing.app();
    const policy = new LabPolicy({ namePrefix: 'loglake-01' });
    Aspects.of(app).add(policy);
    const deps = [
      tableBucketDependency([
        'table_bucket_arn',
        'table_bucket_name',
        'namespace',
        'table_name',
        'table_arn',
      ]),
    ];
    new TableBucketStack(app, fixtureUnit(tbSpec, { name: 'table-bucket' }));
    new FirehoseStack(app, fixtureUnit(firehoseSpec, { name: 'firehose', dependencies: deps }));
    new RefDataStack(
      app,
      fixtureUnit(refSpec, {
        name: 'ref-data',
        dependencies: [tableBucketDependency(['table_bucket_arn', 'table_bucket_name'])],
      }),
    );
    app.synth();
    expect(policy.violations).toEqual([]);
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
