// Plain cdktf, run by hand as the README shows (no LOGLAKE_TF_COMMAND, no LOGLAKE_ALERT_EMAIL), as real child
// processes: list, synth and diff go through (diff up to the provider download, which this offline machine cannot
// make), deploy stops at synth with the lab policy's message and no stack trace, before Terraform runs.
import { afterAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { stripVTControlCharacters } from 'node:util';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cdktfRunsOnThisNode } from './node-runtime.mjs';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

const work = mkdtempSync(join(tmpdir(), 'loglake-by-hand-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
// Terraform may only use a local mirror: an init fails at once instead of reaching for the registry.
const rc = join(work, 'terraform.rc');
writeFileSync(
  rc,
  'provider_installation {\n  filesystem_mirror {\n    path = "/nonexistent"\n    include = ["registry.terraform.io/hashicorp/aws"]\n  }\n  direct { exclude = ["registry.terraform.io/hashicorp/aws"] }\n}\n',
);
const env = Object.fromEntries(
  Object.entries({ ...process.env, CHECKPOINT_DISABLE: '1', TF_CLI_CONFIG_FILE: rc, CI: '1' }).filter(
    ([k]) => !['LOGLAKE_TF_COMMAND', 'LOGLAKE_ALERT_EMAIL', 'LAB_STATE_BUCKET', 'NODE_OPTIONS'].includes(k),
  ),
) as NodeJS.ProcessEnv;

// cdktf-cli 0.21 cannot start on Node 24 (its node-pty has no build for ABI 137); there the README tells a by-hand
// user to launch it through the wrapper, which runs it on Node 22. Elsewhere it is run exactly as typed.
const CDKTF = join(REPO_ROOT, 'node_modules', '.bin', 'cdktf');
const launch: [string, string[]] = cdktfRunsOnThisNode(REPO_ROOT)
  ? [CDKTF, []]
  : [process.execPath, [join(REPO_ROOT, 'scripts', 'supported-node.mjs'), '--cdktf', CDKTF]];
if (launch[0] !== CDKTF)
  console.warn(`cdktf-by-hand: Node ${process.versions.node} cannot run cdktf itself; through the wrapper`);

function cdktf(...args: string[]): { status: number | null; out: string } {
  const r = spawnSync(launch[0], [...launch[1], ...args, '--output', join(work, args[0]!)], {
    cwd: REPO_ROOT,
    env,
    encoding: 'utf8',
    timeout: 240_000,
  });
  // The CLI's spinner and colours aside.
  const out = stripVTControlCharacters(`${r.stdout}${r.stderr}`);
  return { status: r.status, out };
}

/** What a stack trace in cdktf's output looks like (file:line:column frames). */
const FRAME = /\.(js|ts|mjs):\d+:\d+/;

describe('cdktf by hand, without LOGLAKE_ALERT_EMAIL', () => {
  test('cdktf list works: every stack, and the missing address as a warning', () => {
    const r = cdktf('list');
    expect(r.status).toBe(0);
    for (const stack of [
      's3tables-integration',
      'table-bucket',
      'ref-data',
      'analyst',
      'firehose',
      'snapshots',
    ])
      expect(r.out).toContain(stack);
    expect(r.out).toContain('WARN [table-bucket/alerts-email]: lab policy');
    expect(r.out).not.toMatch(FRAME);
  }, 240_000);

  test('cdktf synth works', () => {
    const r = cdktf('synth');
    expect(r.status).toBe(0);
    expect(r.out).not.toContain('ERROR [');
    expect(r.out).not.toMatch(FRAME);
  }, 240_000);

  test('cdktf diff <stack> gets past synth to Terraform (here: up to the provider it cannot download)', () => {
    const r = cdktf('diff', 'table-bucket');
    expect(r.out).not.toContain('ERROR [');
    expect(r.out).toContain('Initializing the backend');
  }, 240_000);

  test('cdktf deploy refuses at synth with the message alone (no stack trace), before Terraform runs', () => {
    const r = cdktf('deploy', 'table-bucket', '--auto-approve');
    expect(r.status).not.toBe(0);
    expect(r.out).toContain(
      'ERROR [table-bucket/alerts-email]: lab policy: aws_sns_topic_subscription.alerts-email has no address',
    );
    expect(r.out).toContain("set the unit's alertEmail (LOGLAKE_ALERT_EMAIL) to a real address");
    expect(r.out).not.toMatch(FRAME);
    expect(r.out).not.toContain('Initializing the backend');
  }, 240_000);
});
