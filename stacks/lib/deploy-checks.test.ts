// The destroy guard's replace_triggered_by, proven two ways: every trigger the s3tables-integration stack
// synthesizes names an attribute its resource type has (the mirrored provider's own schema where it has the type,
// the provider source's attribute list for aws_glue_catalog), and, with a real Terraform over terraform_data
// stand-ins, a replacement of what the guard protects replaces the guard (so its destroy-time check runs), an
// in-place update does not, and a trigger on a missing attribute is silently ignored — why the first check exists.
import { afterAll, describe, expect, test } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalBackend, TerraformStack, Testing } from 'cdktf';
import { S3TablesIntegrationStack } from '../s3tables-integration/stack';
import { spec, type S3TablesIntegrationInputs } from '../s3tables-integration/inputs';
import { RefDataStack } from '../ref-data/stack';
import { spec as refDataSpec, type RefDataInputs } from '../ref-data/inputs';
import { TableBucketStack } from '../table-bucket/stack';
import { spec as tableBucketSpec, type TableBucketInputs } from '../table-bucket/inputs';
import { confirmDestroyGuard, REPLACEMENT_MARKER, replacementTrigger } from './deploy-checks';
import {
  fixtureUnit,
  integrationDependency,
  resourcesOf,
  tableBucketDependency,
  type StackJson,
} from '../test/fixtures';
import { GLUE_CATALOG_ATTRIBUTES } from './glue-catalog';
import { findToolchain } from '../test/terraform-validate';
import { TerraformData } from './terraform-data';

