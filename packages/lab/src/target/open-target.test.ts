import { describe, test, expect } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListTableBucketsCommand } from '@aws-sdk/client-s3tables';
import { GetWorkGroupCommand } from '@aws-sdk/client-athena';
import { DescribeDeliveryStreamCommand } from '@aws-sdk/client-firehose';
import { DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { startLocalEndpoint } from '@loglake/local-aws';
import { resolveLab } from '@loglake/units';
import { DEPLOYED_OUTPUTS } from '../../test/support/deployed-outputs';
import { openTarget, parseTargetKind, resourcesFromUnits } from './open-target';

describe('openTarget', () => {
  test('an unknown target is refused with the valid ones', () => {
    expect(() => parseTargetKind('prod')).toThrow(
      /--target prod is not a target. Use --target local .* or --target aws/,
    );
    expect(parseTargetKind(undefined)).toBe('local');
  });

  test('aws without deployed outputs says which cdktf deploy to run', async () => {
    await expect(
      openTarget({ target: 'aws', outputsFile: join(tmpdir(), 'no-such-outputs.json') }),
    ).rejects.toThrow(
      /pnpm lab deploy.*npx cdktf output s3tables-integration table-bucket ref-data analyst firehose.* --outputs-file/,
    );
  });

  test('aws: names come from the --outputs-file given, and the target remembers that file for later steps', async () => {
    // Prepare
    const dir = mkdtempSync(join(tmpdir(), 'lab-outputs-'));
    const file = join(dir, 'outputs.json');
    writeFileSync(file, JSON.stringify(DEPLOYED_OUTPUTS));
    // Act (opening makes no AWS call)
    const target = await openTarget({ target: 'aws', outputsFile: file });
    try {
      // Assess
      expect(target.outputsFile).toBe(file);
      expect(target.localUrl).toBeUndefined();
      expect(target.banner[0]).toContain(`names from ${file}`);
      expect(target.resources.streamName).toBe('loglake-01-vpc-flow-logs');
      // The alarm as deployed: its name and the topic from the outputs.
      expect(target.resources.failedRowsAlarm).toMatchObject({
        AlarmName: 'loglake-01-firehose-failed-rows',
        Dimensions: [{ Name: 'DeliveryStreamName', Value: 'loglake-01-vpc-flow-logs' }],
        AlarmActions: ['arn:aws:sns:us-east-1:123456789012:loglake-01-alerts'],
      });
    } finally {
      await target.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('local: loopback endpoint only, provisioned from the units (bucket, stream buffering, workgroup cutoff)', async () => {
    // Prepare
    const dir = mkdtempSync(join(tmpdir(), 'lab-target-'));
    const units = resourcesFromUnits(await resolveLab(), '123456789012');
    // Act
    const target = await openTarget({ target: 'local', dataDir: dir, bufferIntervalSeconds: 3 });
    try {
      // Assess
      expect(target.localUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const endpoint = await target.athena.config.endpoint?.();
      expect(endpoint?.hostname).toBe('127.0.0.1');
      expect(target.banner.join('\n')).toMatch(/shortened from the unit's 60 s by --buffer-interval/);
      const buckets = await target.s3tables.send(new ListTableBucketsCommand({}));
      expect(buckets.tableBuckets?.map((b) => b.name)).toEqual([units.tableBucketName]);
      const stream = await target.firehose.send(
        new DescribeDeliveryStreamCommand({ DeliveryStreamName: units.streamName }),
      );
      const hints =
        stream.DeliveryStreamDescription?.Destinations?.[0]?.IcebergDestinationDescription?.BufferingHints;
      expect(hints).toEqual({
        SizeInMBs: units.buffering.sizeMb,
        IntervalInSeconds: units.buffering.intervalSeconds,
      });
      const wg = await target.athena.send(new GetWorkGroupCommand({ WorkGroup: units.workgroup }));
      expect(wg.WorkGroup?.Configuration?.BytesScannedCutoffPerQuery).toBe(units.bytesScannedCutoff);
      // The firehose unit's alarm, as the stack deploys it, notifying the lab's alerts topic.
      const alarms = await target.cloudwatch.send(
        new DescribeAlarmsCommand({ AlarmNames: ['loglake-01-firehose-failed-rows'] }),
      );
      expect(alarms.MetricAlarms?.[0]).toMatchObject({
        Namespace: 'AWS/Firehose',
        MetricName: 'DeliveryToIceberg.FailedRowCount',
        Dimensions: [{ Name: 'DeliveryStreamName', Value: units.streamName }],
        Statistic: 'Sum',
        Period: 60,
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
        TreatMissingData: 'notBreaching',
        AlarmActions: ['arn:aws:sns:us-east-1:123456789012:loglake-01-alerts'],
        OKActions: ['arn:aws:sns:us-east-1:123456789012:loglake-01-alerts'],
      });
      expect(target.banner.join('\n')).toContain('CloudWatch clock: adjustable');
    } finally {
      await target.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('local on a running endpoint (--endpoint-url): provisions there, stops nothing, refuses what is not one', async () => {
    // Prepare: a running endpoint, as `pnpm lab local` starts it
    const dir = mkdtempSync(join(tmpdir(), 'lab-running-'));
    const running = await startLocalEndpoint({ dataDir: dir });
    const units = resourcesFromUnits(await resolveLab(), '123456789012');
    try {
      // Act
      const target = await openTarget({ target: 'local', endpointUrl: running.url });
      await target.close();

      // Assess: the lab was provisioned there, and closing the target left the endpoint serving
      expect(target.localUrl).toBe(running.url);
      expect(target.banner.slice(0, 2)).toEqual([
        `target local: the running endpoint ${running.url} (no AWS account used)`,
        'authorization: off (the running endpoint serves every request)',
      ]);
      expect(target.authorized).toBe(false);
      expect(await fetch(`${running.url}/_local/health`).then((r) => r.json())).toMatchObject({ ok: true });
      await expect(openTarget({ endpointUrl: 'http://10.1.2.3:4566' })).rejects.toThrow(
        /not a local endpoint on loopback/,
      );
      await expect(openTarget({ endpointUrl: running.url, dataDir: dir })).rejects.toThrow(
        /belong to the running endpoint: give them to `pnpm lab local`/,
      );
      await expect(openTarget({ endpointUrl: 'http://127.0.0.1:1' })).rejects.toThrow(
        /No loglake local endpoint answers at http:\/\/127\.0\.0\.1:1/,
      );
      await expect(openTarget({ target: 'aws', endpointUrl: running.url })).rejects.toThrow(
        /use it with --target local/,
      );
      const reopened = await openTarget({ endpointUrl: running.url });
      try {
        const listed = await reopened.s3tables.send(new ListTableBucketsCommand({}));
        expect(listed.tableBuckets?.map((b) => b.name)).toEqual([units.tableBucketName]);
      } finally {
        await reopened.close();
      }
    } finally {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
