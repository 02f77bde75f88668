// Every ARN the stacks write takes its partition from data.aws_partition (aws, aws-cn, aws-us-gov): no literal
// `arn:aws:` in any synthesized stack (apply mode: no mock outputs, which are examples).
import { afterAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildLab } from '@loglake/stacks';
import { resolveLab } from './index';

const outdir = mkdtempSync(join(tmpdir(), 'loglake-partition-'));
const address = process.env.LOGLAKE_ALERT_EMAIL;
afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
  if (address === undefined) delete process.env.LOGLAKE_ALERT_EMAIL;
  else process.env.LOGLAKE_ALERT_EMAIL = address;
});

describe('partition', () => {
  test('no synthesized stack writes arn:aws: — each ARN uses data.aws_partition', async () => {
    // The unit file reads the address from the environment when it is loaded.
    process.env.LOGLAKE_ALERT_EMAIL = 'data-eng@loglake.dev';
    const lab = await resolveLab({ env: {} });
    const { app, stacks } = await buildLab(lab, { outdir, command: 'apply' });
    app.synth();
    const literal: string[] = [];
    const withPartition: string[] = [];
    for (const name of stacks.keys()) {
      const text = readFileSync(join(outdir, 'stacks', name, 'cdk.tf.json'), 'utf8');
      for (const m of text.matchAll(/arn:aws:[^"\\]*/g)) literal.push(`${name}: ${m[0]}`);
      if (text.includes('arn:${data.aws_partition.partition.partition}:')) withPartition.push(name);
    }
    expect(literal).toEqual([]);
    expect(withPartition).toEqual(
      expect.arrayContaining(['s3tables-integration', 'analyst', 'firehose', 'snapshots']),
    );
  }, 120_000);
});
