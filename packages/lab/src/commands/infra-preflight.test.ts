import { afterAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveLab } from '@loglake/units';
import { REPO_ROOT } from '../target/open-target';
import { awsCredentialsProblem } from '../target/aws-credentials';
import { infraPreflight } from './infra-preflight';

const work = mkdtempSync(join(tmpdir(), 'loglake-preflight-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const home = (name: string, files: Record<string, string> = {}) => {
  const dir = join(work, name);
  mkdirSync(join(dir, '.aws'), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, '.aws', file), text);
  return dir;
};

describe('credentials: the AWS SDK default chain, the same check as every aws-target command', () => {
  test('a source that gives credentials is no problem; one that finds none is named with how to give them', async () => {
    expect(
      await awsCredentialsProblem(async () => ({ accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'x' })),
    ).toBe(undefined);
    const none = Object.assign(new Error('Could not load credentials from any providers'), {
      name: 'CredentialsProviderError',
    });
    const problem = await awsCredentialsProblem(async () => {
      throw none;
    });
    expect(problem).toMatch(
      /^needs AWS credentials and the AWS SDK's default chain found none \(CredentialsProviderError/,
    );
    expect(problem).toMatch(/aws sso login/);
    // Another failure of the chain (a malformed config file) is named as what it is.
    const broken = await awsCredentialsProblem(async () => {
      throw new SyntaxError('bad profile');
    });
    expect(broken).toContain("the AWS SDK's default chain failed (SyntaxError: bad profile)");
  });
});

describe('infraPreflight: everything missing, at once', () => {
  const keys = {};
  const someCredentials = async () => ({ accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'x' });
  const noCredentials = async () => {
    throw Object.assign(new Error('Could not load credentials from any providers'), {
      name: 'CredentialsProviderError',
    });
  };

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
        credentials: noCredentials,
      },
    );
    expect(problems).toHaveLength(3);
    expect(problems[0]).toContain('terraform 1.9.8 is older than 1.10.0');
    expect(problems[1]).toContain("the lab's alert subscription has no address: export LOGLAKE_ALERT_EMAIL=");
    expect(problems[2]).toContain(
      "Terraform needs AWS credentials and the AWS SDK's default chain found none",
    );
  });

  test('what each command needs: plan and destroy need no alert address; a deploy without table-bucket neither', async () => {
    const lab = await resolveLab({ env: {} });
    const ok = { binary: 'tofu', version: async () => '1.10.2', credentials: someCredentials };
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
      env: { ...env, PATH: bin, HOME: home('child'), AWS_EC2_METADATA_DISABLED: 'true' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'pnpm lab deploy did not start cdktf, so nothing was deployed. Fix these 3 first:',
    );
    expect(r.stderr).toContain('1. terraform 1.9.8 is older than 1.10.0');
    expect(r.stderr).toContain("2. the lab's alert subscription has no address");
    expect(r.stderr).toMatch(
      /3\. Terraform needs AWS credentials and the AWS SDK's default chain found none \(CredentialsProviderError/,
    );
    // cdktf never started: the command it would have run is not printed.
    expect(r.stdout).not.toContain('npx cdktf deploy');
    expect(r.stderr).not.toMatch(/\.(js|ts):\d+:\d+/);
  }, 120_000);
});
