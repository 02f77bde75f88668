import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalBackend, TerraformStack, Testing } from 'cdktf';
import type { TfCommand } from './contract';
import { addDependsOn } from './destroy-hooks';
import { tableBucketDependency, type StackJson } from '../test/fixtures';
import { TerraformData } from './terraform-data';
import { UpstreamOutputs } from './upstream';

const OUTPUTS = ['table_bucket_arn', 'table_bucket_name'];

/** A consumer stack with only Terraform built-ins, so a real terraform binary can plan and apply it offline. */
function consumerStack(command: TfCommand | undefined, repoRoot: string, withMocks = true) {
  const app = Testing.app();
  const stack = new TerraformStack(app, 'consumer');
  new LocalBackend(stack, { path: 'terraform.tfstate' });
  const upstream = new UpstreamOutputs(stack, 'upstream', {
    dependency: tableBucketDependency(OUTPUTS, 'local', withMocks),
    command,
    repoRoot,
  });
  const consumer = new TerraformData(stack, 'consumer', {
    // A template too, as most consumers write one (an ARN, a key prefix).
    input: {
      table_bucket_arn: upstream.get('table_bucket_arn'),
      prefix: `${upstream.get('table_bucket_name')}/errors/`,
    },
  });
  consumer.overrideLogicalId('consumer');
  addDependsOn(consumer, [upstream.guard]);
  return { app, stack, upstream };
}

const synthJson = (command: TfCommand | undefined, withMocks = true) =>
  JSON.parse(Testing.synth(consumerStack(command, '../../..', withMocks).stack)) as StackJson;

describe('UpstreamOutputs: the dependency block in Terraform', () => {
  test('reads the producer through terraform_remote_state of its backend, counted on whether its state exists', () => {
    const json = synthJson(undefined);
    const rs = json.data!.terraform_remote_state!.table_bucket as Record<string, unknown>;
    expect(rs.backend).toBe('local');
    expect(rs.config).toEqual({ path: '${local.table_bucket_state_path}' });
    expect(rs.count).toBe('${local.table_bucket_deployed ? 1 : 0}');
    expect(json.locals!.table_bucket_state_path).toBe(
      '../../../.lab/tfstate/sandbox/us-east-1/01-s3-tables-log-lake/table-bucket/terraform.tfstate',
    );
    expect(json.locals!.table_bucket_table_bucket_arn).toBe(
      '${try(data.terraform_remote_state.table_bucket[0].outputs.table_bucket_arn, "")}',
    );
  });

  test('apply (or no announced command): no mocks, and a guard naming the unit to deploy first', () => {
    for (const command of [undefined, 'apply', 'destroy'] as const) {
      const json = synthJson(command);
      expect(JSON.stringify(json.locals)).not.toContain('mock');
      const guard = json.resource.terraform_data!.table_bucket_upstream_guard as {
        lifecycle: { precondition: Array<{ condition: string; error_message: string }> };
      };
      expect(guard.lifecycle.precondition.map((p) => p.condition)).toEqual([
        '${local.table_bucket_deployed}',
        '${!local.table_bucket_deployed || length(local.table_bucket_missing) == 0}',
      ]);
      for (const p of guard.lifecycle.precondition)
        expect(p.error_message).toContain('deploy it first: cdktf deploy table-bucket');
      expect(json.resource.terraform_data!.table_bucket_mock_marker).toBeUndefined();
    }
  });

  test('plan: mocks stand in while the producer has no state, behind a guard deferred to apply', () => {
    const json = synthJson('plan');
    expect(json.locals!.table_bucket_table_bucket_arn).toBe(
      '${try(data.terraform_remote_state.table_bucket[0].outputs.table_bucket_arn, "arn:aws:s3tables:us-east-1:123456789012:bucket/mock-bucket")}',
    );
    const marker = json.resource.terraform_data!.table_bucket_mock_marker as {
      triggers_replace: Record<string, string>;
    };
    expect(marker.triggers_replace).toEqual({ synthesized_with_mocks: '${timestamp()}' });
    const guard = json.resource.terraform_data!.table_bucket_upstream_guard as {
      lifecycle: { precondition: Array<{ condition: string; error_message: string }> };
    };
    expect(guard.lifecycle.precondition[0]!.condition).toBe(
      '${length(local.table_bucket_missing) == 0 || terraform_data.table_bucket_mock_marker.id == "mock outputs never reach apply"}',
    );
    expect(guard.lifecycle.precondition[0]!.error_message).toContain('Deploy table-bucket first');
    expect((json.resource.terraform_data!.consumer as { depends_on: string[] }).depends_on).toEqual([
      'terraform_data.table_bucket_upstream_guard',
    ]);
  });

  test('a command the dependency does not allow, or a dependency without mocks, stays strict', () => {
    expect(JSON.stringify(synthJson('import').locals)).not.toContain('mock-bucket');
    expect(JSON.stringify(synthJson('plan', false).locals)).not.toContain('mock-bucket');
  });

  test('S3 backend: probes the state object with aws_s3_objects before reading it', () => {
    const app = Testing.app();
    const stack = new TerraformStack(app, 'consumer');
    new UpstreamOutputs(stack, 'upstream', {
      dependency: tableBucketDependency(OUTPUTS, 's3'),
      command: undefined,
      repoRoot: '../../..',
    });
    const json = JSON.parse(Testing.synth(stack)) as StackJson;
    const key = 'sandbox/us-east-1/01-s3-tables-log-lake/table-bucket/terraform.tfstate';
    expect(json.data!.aws_s3_objects!.table_bucket_state_probe).toMatchObject({
      bucket: 'example-state-bucket',
      prefix: key,
      max_keys: 1,
    });
    expect(json.locals!.table_bucket_deployed).toBe(
      `\${contains(data.aws_s3_objects.table_bucket_state_probe.keys, "${key}")}`,
    );
    expect(json.data!.terraform_remote_state!.table_bucket).toMatchObject({
      backend: 's3',
      config: { bucket: 'example-state-bucket', key, region: 'us-east-1' },
    });
  });
});

