// refuseAtApply under a real Terraform over built-ins: the plan goes through, the apply stops at the guard with
// its message, and nothing that depends on it is created.
import { afterAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalBackend, TerraformStack, Testing } from 'cdktf';
import { refuseAtApply } from './apply-guard';
import { dependOnEverything } from './destroy-hooks';
import { TerraformData } from './terraform-data';

const binary = ['terraform', 'tofu'].find((b) => spawnSync(b, ['version'], { stdio: 'ignore' }).status === 0);
const withTerraform = binary ? describe : describe.skip;
if (!binary) console.warn('apply-guard.test: no terraform/tofu on PATH; skipped');
const work = mkdtempSync(join(tmpdir(), 'loglake-apply-guard-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

withTerraform(`refuseAtApply under a real ${binary ?? 'terraform'}`, () => {
  test('plan passes; apply fails with the message, before anything else is created', () => {
    const stack = new TerraformStack(Testing.app(), 'guarded');
    const state = join(work, 'terraform.tfstate');
    new LocalBackend(stack, { path: state });
    new TerraformData(stack, 'bucket', { input: { name: 'loglake-01-x' } }).overrideLogicalId('bucket');
    const { guard, marker } = refuseAtApply(stack, 'alert-address-guard', 'Set LOGLAKE_ALERT_EMAIL first.');
    dependOnEverything(stack, guard, [marker]);
    const dir = join(Testing.fullSynth(stack), 'stacks', 'guarded');
    const env = {
      ...process.env,
      CHECKPOINT_DISABLE: '1',
      TF_IN_AUTOMATION: '1',
      TF_CLI_CONFIG_FILE: '/dev/null',
    };
    const tf = (...args: string[]) =>
      spawnSync(binary!, [...args, '-no-color', '-input=false'], { cwd: dir, env, encoding: 'utf8' });
    expect(tf('init').status).toBe(0);
    const plan = tf('plan');
    expect(plan.status).toBe(0);
    expect(plan.stdout).toContain('terraform_data.bucket will be created');
    const apply = tf('apply', '-auto-approve');
    expect(apply.status).not.toBe(0);
    expect(apply.stderr.replace(/\s+/g, ' ')).toContain('Set LOGLAKE_ALERT_EMAIL first.');
    const created = existsSync(state) ? readFileSync(state, 'utf8') : '';
    expect(created).not.toContain('"name": "bucket"');
  }, 120_000);
});
