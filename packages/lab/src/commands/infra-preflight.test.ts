import { afterAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveLab } from '@loglake/units';
import { REPO_ROOT } from '../target/open-target';
import { credentialsProblem, infraPreflight } from './infra-preflight';

const work = mkdtempSync(join(tmpdir(), 'loglake-preflight-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const home = (name: string, files: Record<string, string> = {}) => {
  const dir = join(work, name);
  mkdirSync(join(dir, '.aws'), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, '.aws', file), text);
  return dir;
};

describe('credentials the default chain would find (checked offline, never used)', () => {
  const empty = home('empty');
  test.each([
    ['keys in the environment', { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'x' }],
    [
      'a web identity token',
      { AWS_WEB_IDENTITY_TOKEN_FILE: '/t', AWS_ROLE_ARN: 'arn:aws:iam::123456789012:role/r' },
    ],
    ['a container endpoint', { AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: '/v2/credentials/x' }],
  ])('%s: present', (_, env) => {
    expect(credentialsProblem(env, empty)).toBeUndefined();
  });

  test('the profile in ~/.aws/credentials or ~/.aws/config: present; another profile: missing, named', () => {
    const withDefault = home('default', { credentials: '[default]\naws_access_key_id = AKIDEXAMPLE\n' });
    expect(credentialsProblem({}, withDefault)).toBeUndefined();
    const sso = home('sso', { config: '[profile sandbox]\nsso_session = corp\n' });
    expect(credentialsProblem({ AWS_PROFILE: 'sandbox' }, sso)).toBeUndefined();
    expect(credentialsProblem({ AWS_PROFILE: 'prod' }, sso)).toContain('no profile "prod"');
  });

  test('nothing at all, or half a key pair: missing, with what to do', () => {
    expect(credentialsProblem({}, empty)).toContain('no AWS credentials for Terraform to use');
    expect(credentialsProblem({ AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE' }, empty)).toContain(
      'AWS_SECRET_ACCESS_KEY is not',
    );
  });
});

describe('infraPreflight: everything missing, at once', () => {
  const keys = { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'x' };

  test('deploy: an old Terraform, no alert address and no credentials are three problems in one report', async () => {
    const lab = await resolveLab({ env: {} });
    expect(lab.units['table-bucket'].inputs.alertEmail).toBe('');
    const problems = await infraPreflight(
      'deploy',
      lab,
      lab.order,
      {},
      {
        binary: 'terraform',
        version: async () => '1.9.8',
        home: home('none'),
      },
    );
    expect(problems).toHaveLength(3);
    expect(problems[0]).toContain('terraform 1.9.8 is older than 1.10.0');
    expect(problems[1]).toContain("the lab's alert subscription has no address: export LOGLAKE_ALERT_EMAIL=");
    expect(problems[2]).toContain('no AWS credentials');
  });

  test('what each command needs: plan and destroy need no alert address; a deploy without table-bucket neither', async () => {
    const lab = await resolveLab({ env: {} });
    const ok = { binary: 'tofu', version: async () => '1.10.2', home: home('ok') };
    expect(await infraPreflight('plan', lab, lab.order, keys, ok)).toEqual([]);
    expect(await infraPreflight('destroy', lab, lab.labUnits, keys, ok)).toEqual([]);
    expect(await infraPreflight('deploy', lab, ['firehose'], keys, ok)).toEqual([]);
    expect(await infraPreflight('deploy', lab, lab.order, keys, ok)).toHaveLength(1);
    const unknown = await infraPreflight('plan', lab, lab.order, keys, {
      ...ok,
      version: async () => undefined,
    });
    expect(unknown[0]).toContain('did not say which version it is');
  });
});

describe('pnpm lab deploy as a child process', () => {
  test('reports every missing piece before it starts cdktf, and exits non-zero', () => {
    const bin = join(work, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'terraform'), '#!/bin/sh\necho \'{"terraform_version":"1.9.8"}\'\n');
    chmodSync(join(bin, 'terraform'), 0o755);
    const env = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) =>
          !/^AWS_(ACCESS|SECRET|SESSION|PROFILE|DEFAULT_PROFILE|WEB_IDENTITY|ROLE_ARN|CONTAINER|SHARED|CONFIG)/.test(
            k,
          ) && !['LOGLAKE_ALERT_EMAIL', 'LOGLAKE_TF_COMMAND', 'TERRAFORM_BINARY_NAME'].includes(k),
      ),
    );
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'packages/lab/src/cli.ts', 'deploy'], {
      cwd: REPO_ROOT,
      env: { ...env, PATH: bin, HOME: home('child') },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'pnpm lab deploy did not start cdktf, so nothing was deployed. Fix these 3 first:',
    );
    expect(r.stderr).toContain('1. terraform 1.9.8 is older than 1.10.0');
    expect(r.stderr).toContain("2. the lab's alert subscription has no address");
    expect(r.stderr).toContain('3. no AWS credentials for Terraform to use');
    // cdktf never started: the command it would have run is not printed.
    expect(r.stdout).not.toContain('npx cdktf deploy');
    expect(r.stderr).not.toMatch(/\.(js|ts):\d+:\d+/);
  }, 120_000);
});