// The same configuration run through a real terraform (or tofu) binary: only built-in resources, no provider
// download, so it works offline. Without a binary these are skipped (say so rather than pretend).
const binary = ['terraform', 'tofu'].find((b) => spawnSync(b, ['version'], { stdio: 'ignore' }).status === 0);
const withTerraform = binary ? describe : describe.skip;
if (!binary)
  console.warn('upstream.test: no terraform/tofu on PATH; the plan/apply behaviour tests are skipped');

withTerraform(`UpstreamOutputs under a real ${binary ?? 'terraform'} binary`, () => {
  let repo: string;
  const env = {
    ...process.env,
    CHECKPOINT_DISABLE: '1',
    TF_IN_AUTOMATION: '1',
    TF_CLI_CONFIG_FILE: '/dev/null',
  };
  const statePath = () =>
    join(repo, '.lab/tfstate/sandbox/us-east-1/01-s3-tables-log-lake/table-bucket/terraform.tfstate');

  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'loglake-upstream-'));
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  function run(command: TfCommand | undefined, args: string[][]): { ok: boolean; out: string } {
    const { stack } = consumerStack(command, repo);
    const dir = join(Testing.fullSynth(stack), 'stacks', 'consumer');
    let out = '';
    for (const a of args) {
      const r = spawnSync(binary!, [...a, '-no-color', '-input=false'], { cwd: dir, env, encoding: 'utf8' });
      out += r.stdout + r.stderr;
      if (r.status !== 0) return { ok: false, out: out.replace(/\s+/g, ' ') };
    }
    return { ok: true, out: out.replace(/\s+/g, ' ') };
  }

  function writeProducerState(outputs: Record<string, string>): void {
    mkdirSync(join(statePath(), '..'), { recursive: true });
    const state = {
      version: 4,
      terraform_version: '1.10.0',
      serial: 1,
      lineage: 'test',
      outputs: Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, { value: v, type: 'string' }])),
      resources: [],
    };
    writeFileSync(statePath(), JSON.stringify(state));
  }

  test('apply-mode synth, producer never deployed: plan fails with the guard message alone, naming the unit to deploy first', () => {
    const r = run('apply', [['init'], ['plan']]);
    expect(r.ok).toBe(false);
    expect(r.out).toContain(
      'Unit table-bucket (sandbox/us-east-1/01-s3-tables-log-lake/table-bucket) has no state',
    );
    expect(r.out).toContain('deploy it first: cdktf deploy table-bucket');
    // No noise from consumers interpolating the missing values (a null in a template is an error of its own).
    expect(r.out).not.toContain('Invalid template interpolation value');
    expect(r.out.match(/Error: /g)).toHaveLength(1);
  });

  test('plan-mode synth, producer never deployed: plan shows the mocks; apply of the same config fails', () => {
    const plan = run('plan', [['init'], ['plan']]);
    expect(plan.ok).toBe(true);
    expect(plan.out).toContain('"arn:aws:s3tables:us-east-1:123456789012:bucket/mock-bucket"');
    const apply = run('plan', [['init'], ['apply', '-auto-approve']]);
    expect(apply.ok).toBe(false);
    expect(apply.out).toContain('synthesized with mock outputs of unit table-bucket');
    expect(apply.out).not.toContain('terraform_data.consumer: Creation complete');
  });

  test('producer deployed: the real output wins over mocks, in plan and apply', () => {
    writeProducerState({
      table_bucket_arn: 'arn:aws:s3tables:us-east-1:123456789012:bucket/real',
      table_bucket_name: 'real',
    });
    const plan = run('plan', [['init'], ['plan']]);
    expect(plan.ok).toBe(true);
    expect(plan.out).toContain('bucket/real');
    expect(plan.out).not.toContain('mock-bucket');
    const apply = run('apply', [['init'], ['apply', '-auto-approve']]);
    expect(apply.ok).toBe(true);
  });

  test('producer state lacks an output: the error names the output and the unit', () => {
    writeProducerState({ table_bucket_arn: 'arn:aws:s3tables:us-east-1:123456789012:bucket/real' });
    const r = run('apply', [['init'], ['plan']]);
    expect(r.ok).toBe(false);
    expect(r.out).toContain('has no output table_bucket_name in its state');
  });
});
