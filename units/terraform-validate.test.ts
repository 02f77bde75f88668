// `terraform validate` over every synthesized stack with the machine's Terraform and a mirrored AWS provider (no
// network). Skips, saying why, where the machine has neither. The provider in a mirror may be older than the stacks'
// pin: its diagnostics for newer arguments are listed in stacks/lib/provider-version.ts, each with the release that
// introduced it; anything else fails the test.
import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AWS_PROVIDER_VERSION,
  type TerraformJson,
  findToolchain,
  validateStack,
  type StackValidation,
} from '@loglake/stacks/testing';
import { resolveLab } from './index';
import { appCommand, cdktfAppEnv, REPO_ROOT } from './lib/app-command';

const toolchain = findToolchain();
const missing = 'missing' in toolchain ? toolchain.missing : undefined;
if (missing) console.log(`terraform validate tests skipped: ${missing}`);
const maybe = missing ? describe.skip : describe;

maybe('terraform validate of every synthesized stack (machine Terraform, mirrored AWS provider)', () => {
  const tc = toolchain as Exclude<typeof toolchain, { missing: string }>;
  const work = mkdtempSync(join(tmpdir(), 'loglake-validate-'));
  let stacks: Record<string, TerraformJson> = {};

  /** Every stack of the lab, synthesized as `cdktf synth` does, with `variant` added to the environment. */
  const synthAll = (variant: Record<string, string> = {}): Record<string, TerraformJson> => {
    const out = join(work, `cdktf.out-${Object.keys(variant).join('-') || 'local'}`);
    const r = spawnSync(appCommand(), {
      shell: true,
      cwd: REPO_ROOT,
      env: {
        ...cdktfAppEnv(out),
        CHECKPOINT_DISABLE: '1',
        LOGLAKE_TF_COMMAND: 'validate',
        LOGLAKE_ALERT_EMAIL: 'data-eng@loglake.dev',
        ...variant,
      },
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`synth failed: ${r.stderr}`);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
      stacks: Record<string, { synthesizedStackPath: string }>;
    };
    return Object.fromEntries(
      Object.entries(manifest.stacks).map(([name, s]) => [
        name,
        JSON.parse(readFileSync(join(out, s.synthesizedStackPath), 'utf8')) as TerraformJson,
      ]),
    );
  };

  const describeResult = (name: string, r: StackValidation) =>
    `${name}: ${r.valid ? 'valid' : 'INVALID'} after ${r.runs} run(s); expected with provider ${tc.awsVersion}: ${
      r.expected.map((e) => `${e.feature.what} (since ${e.feature.introducedIn})`).join(', ') || 'none'
    }${r.unexpected.length ? `; unexpected: ${r.unexpected.map((d) => `${d.summary}: ${d.detail}`).join(' | ')}` : ''}`;

  // The variants the stacks synthesize differently: the backend and its state probes (LAB_STATE_BUCKET).
  const VARIANTS: ReadonlyArray<{ name: string; env: Record<string, string> }> = [
    { name: 'local state backend', env: {} },
    { name: 'S3 state backend (LAB_STATE_BUCKET)', env: { LAB_STATE_BUCKET: 'loglake-example-state' } },
  ];

  test.each(VARIANTS)(
    `every stack validates with hashicorp/aws from the mirror (the stacks pin ${AWS_PROVIDER_VERSION}): $name`,
    async ({ name: variant, env }) => {
      const synthesized = synthAll(env);
      if (variant === VARIANTS[0]!.name) stacks = synthesized;
      if (Object.keys(env).length > 0)
        // The variant is what it claims: every upstream probes its state object in the bucket.
        expect(JSON.stringify(synthesized)).toContain('loglake-example-state');
      const lab = await resolveLab({ env: {} });
      expect(Object.keys(synthesized).sort()).toEqual([...lab.order].sort());
      const results: string[] = [];
      const names = Object.keys(synthesized);
      // Two at a time: each validate loads the provider binary (~0.7 GB) and its schema.
      for (let i = 0; i < names.length; i += 2) {
        const batch = names.slice(i, i + 2);
        const done = await Promise.all(
          batch.map((n) => validateStack(synthesized[n]!, tc, join(work, `${variant.length}-${n}`))),
        );
        done.forEach((r, k) => {
          const line = describeResult(batch[k]!, r);
          results.push(line);
          expect({ stack: batch[k], unexpected: r.unexpected, valid: r.valid }).toEqual({
            stack: batch[k],
            unexpected: [],
            valid: true,
          });
        });
      }
      console.log(
        [
          `terraform validate (${variant}) with ${tc.terraform}, hashicorp/aws ${tc.awsVersion} from ${tc.mirror}:`,
          ...results,
        ].join('\n'),
      );
    },
    300_000,
  );

  test("it can fail: the table bucket without an explicit kms_key_arn (today's first deploy error) is reported", async () => {
    if (Object.keys(stacks).length === 0) stacks = synthAll();
    const broken = structuredClone(stacks['table-bucket']!);
    for (const bucket of Object.values(broken.resource!.aws_s3tables_table_bucket!))
      delete (bucket.encryption_configuration as Record<string, unknown>).kms_key_arn;
    const r = await validateStack(broken, tc, join(work, 'broken-table-bucket'));
    expect(r.valid).toBe(false);
    expect(r.unexpected.map((d) => d.detail).join('\n')).toContain('attribute "kms_key_arn" is required');
    rmSync(work, { recursive: true, force: true });
  }, 300_000);
});