const work = mkdtempSync(join(tmpdir(), 'loglake-guard-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const tfEnv = {
  ...process.env,
  CHECKPOINT_DISABLE: '1',
  TF_IN_AUTOMATION: '1',
  TF_CLI_CONFIG_FILE: '/dev/null',
};

function integrationGuardTriggers(): string[] {
  const unit = fixtureUnit<S3TablesIntegrationInputs>(spec, {
    name: 's3tables-integration',
    level: 'region',
  });
  const json = JSON.parse(Testing.synth(new S3TablesIntegrationStack(Testing.app(), unit))) as StackJson;
  const guard = resourcesOf(json, 'terraform_data').destroy_guard as {
    lifecycle: { replace_triggered_by: string[] };
  };
  return guard.lifecycle.replace_triggered_by;
}

/** Every replace_triggered_by of the stacks that write one: the guard, the federation waits, the grants. */
function allTriggers(): string[] {
  const stacks = [
    new TableBucketStack(
      Testing.app(),
      fixtureUnit<TableBucketInputs>(tableBucketSpec, {
        name: 'table-bucket',
        dependencies: [integrationDependency('local')],
      }),
    ),
    new RefDataStack(
      Testing.app(),
      fixtureUnit<RefDataInputs>(refDataSpec, {
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
    ),
  ];
  const triggers = stacks.flatMap((stack) => {
    const json = JSON.parse(Testing.synth(stack)) as StackJson;
    return Object.values(json.resource).flatMap((byId) =>
      Object.values(byId).flatMap(
        (r) => (r.lifecycle as { replace_triggered_by?: string[] } | undefined)?.replace_triggered_by ?? [],
      ),
    );
  });
  return [...new Set([...integrationGuardTriggers(), ...triggers])];
}

describe('every replace_triggered_by names an attribute that exists', () => {
  test('a type with no known replacement marker is refused at synth, not guessed', () => {
    const stack = new TerraformStack(Testing.app(), 'x');
    const other = new TerraformData(stack, 'other');
    Object.defineProperty(other, 'terraformResourceType', { value: 'aws_s3_bucket' });
    expect(() => replacementTrigger(other)).toThrow('add aws_s3_bucket to REPLACEMENT_MARKER');
  });

  test('aws_glue_catalog (provider 6.x, no id): the trigger is an attribute of its schema', () => {
    const catalog = integrationGuardTriggers().filter((t) => t.startsWith('aws_glue_catalog.'));
    expect(catalog).toHaveLength(1);
    const attribute = catalog[0]!.split('.')[2]!;
    expect(GLUE_CATALOG_ATTRIBUTES).toContain(attribute);
    expect(GLUE_CATALOG_ATTRIBUTES).not.toContain('id');
  });

  const toolchain = findToolchain();
  const withMirror = 'missing' in toolchain ? test.skip : test;
  if ('missing' in toolchain) console.log(`mirrored-schema check skipped: ${toolchain.missing}`);
  withMirror(
    "each trigger on a type the mirrored provider has is an attribute of that type's schema",
    () => {
      const tc = toolchain as Exclude<typeof toolchain, { missing: string }>;
      const dir = join(work, 'schema');
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'main.tf.json'),
        JSON.stringify({
          terraform: { required_providers: { aws: { source: 'hashicorp/aws', version: tc.awsVersion } } },
        }),
      );
      const rc = join(dir, 'terraform.rc');
      writeFileSync(
        rc,
        `provider_installation {\n  filesystem_mirror {\n    path = ${JSON.stringify(tc.mirror)}\n    include = ["registry.terraform.io/hashicorp/aws"]\n  }\n}\n`,
      );
      const env = { ...tfEnv, TF_CLI_CONFIG_FILE: rc, TF_PLUGIN_CACHE_DIR: '' };
      execFileSync(tc.terraform, ['init', '-backend=false', '-input=false', '-no-color'], { cwd: dir, env });
      const schema = JSON.parse(
        execFileSync(tc.terraform, ['providers', 'schema', '-json'], {
          cwd: dir,
          env,
          maxBuffer: 512 * 1024 * 1024,
        }).toString(),
      ) as {
        provider_schemas: Record<
          string,
          { resource_schemas: Record<string, { block: { attributes: Record<string, unknown> } }> }
        >;
      };
      const resources = Object.values(schema.provider_schemas)[0]!.resource_schemas;
      const checked = allTriggers()
        .map((t) => t.split('.') as [string, string, string])
        .filter(([type]) => resources[type] !== undefined);
      expect([...new Set(checked.map(([type]) => type))].sort()).toEqual([
        'aws_iam_role',
        'aws_lakeformation_resource',
        'aws_s3tables_namespace',
        'aws_s3tables_table',
      ]);
      // The rest: aws_glue_catalog (not in the mirror; checked against the source's list above).
      expect(allTriggers().filter((t) => !resources[t.split('.')[0]!])).toEqual([
        'aws_glue_catalog.glue-catalog.create_time',
      ]);
      for (const [type, , attribute] of checked)
        expect({ type, attribute, exists: attribute in resources[type]!.block.attributes }).toEqual({
          type,
          attribute,
          exists: true,
        });
    },
    180_000,
  );
});

const binary = ['terraform', 'tofu'].find((b) => spawnSync(b, ['version'], { stdio: 'ignore' }).status === 0);
const withTerraform = binary ? describe : describe.skip;
if (!binary) console.warn('deploy-checks.test: no terraform/tofu on PATH; the guard plans are skipped');

withTerraform(`the guard under a real ${binary ?? 'terraform'} plan (terraform_data stand-ins)`, () => {
  expect(REPLACEMENT_MARKER.terraform_data).toBe('id');

  /** The guard over two stand-ins, as the integration stack builds it; `mutate` edits the JSON before writing. */
  function stackDir(name: string, mutate: (json: StackJson) => void = () => undefined): string {
    const app = Testing.app();
    const stack = new TerraformStack(app, name);
    const dir = join(work, name);
    new LocalBackend(stack, { path: join(dir, 'terraform.tfstate') });
    const catalog = new TerraformData(stack, 'catalog', { triggersReplace: { description: 'v1' } });
    const role = new TerraformData(stack, 'role', { input: { tags: 'v1' } });
    confirmDestroyGuard(stack, 'guard', {
      unit: name,
      consequence: 'test',
      repoRoot: '.',
      dependsOn: [catalog, role],
      replacedWith: [catalog, role],
    });
    const json = JSON.parse(Testing.synth(stack)) as StackJson;
    mutate(json);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'main.tf.json'), JSON.stringify(json));
    return dir;
  }

  const tf = (dir: string, command: string, ...args: string[]) => {
    const input = ['init', 'plan', 'apply'].includes(command) ? ['-input=false'] : [];
    const r = spawnSync(binary!, [command, '-no-color', ...input, ...args], {
      cwd: dir,
      env: tfEnv,
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`${binary} ${command} ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };

  /** What a plan of the edited stand-ins would do to the guard: its actions and Terraform's reason. */
  function guardPlan(dir: string, edit: (json: StackJson) => void): { actions: string[]; reason?: string } {
    const file = join(dir, 'main.tf.json');
    const json = JSON.parse(readFileSync(file, 'utf8')) as StackJson;
    edit(json);
    writeFileSync(file, JSON.stringify(json));
    tf(dir, 'plan', '-out=plan.bin');
    const plan = JSON.parse(tf(dir, 'show', '-json', 'plan.bin')) as {
      resource_changes: { address: string; action_reason?: string; change: { actions: string[] } }[];
    };
    const change = plan.resource_changes.find((c) => c.address === 'terraform_data.destroy_guard')!;
    return {
      actions: change.change.actions,
      ...(change.action_reason ? { reason: change.action_reason } : {}),
    };
  }

  const replaceCatalog = (json: StackJson) => {
    (resourcesOf(json, 'terraform_data').catalog as { triggers_replace: unknown }).triggers_replace = {
      description: 'v2',
    };
  };

  test('replacing what it protects replaces the guard first (its destroy-time check runs)', () => {
    const dir = stackDir('replaced');
    tf(dir, 'init');
    tf(dir, 'apply', '-auto-approve');
    expect(guardPlan(dir, replaceCatalog)).toEqual({
      actions: ['delete', 'create'],
      reason: 'replace_by_triggers',
    });
  }, 120_000);

  test('an in-place update of what it protects leaves the guard alone', () => {
    const dir = stackDir('updated');
    tf(dir, 'init');
    tf(dir, 'apply', '-auto-approve');
    const update = (json: StackJson) => {
      (resourcesOf(json, 'terraform_data').role as { input: unknown }).input = { tags: 'v2' };
    };
    expect(guardPlan(dir, update)).toEqual({ actions: ['no-op'] });
  }, 120_000);

  test('the hazard: a trigger on an attribute the type lacks validates, and never fires', () => {
    const dir = stackDir('missing-attribute', (json) => {
      const guard = resourcesOf(json, 'terraform_data').destroy_guard as {
        lifecycle: { replace_triggered_by: string[] };
      };
      guard.lifecycle.replace_triggered_by = guard.lifecycle.replace_triggered_by.map((t) =>
        t.replace(/\.id$/, '.nosuch'),
      );
    });
    tf(dir, 'init');
    tf(dir, 'validate');
    tf(dir, 'apply', '-auto-approve');
    expect(guardPlan(dir, replaceCatalog)).toEqual({ actions: ['no-op'] });
  }, 120_000);
});
