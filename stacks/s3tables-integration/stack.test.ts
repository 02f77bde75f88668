import { describe, expect, test } from '@jest/globals';
import { Aspects, Testing } from 'cdktf';
import { fixtureUnit, onlyResource, resourcesOf, type StackJson } from '../test/fixtures';
import { LabPolicy } from '../lib/policy/lab-policy';
import { spec, type S3TablesIntegrationInputs } from './inputs';
import { S3TablesIntegrationStack } from './stack';

const unit = (inputs: Record<string, unknown> = {}) =>
  fixtureUnit<S3TablesIntegrationInputs>(spec, { name: 's3tables-integration', inputs, level: 'region' });

function synth(inputs: Record<string, unknown> = {}): StackJson {
  return JSON.parse(Testing.synth(new S3TablesIntegrationStack(Testing.app(), unit(inputs)))) as StackJson;
}

const BUCKETS =
  'arn:${data.aws_partition.partition.partition}:s3tables:us-east-1:${data.aws_caller_identity.account.account_id}:bucket/*';
type Exec = { 'local-exec': { command: string; when?: string; environment: Record<string, string> } };

describe('s3tables-integration stack (region level), create mode', () => {
  const json = synth();

  test('the data-access role: Lake Formation trust as documented (no condition keys), AWS managed policy attached', () => {
    const role = onlyResource(json, 'aws_iam_role');
    // IAM names are per account, the unit per region.
    expect(role.name).toBe('loglake-s3tables-lakeformation-us-east-1');
    expect(JSON.parse(String(role.assume_role_policy))).toEqual({
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Principal: { Service: 'lakeformation.amazonaws.com' },
          Action: ['sts:AssumeRole', 'sts:SetSourceIdentity', 'sts:SetContext'],
        },
      ],
    });
    expect(onlyResource(json, 'aws_iam_role_policy_attachment').policy_arn).toBe(
      'arn:${data.aws_partition.partition.partition}:iam::aws:policy/service-role/AmazonS3TablesLakeFormationServiceRole',
    );
  });

  test('registration and catalog wait for the role policy and the preflight; the catalog for the registration', () => {
    const registration = onlyResource(json, 'aws_lakeformation_resource');
    expect(registration).toMatchObject({ arn: BUCKETS, with_federation: true, with_privileged_access: true });
    expect(registration.depends_on).toEqual(
      expect.arrayContaining([
        'aws_iam_role_policy_attachment.lakeformation-role-policy',
        'terraform_data.preflight',
      ]),
    );
    const catalog = onlyResource(json, 'aws_glue_catalog');
    expect(catalog).toMatchObject({
      name: 's3tablescatalog',
      federated_catalog: [{ identifier: BUCKETS, connection_name: 'aws:s3tables' }],
    });
    expect(catalog.depends_on).toEqual(
      expect.arrayContaining([
        'aws_lakeformation_resource.lakeformation-registration',
        'aws_iam_role_policy_attachment.lakeformation-role-policy',
        'terraform_data.preflight',
      ]),
    );
  });

  test('a create-time preflight checks the account first (runs again when the mode changes)', () => {
    const preflight = resourcesOf(json, 'terraform_data').preflight as {
      triggers_replace: Record<string, string>;
      input: Record<string, string>;
      provisioner: Exec[];
    };
    expect(preflight.triggers_replace).toEqual({ mode: 'create' });
    expect(preflight.input).toMatchObject({
      catalog_name: 's3tablescatalog',
      resource_arn: BUCKETS,
      unit_file: 'units/sandbox/us-east-1/_regional/s3tables-integration.ts',
    });
    const exec = preflight.provisioner[0]!['local-exec'];
    expect(exec.when).toBeUndefined();
    expect(exec.command).toBe(
      'node scripts/supported-node.mjs node --import tsx packages/deploy-checks/src/integration-preflight-cli.ts',
    );
    expect(exec.environment).toMatchObject({ MODE: 'create', RESOURCE_ARN: '${self.input.resource_arn}' });
  });

  test('destroy runs the guard first (it depends on everything), which refuses unless the unit is named', () => {
    const guard = resourcesOf(json, 'terraform_data').destroy_guard as {
      input: Record<string, string>;
      depends_on: string[];
      lifecycle: { replace_triggered_by: string[] };
      provisioner: Exec[];
    };
    // A replacement of what it protects is a destroy too: the guard is replaced first, so its check runs.
    expect(guard.lifecycle.replace_triggered_by.sort()).toEqual(
      [
        'aws_glue_catalog.glue-catalog.create_time',
        'aws_iam_role.lakeformation-role.unique_id',
        'aws_lakeformation_resource.lakeformation-registration.id',
      ].sort(),
    );
    expect(guard.depends_on.sort()).toEqual(
      [
        'aws_glue_catalog.glue-catalog',
        'aws_iam_role.lakeformation-role',
        'aws_iam_role_policy_attachment.lakeformation-role-policy',
        'aws_lakeformation_resource.lakeformation-registration',
      ].sort(),
    );
    const exec = guard.provisioner[0]!['local-exec'];
    expect(exec.when).toBe('destroy');
    expect(exec.command).toBe(
      'node scripts/supported-node.mjs node --import tsx packages/deploy-checks/src/confirm-destroy-cli.ts',
    );
    expect(guard.input.unit).toBe('s3tables-integration');
    expect(guard.input.consequence).toContain('every S3 Tables user of this account and region');
  });

  test('belongs to the region: no lab tag, names carry the project prefix, passes the lab policy', () => {
    expect(json.provider.aws[0]!.default_tags[0]!.tags).toEqual({
      project: 'loglake',
      'managed-by': 'cdktf',
      env: 'sandbox',
      unit: 's3tables-integration',
    });
    // On the stack: cdktf does not run aspects added to the App. A prefix other than the unit's own would fail.
    const policy = new LabPolicy({ namePrefix: 'loglake-01' });
    const stack = new S3TablesIntegrationStack(Testing.app(), unit());
    Aspects.of(stack).add(policy);
    Testing.synth(stack);
    expect(policy.violations).toEqual([]);
    const strict = new LabPolicy({ namePrefix: 'loglake-01', requiredTags: ['lab'] });
    const again = new S3TablesIntegrationStack(Testing.app(), unit());
    Aspects.of(again).add(strict);
    Testing.synth(again);
    expect(strict.violations).toEqual(['s3tables-integration: AWS provider default_tags lack lab']);
  });

  test('outputs: the catalog name, the registered resource, the mode', () => {
    expect(json.output).toEqual({
      glue_catalog_name: { value: '${aws_glue_catalog.glue-catalog.name}' },
      federated_resource_arn: { value: '${aws_lakeformation_resource.lakeformation-registration.arn}' },
      integration_mode: { value: 'create' },
    });
  });
});

