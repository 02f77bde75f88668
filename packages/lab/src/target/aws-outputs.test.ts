import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEPLOYED_OUTPUTS } from '../testing/deployed-outputs';
import { readDeployedNames } from './aws-outputs';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lab-outputs-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readDeployedNames', () => {
  test('collects names across the stacks of a cdktf outputs file', () => {
    const file = join(dir, 'ok.json');
    writeFileSync(file, JSON.stringify(DEPLOYED_OUTPUTS));
    expect(readDeployedNames(file)).toMatchObject({
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
    expect(readDeployedNames(file)).toMatchObject({
      failedRowsAlarmName: 'loglake-01-firehose-failed-rows',
      alertsTopicArn: 'arn:aws:sns:us-east-1:123456789012:loglake-01-alerts',
    });
    const older = join(dir, 'older.json');
    const { alerts_topic_arn: _topic, ...tableBucket } = DEPLOYED_OUTPUTS['table-bucket'];
    const { failed_rows_alarm_name: _alarm, ...firehose } = DEPLOYED_OUTPUTS.firehose;
    writeFileSync(older, JSON.stringify({ ...DEPLOYED_OUTPUTS, 'table-bucket': tableBucket, firehose }));
    const names = readDeployedNames(older);
    expect([names.failedRowsAlarmName, names.alertsTopicArn]).toEqual([undefined, undefined]);
  });

  test('not deployed: says which cdktf deploy to run', () => {
    expect(() => readDeployedNames(join(dir, 'missing.json'))).toThrow(
      /pnpm lab deploy.*npx cdktf output table-bucket firehose ref-data.* --outputs-file/,
    );
  });

  test('a missing stack is named', () => {
    const file = join(dir, 'partial.json');
    writeFileSync(file, JSON.stringify({ firehose: { stream_name: 's', error_bucket_name: 'e' } }));
    expect(() => readDeployedNames(file)).toThrow(/no table_bucket_name/);
  });
});
