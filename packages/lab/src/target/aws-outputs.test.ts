import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveLab } from '@loglake/units';
import { DEPLOYED_OUTPUTS } from '../../test/support/deployed-outputs';
import { outputsCommand, readDeployedNames } from './aws-outputs';

const UNITS = ['s3tables-integration', 'table-bucket', 'ref-data', 'analyst', 'firehose', 'snapshots'];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lab-outputs-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readDeployedNames', () => {
  test('collects names across the stacks of a cdktf outputs file', () => {
    const file = join(dir, 'ok.json');
    writeFileSync(file, JSON.stringify(DEPLOYED_OUTPUTS));
    expect(readDeployedNames(file, UNITS)).toMatchObject({
      tableBucketName: 'loglake-01-flow-logs',
      streamName: 'loglake-01-vpc-flow-logs',
      workgroup: 'loglake-01',
      sqlNamespaces: ['ref', 'enriched', 'lab'],
      // The roles the lab acts as, from the stacks that output them (the snapshots unit is not deployed here).
      roles: {
        firehose: 'arn:aws:iam::123456789012:role/loglake-01-firehose',
        analyst: 'arn:aws:iam::123456789012:role/loglake-01-analyst',
      },
    });
  });

  test('the failed-rows alarm and the alerts topic when deployed; absent, not an error, from stacks that predate them', () => {
    const file = join(dir, 'alarm.json');
    writeFileSync(file, JSON.stringify(DEPLOYED_OUTPUTS));
    expect(readDeployedNames(file, UNITS)).toMatchObject({
      failedRowsAlarmName: 'loglake-01-firehose-failed-rows',
      alertsTopicArn: 'arn:aws:sns:us-east-1:123456789012:loglake-01-alerts',
    });
    const older = join(dir, 'older.json');
    const { alerts_topic_arn: _topic, ...tableBucket } = DEPLOYED_OUTPUTS['table-bucket'];
    const { failed_rows_alarm_name: _alarm, ...firehose } = DEPLOYED_OUTPUTS.firehose;
    writeFileSync(older, JSON.stringify({ ...DEPLOYED_OUTPUTS, 'table-bucket': tableBucket, firehose }));
    const names = readDeployedNames(older, UNITS);
    expect([names.failedRowsAlarmName, names.alertsTopicArn]).toEqual([undefined, undefined]);
  });

  test('not deployed: says which cdktf deploy to run', () => {
    expect(() => readDeployedNames(join(dir, 'missing.json'), UNITS)).toThrow(
      /pnpm lab deploy.*npx cdktf output s3tables-integration table-bucket ref-data analyst firehose snapshots --outputs-file/,
    );
  });

  test('a missing stack is named', () => {
    const file = join(dir, 'partial.json');
    writeFileSync(file, JSON.stringify({ firehose: { stream_name: 's', error_bucket_name: 'e' } }));
    expect(() => readDeployedNames(file, UNITS)).toThrow(/no table_bucket_name/);
  });
});

describe('the `cdktf output` command that writes the outputs file', () => {
  test("names every unit of the lab in the lab's order, the same in both READMEs as in the hint", async () => {
    const lab = await resolveLab();
    const command = outputsCommand('.lab/cdktf-outputs.json', lab.order);
    expect(command).toBe(
      `LOGLAKE_TF_COMMAND=output npx cdktf output ${lab.order.join(' ')} --outputs-file .lab/cdktf-outputs.json`,
    );
    for (const readme of ['../../../../README.md', '../../README.md']) {
      const text = readFileSync(fileURLToPath(new URL(readme, import.meta.url)), 'utf8');
      const written = [...text.matchAll(/npx cdktf output ([a-z0-9 -]+?) --outputs-file/g)].map((m) => m[1]);
      expect(written.length).toBeGreaterThan(0);
      for (const units of written) expect(units).toBe(lab.order.join(' '));
    }
  });
});