describe('s3tables-integration stack, adopt mode', () => {
  const json = synth({ mode: 'adopt' });

  test('creates nothing of the integration, and nothing to destroy; only the preflight that checks it is there', () => {
    for (const type of ['aws_glue_catalog', 'aws_lakeformation_resource', 'aws_iam_role'])
      expect({ type, found: resourcesOf(json, type) }).toEqual({ type, found: {} });
    expect(Object.keys(resourcesOf(json, 'terraform_data'))).toEqual(['preflight']);
    const preflight = resourcesOf(json, 'terraform_data').preflight as { provisioner: Exec[] };
    expect(preflight.provisioner[0]!['local-exec'].environment.MODE).toBe('adopt');
    expect(json.output?.glue_catalog_name).toEqual({ value: 's3tablescatalog' });
  });

  test('switching from create to adopt forgets what create made instead of destroying it (a destroy guard cannot run once removed)', () => {
    expect((json as unknown as { removed: unknown }).removed).toEqual(
      [
        'aws_glue_catalog.glue-catalog',
        'aws_lakeformation_resource.lakeformation-registration',
        'aws_iam_role_policy_attachment.lakeformation-role-policy',
        'aws_iam_role.lakeformation-role',
        'terraform_data.destroy_guard',
      ].map((from) => ({ from, lifecycle: { destroy: false } })),
    );
    // Every address forgotten is one create mode makes.
    const created = synth();
    for (const { from } of (json as unknown as { removed: { from: string }[] }).removed) {
      const [type, id] = from.split('.') as [string, string];
      expect({ from, exists: created.resource[type]?.[id] !== undefined }).toEqual({ from, exists: true });
    }
    expect((created as unknown as { removed?: unknown }).removed).toBeUndefined();
  });

  test('a mode other than create/adopt is refused with the fix', () => {
    expect(() => synth({ mode: 'manage' })).toThrow(
      'unit s3tables-integration: inputs.mode is "manage", which is not valid. Fix: use \'create\'',
    );
  });
});
