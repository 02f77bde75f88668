import { describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolveLab } from '@loglake/units';
import { describeOrder, findTerraform, planInfra, runInfra } from './infra';

describe('pnpm lab order|synth|plan|deploy|destroy', () => {
  test('plan synthesizes in plan mode (mocks allowed), then diffs each stack in dependency order', async () => {
    const lab = await resolveLab({ env: {} });
    const plan = planInfra('plan', lab, ['ref-data', 'firehose', 'table-bucket']);
    // Dependency order (the analyst unit, which depends on ref-data, brings ref-data before firehose).
    expect(plan.order).toEqual(['table-bucket', 'ref-data', 'firehose']);
    expect(planInfra('plan', lab, []).order).toEqual(lab.order);
    expect(plan.steps.map((s) => s.argv.join(' '))).toEqual([
      'synth',
      'diff table-bucket --skip-synth',
      'diff ref-data --skip-synth',
      'diff firehose --skip-synth',
    ]);
    for (const s of plan.steps)
      expect(s.env).toEqual({ CHECKPOINT_DISABLE: '1', LOGLAKE_TF_COMMAND: 'plan' });
  });

  test('deploy runs in dependency order as apply (mocks refused); destroy in reverse', async () => {
    const lab = await resolveLab({ env: {} });
    const deploy = planInfra('deploy', lab, ['firehose', 'ref-data', 'table-bucket'], { autoApprove: true });
    // Some units only: their producers are read from remote state, so cdktf need not deploy them too.
    expect(deploy.steps).toEqual([
      {
        argv: [
          'deploy',
          'table-bucket',
          'ref-data',
          'firehose',
          '--ignore-missing-stack-dependencies',
          '--auto-approve',
        ],
        env: { CHECKPOINT_DISABLE: '1', LOGLAKE_TF_COMMAND: 'apply' },
      },
    ]);
    const destroy = planInfra('destroy', lab, ['table-bucket', 'ref-data', 'firehose']);
    expect(destroy.steps).toEqual([
      {
        argv: ['destroy', 'firehose', 'ref-data', 'table-bucket'],
        env: { CHECKPOINT_DISABLE: '1', LOGLAKE_TF_COMMAND: 'destroy' },
      },
    ]);
    expect(describeOrder(lab, 'destroy', destroy.order)).toContain('3. table-bucket');
    // Deploying every unit also writes the outputs file the aws target reads.
    expect(planInfra('deploy', lab, []).steps[0]?.argv).toEqual([
      'deploy',
      ...lab.order,
      '--outputs-file',
      '.lab/cdktf-outputs.json',
    ]);
    // The whole lab: the region's integration, then table-bucket, deployed first; table-bucket destroyed last.
    expect(planInfra('deploy', lab, []).order.slice(0, 2)).toEqual(['s3tables-integration', 'table-bucket']);
    expect(planInfra('destroy', lab, []).order.at(-1)).toBe('table-bucket');
  });

  test('destroy leaves the region-level integration in place unless asked for with --include-regional', async () => {
    const lab = await resolveLab({ env: {} });
    const destroy = planInfra('destroy', lab, []);
    expect(destroy.order).not.toContain('s3tables-integration');
    expect(destroy.order).toEqual([...lab.labUnits].reverse());
    expect(destroy.steps[0]?.env).not.toHaveProperty('LOGLAKE_CONFIRM_DESTROY');
    expect(describeOrder(lab, 'destroy', destroy.order)).toContain(
      'left in place: s3tables-integration (region level, shared with other labs; --include-regional destroys it too)',
    );
    expect(() => planInfra('destroy', lab, ['s3tables-integration'])).toThrow(
      'Add --include-regional to mean it',
    );
    const all = planInfra('destroy', lab, [], { includeRegional: true });
    expect(all.order.at(-1)).toBe('s3tables-integration');
    expect(all.steps[0]?.env).toMatchObject({ LOGLAKE_CONFIRM_DESTROY: 's3tables-integration' });
    expect(describeOrder(lab, 'deploy', lab.order)).toContain(
      's3tables-integration  sandbox/us-east-1/_regional/s3tables-integration [region level]',
    );
  });

  test('an unknown unit is refused with the list of units', async () => {
    const lab = await resolveLab({ env: {} });
    expect(() => planInfra('deploy', lab, ['snapshotz'])).toThrow(
      `unknown unit snapshotz; the lab's units are ${lab.order.join(', ')}`,
    );
  });

  test('finds terraform or tofu on PATH without running them', () => {
    const empty = mkdtempSync(`${tmpdir()}/nopath-`);
    expect(findTerraform(empty)).toBeUndefined();
    rmSync(empty, { recursive: true });
  });

  test('deploy without a terraform/tofu binary says what is missing and fails; nothing is claimed', async () => {
    const empty = mkdtempSync(`${tmpdir()}/nopath-`);
    const credentials = async () => ({ accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'x' });
    await expect(runInfra('deploy', [], { credentials }, { PATH: empty })).rejects.toThrow(
      'no terraform or tofu binary on PATH: install Terraform >= 1.10 or OpenTofu >= 1.10',
    );
    await expect(runInfra('deploy', [], { credentials }, { PATH: empty })).rejects.toThrow(
      'pnpm lab deploy did not start cdktf, so nothing was deployed',
    );
    rmSync(empty, { recursive: true });
  });
});
