import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveLab } from './index';
import { appCommand, cdktfAppEnv, REPO_ROOT } from './lib/app-command';

describe('resolveLab on the live tree', () => {
  test('a typed, resolved view of every unit (what the offline lab provisions from)', async () => {
    const lab = await resolveLab({ env: {} });
    expect(lab).toMatchObject({
      labId: '01',
      labName: 's3-tables-log-lake',
      env: 'sandbox',
      region: 'us-east-1',
      namePrefix: 'loglake-01',
      path: 'sandbox/us-east-1/01-s3-tables-log-lake',
    });
    // Producers first: the region-level integration, then the lab's table bucket; other units (e.g. snapshots) slot
    // in after what they depend on.
    expect(lab.order.slice(0, 2)).toEqual(['s3tables-integration', 'table-bucket']);
    expect(lab.order).toEqual(expect.arrayContaining(['table-bucket', 'firehose', 'ref-data']));
    expect(lab.regionalUnits).toEqual(['s3tables-integration']);
    expect(lab.labUnits).toEqual(lab.order.filter((u) => u !== 's3tables-integration'));
    const integration = lab.units['s3tables-integration'];
    expect(integration).toMatchObject({
      level: 'region',
      path: 'sandbox/us-east-1/_regional/s3tables-integration',
      namePrefix: 'loglake',
      labId: '',
      inputs: { mode: 'create', catalogName: 's3tablescatalog' },
    });
    expect(integration.tags.lab).toBeUndefined();
    expect(lab.units['table-bucket'].dependencies.map((d) => d.unit)).toEqual(['s3tables-integration']);
    const tb = lab.units['table-bucket'].inputs;
    expect(tb.bucketName).toBe('loglake-01-flow-logs');
    expect(tb.namespace).toBe('network');
    expect(tb.table.name).toBe('vpc_flow_logs');
    expect(tb.table.columns).toHaveLength(14);
    expect(tb.workgroup).toEqual({
      name: 'loglake-01',
      bytesScannedCutoffPerQuery: 1073741824,
      engineVersion: 'Athena engine version 3',
    });
    expect(tb.maintenance).toEqual({
      compactionTargetFileSizeMb: 512,
      minSnapshotsToKeep: 1,
      maxSnapshotAgeHours: 120,
    });
    expect(lab.units.firehose.inputs.buffering).toEqual({ sizeMb: 1, intervalSeconds: 60 });
    expect(lab.units['ref-data'].inputs.namespaces).toEqual(['ref', 'enriched', 'lab']);
    expect(lab.units.firehose.dependencies.map((d) => d.unit)).toEqual(['table-bucket']);
  });

  test('an unknown lab id says which labs exist', async () => {
    await expect(resolveLab({ labId: '07' })).rejects.toThrow('no lab with id 07 in units/ (labs: 01)');
  });
});

describe('cdktf app entry (units/main.ts, run as `cdktf synth` runs cdktf.json app)', () => {
  function synth(env: Record<string, string>): { status: number | null; stderr: string; out: string } {
    const out = mkdtempSync(join(tmpdir(), 'loglake-synth-'));
    const r = spawnSync(appCommand(), {
      shell: true,
      cwd: REPO_ROOT,
      env: { ...cdktfAppEnv(out), CHECKPOINT_DISABLE: '1', ...env },
      encoding: 'utf8',
    });
    return { status: r.status, stderr: r.stderr, out };
  }

  type Manifest = {
    stacks: Record<string, { dependencies: string[]; annotations: { level: string; message: string }[] }>;
  };
  const errorsIn = (m: Manifest) =>
    Object.values(m.stacks).flatMap((st) => st.annotations.filter((a) => a.level === '@cdktf/error'));

  test('synthesizes stacks table-bucket, firehose, ref-data with the dependency graph in the manifest', async () => {
    const r = synth({ LOGLAKE_TF_COMMAND: '', LOGLAKE_ALERT_EMAIL: 'data-eng@loglake.dev' });
    try {
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const manifest = JSON.parse(readFileSync(join(r.out, 'manifest.json'), 'utf8')) as Manifest;
      // The lab policy ran over every stack (cdktf-cli fails the synth on an error annotation) and found nothing.
      expect(errorsIn(manifest)).toEqual([]);
      expect(Object.keys(manifest.stacks)).toEqual(
        expect.arrayContaining(['firehose', 'ref-data', 'table-bucket']),
      );
      // Every unit is a stack (stack id = unit name).
      expect(Object.keys(manifest.stacks).sort()).toEqual([...(await resolveLab({ env: {} })).order].sort());
      expect(manifest.stacks['s3tables-integration']!.dependencies).toEqual([]);
      expect(manifest.stacks['table-bucket']!.dependencies).toEqual(['s3tables-integration']);
      expect(manifest.stacks.firehose!.dependencies).toEqual(['table-bucket']);
      expect(manifest.stacks['ref-data']!.dependencies).toEqual(['table-bucket']);
      const firehose = JSON.parse(readFileSync(join(r.out, 'stacks/firehose/cdk.tf.json'), 'utf8')) as {
        data: Record<string, unknown>;
      };
      expect(Object.keys(firehose.data)).toContain('terraform_remote_state');
    } finally {
      rmSync(r.out, { recursive: true, force: true });
    }
  });

  test('synth for apply without an alert address is refused by the lab policy (cdktf-cli fails on the annotation); a plan or a destroy only warns', () => {
    for (const [command, level] of [
      ['', '@cdktf/error'],
      ['plan', '@cdktf/warn'],
      ['destroy', '@cdktf/warn'],
    ] as const) {
      const r = synth({ LOGLAKE_TF_COMMAND: command, LOGLAKE_ALERT_EMAIL: '' });
      try {
        const manifest = JSON.parse(readFileSync(join(r.out, 'manifest.json'), 'utf8')) as Manifest;
        const alerts = manifest.stacks['table-bucket']!.annotations.filter((a) =>
          a.message.includes('LOGLAKE_ALERT_EMAIL'),
        );
        expect(alerts.map((a) => a.level)).toEqual([level]);
        if (level === '@cdktf/warn') expect(errorsIn(manifest)).toEqual([]);
      } finally {
        rmSync(r.out, { recursive: true, force: true });
      }
    }
  });

  test('a wrong LOGLAKE_TF_COMMAND stops synth with the value and the fix', () => {
    const r = synth({ LOGLAKE_TF_COMMAND: 'deploy' });
    rmSync(r.out, { recursive: true, force: true });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('LOGLAKE_TF_COMMAND="deploy" is not a Terraform command');
  });
});
