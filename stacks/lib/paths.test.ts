// The hooks' command runs as Terraform runs it (a shell in the repo root, the caller's environment): the entry
// starts on the project's supported Node, whatever node is first on PATH.
import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { REPO_ROOT, repoScriptCommand } from './paths';

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

describe('repoScriptCommand (what every local-exec hook runs)', () => {
  test('goes through scripts/supported-node.mjs and loads tsx like the cdktf app, no npx', () => {
    expect(repoScriptCommand('scripts/check-leftovers.ts', ['${self.input.lab_id}'])).toBe(
      'node scripts/supported-node.mjs node --import tsx scripts/check-leftovers.ts ${self.input.lab_id}',
    );
  });

  test('a real hook entry runs from the repo root on a supported Node, with its exit code', () => {
    const command = repoScriptCommand('packages/deploy-checks/src/confirm-destroy-cli.ts');
    const run = (env: Record<string, string>) =>
      spawnSync(command, {
        shell: true,
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { ...process.env, UNIT: 's3tables-integration', CONSEQUENCE: 'it goes.', ...env },
      });
    const refused = run({ LOGLAKE_CONFIRM_DESTROY: '' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('DestroyNotConfirmedError: Refusing to destroy the region-level unit');
    // On an older machine Node (this one's may be 20), supported-node says it switched to the project's Node.
    if (NODE_MAJOR < 22) expect(refused.stderr).toMatch(/running on Node 2\d/);
    const confirmed = run({ LOGLAKE_CONFIRM_DESTROY: 's3tables-integration' });
    expect(confirmed.status).toBe(0);
    expect(confirmed.stdout).toContain('destroy of s3tables-integration confirmed');
  }, 120_000);
});
