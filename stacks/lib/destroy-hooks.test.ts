import { afterEach, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalBackend, TerraformStack, Testing } from 'cdktf';
import {
  addDependsOn,
  dependOnEverything,
  dropNamespaceTablesOnDestroy,
  verifyTeardownHook,
} from './destroy-hooks';
import { TerraformData } from './terraform-data';

// The hook's semantics, proven with a real terraform (or tofu) binary over built-in resources only (offline):
// runs last on destroy, not at all if an earlier destroy failed, and fails the destroy when the check fails.
const binary = ['terraform', 'tofu'].find((b) => spawnSync(b, ['version'], { stdio: 'ignore' }).status === 0);
const withTerraform = binary ? describe : describe.skip;
if (!binary)
  console.warn('destroy-hooks.test: no terraform/tofu on PATH; the destroy-order tests are skipped');

withTerraform(`post-destroy hook under a real ${binary ?? 'terraform'} binary`, () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  const env = {
    ...process.env,
    CHECKPOINT_DISABLE: '1',
    TF_IN_AUTOMATION: '1',
    TF_CLI_CONFIG_FILE: '/dev/null',
  };

  /** A stack shaped like table-bucket: two resources and the hook they all depend on; each logs its destroy. */
  function stackDir(hookCommand: string, failingResource?: string): { dir: string; log: string } {
    const work = mkdtempSync(join(tmpdir(), 'loglake-hook-'));
    dirs.push(work);
    const log = join(work, 'order.log');
    const app = Testing.app();
    const stack = new TerraformStack(app, 'table-bucket');
    new LocalBackend(stack, { path: join(work, 'terraform.tfstate') });
    const hook = verifyTeardownHook(stack, 'verify-teardown', {
      labId: '01',
      region: 'us-east-1',
      checkAttempts: 4,
      repoRoot: work,
      command: hookCommand.replace('LOG', log),
    });
    for (const name of ['bucket', 'workgroup']) {
      new TerraformData(stack, name, {
        input: { name },
        provisioners: [
          {
            type: 'local-exec',
            when: 'destroy',
            command: name === failingResource ? 'exit 1' : `echo ${name} >> ${log}`,
          },
        ],
      });
    }
    dependOnEverything(stack, hook);
    return { dir: join(Testing.fullSynth(stack), 'stacks', 'table-bucket'), log };
  }

  function tf(dir: string, ...args: string[]): number {
    const r = spawnSync(binary!, [...args, '-no-color', '-input=false'], { cwd: dir, env, encoding: 'utf8' });
    return r.status ?? 1;
  }

  test('destroy runs the check after everything else, with CHECK_ATTEMPTS=4 and the lab id', () => {
    const { dir, log } = stackDir('echo "check $CHECK_ATTEMPTS ${self.input.lab_id}" >> LOG');
    expect(tf(dir, 'init')).toBe(0);
    expect(tf(dir, 'apply', '-auto-approve')).toBe(0);
    expect(tf(dir, 'destroy', '-auto-approve')).toBe(0);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines.at(-1)).toBe('check 4 01');
    expect(lines.slice(0, -1).sort()).toEqual(['bucket', 'workgroup']);
  });

  test('a failed check fails the destroy', () => {
    const { dir } = stackDir('exit 3');
    tf(dir, 'init');
    tf(dir, 'apply', '-auto-approve');
    expect(tf(dir, 'destroy', '-auto-approve')).not.toBe(0);
  });

  test('no check when an earlier destroy failed (run_on_error = false)', () => {
    const { dir, log } = stackDir('echo check >> LOG', 'bucket');
    tf(dir, 'init');
    tf(dir, 'apply', '-auto-approve');
    expect(tf(dir, 'destroy', '-auto-approve')).not.toBe(0);
    const lines = existsSync(log) ? readFileSync(log, 'utf8') : '';
    expect(lines).not.toContain('check');
  });

  /** A namespace whose delete fails while it holds tables (as S3 Tables does), optionally with the drop step. */
  function namespaceDir(withDropStep: boolean): { dir: string; tables: string } {
    const work = mkdtempSync(join(tmpdir(), 'loglake-ns-'));
    dirs.push(work);
    const tables = join(work, 'tables.txt');
    const app = Testing.app();
    const stack = new TerraformStack(app, 'ref-data');
    new LocalBackend(stack, { path: join(work, 'terraform.tfstate') });
    const ns = new TerraformData(stack, 'namespace-ref', {
      input: { namespace: 'ref' },
      provisioners: [
        {
          type: 'local-exec',
          when: 'destroy',
          command: `test ! -s ${tables} || { echo "namespace ref is not empty" >&2; exit 1; }`,
        },
      ],
    });
    if (withDropStep) {
      const drop = dropNamespaceTablesOnDestroy(stack, 'drop-tables-ref', {
        tableBucketArn: 'arn',
        namespace: 'ref',
        region: 'us-east-1',
        keep: [],
        repoRoot: work,
        command: `: > ${tables}`,
      });
      addDependsOn(drop, [ns]);
    }
    return { dir: join(Testing.fullSynth(stack), 'stacks', 'ref-data'), tables };
  }

  test('whole-lab destroy succeeds although SQL created tables in the namespace: the drop step runs first', () => {
    for (const withDropStep of [false, true]) {
      const { dir, tables } = namespaceDir(withDropStep);
      expect(tf(dir, 'init')).toBe(0);
      expect(tf(dir, 'apply', '-auto-approve')).toBe(0);
      writeFileSync(tables, 'inventory\nbad_ips\n'); // what the lab's SQL creates after deploy
      expect({ withDropStep, destroyed: tf(dir, 'destroy', '-auto-approve') === 0 }).toEqual({
        withDropStep,
        destroyed: withDropStep,
      });
    }
  });
});
