// CloudWatch in the two other protocols its model lists, each spoken by the AWS SDK v3 client itself (its
// `protocol` option): awsQuery (form posts, XML replies: what the AWS CLI v2 and Terraform's provider 5.x send) and
// Smithy RPC v2 CBOR (what newer SDKs send). The same metrics, alarms and tags as the JSON protocol, the same
// errors with their awsQuery codes, and a gzip-compressed PutMetricData (the model's @requestCompression).
import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AwsQueryProtocol, AwsSmithyRpcV2CborProtocol } from '@aws-sdk/core/protocols';
import {
  CloudWatchClient,
  DeleteAlarmsCommand,
  DescribeAlarmsCommand,
  InvalidParameterValueException,
  ListMetricsCommand,
  ListTagsForResourceCommand,
  PutMetricAlarmCommand,
  PutMetricDataCommand,
  ResourceNotFoundException,
  TagResourceCommand,
  UntagResourceCommand,
} from '@aws-sdk/client-cloudwatch';
import { startLocalEndpoint, type LocalEndpoint } from '../server';
import { localClientConfig } from '../client-config';
import { MemoryWarehouse } from '../../test/support/memory-warehouse';

const ARN = (name: string) => `arn:aws:cloudwatch:us-east-1:123456789012:alarm:${name}`;

describe.each([
  ['awsQuery', AwsQueryProtocol],
  ['rpcv2Cbor', AwsSmithyRpcV2CborProtocol],
] as const)('CloudWatch over loopback in %s (the AWS SDK v3 client speaking it)', (name, protocol) => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let cw: CloudWatchClient;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `local-cloudwatch-${name}-`));
    endpoint = await startLocalEndpoint({
      dataDir: dir,
      engine: { openWarehouse: async () => new MemoryWarehouse() },
    });
    cw = new CloudWatchClient({
      ...localClientConfig(endpoint.url),
      protocol,
      // The SDK's CBOR client (3.1127) never sends a compressed body (the call hangs before the request leaves):
      // compression is tested over awsQuery, where the SDK gzips it.
      disableRequestCompression: name === 'rpcv2Cbor',
    });
  });
  afterAll(async () => {
    cw.destroy();
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('metrics in (a large, gzip-compressed put among them) and listed page by page', async () => {
    await cw.send(
      new PutMetricDataCommand({
        Namespace: 'Lab/Protocols',
        MetricData: [{ MetricName: 'Records', Value: 3 }],
      }),
    );
    // Over the SDK's 10 KiB threshold: the body goes out gzip-compressed (Content-Encoding: gzip).
    const many = Array.from({ length: 400 }, (_, i) => ({
      MetricName: 'Bytes',
      Dimensions: [{ Name: 'Stream', Value: `stream-${i % 4}` }],
      Value: i,
      Timestamp: new Date(Date.now() - i * 1000),
    }));
    await cw.send(new PutMetricDataCommand({ Namespace: 'Lab/Protocols', MetricData: many }));
    const first = await cw.send(new ListMetricsCommand({ Namespace: 'Lab/Protocols' }));
    const names = first.Metrics?.map(
      (m) => `${m.MetricName}${m.Dimensions?.map((d) => `:${d.Value}`).join('') ?? ''}`,
    );
    expect(names?.sort()).toEqual([
      'Bytes:stream-0',
      'Bytes:stream-1',
      'Bytes:stream-2',
      'Bytes:stream-3',
      'Records',
    ]);
  });

  test('an alarm with tags: described with its dates, tagged and untagged, deleted', async () => {
    await cw.send(
      new PutMetricAlarmCommand({
        AlarmName: `alarm-${name}`,
        Namespace: 'Lab/Protocols',
        MetricName: 'Records',
        Dimensions: [{ Name: 'Stream', Value: 'flows' }],
        Statistic: 'Sum',
        Period: 60,
        EvaluationPeriods: 1,
        Threshold: 10,
        ComparisonOperator: 'GreaterThanThreshold',
        AlarmActions: ['arn:aws:sns:us-east-1:123456789012:alerts'],
        Tags: [{ Key: 'lab', Value: '01' }],
      }),
    );
    const { MetricAlarms } = await cw.send(new DescribeAlarmsCommand({ AlarmNames: [`alarm-${name}`] }));
    const alarm = MetricAlarms?.[0];
    expect(alarm).toMatchObject({
      AlarmName: `alarm-${name}`,
      AlarmArn: ARN(`alarm-${name}`),
      Threshold: 10,
      StateValue: 'INSUFFICIENT_DATA',
      AlarmActions: ['arn:aws:sns:us-east-1:123456789012:alerts'],
      Dimensions: [{ Name: 'Stream', Value: 'flows' }],
    });
    expect(alarm?.StateUpdatedTimestamp).toBeInstanceOf(Date);
    expect(Math.abs((alarm?.StateUpdatedTimestamp?.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);

    const tags = async () =>
      (await cw.send(new ListTagsForResourceCommand({ ResourceARN: ARN(`alarm-${name}`) }))).Tags;
    expect(await tags()).toEqual([{ Key: 'lab', Value: '01' }]);
    await cw.send(
      new TagResourceCommand({
        ResourceARN: ARN(`alarm-${name}`),
        Tags: [{ Key: 'owner', Value: 'data-eng' }],
      }),
    );
    await cw.send(new UntagResourceCommand({ ResourceARN: ARN(`alarm-${name}`), TagKeys: ['lab'] }));
    expect(await tags()).toEqual([{ Key: 'owner', Value: 'data-eng' }]);
    // PutMetricAlarm on an existing alarm ignores its Tags (API reference): only TagResource/UntagResource change them.
    await cw.send(
      new PutMetricAlarmCommand({
        AlarmName: `alarm-${name}`,
        Namespace: 'Lab/Protocols',
        MetricName: 'Records',
        Statistic: 'Sum',
        Period: 60,
        EvaluationPeriods: 1,
        Threshold: 20,
        ComparisonOperator: 'GreaterThanThreshold',
        Tags: [{ Key: 'ignored', Value: 'yes' }],
      }),
    );
    expect(await tags()).toEqual([{ Key: 'owner', Value: 'data-eng' }]);
    await cw.send(new DeleteAlarmsCommand({ AlarmNames: [`alarm-${name}`] }));
    expect(
      (await cw.send(new DescribeAlarmsCommand({ AlarmNames: [`alarm-${name}`] }))).MetricAlarms,
    ).toEqual([]);
    await expect(
      cw.send(new ListTagsForResourceCommand({ ResourceARN: ARN(`alarm-${name}`) })),
    ).rejects.toBeInstanceOf(ResourceNotFoundException);
  });

  test("CloudWatch's refusals keep their class and awsQuery code", async () => {
    const error = (await cw
      .send(
        new PutMetricDataCommand({ Namespace: 'AWS/Firehose', MetricData: [{ MetricName: 'X', Value: 1 }] }),
      )
      .then(
        () => undefined,
        (e: unknown) => e,
      )) as (InvalidParameterValueException & { Code?: string }) | undefined;
    expect(error).toBeInstanceOf(InvalidParameterValueException);
    expect(error?.message).toContain('AWS/');
    expect(error?.$metadata.httpStatusCode).toBe(400);
  });
});

describe('CloudWatch awsQuery on the wire (a form as the AWS CLI v2 sends it)', () => {
  let dir: string;
  let endpoint: LocalEndpoint;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-cloudwatch-wire-'));
    endpoint = await startLocalEndpoint({
      dataDir: dir,
      engine: { openWarehouse: async () => new MemoryWarehouse() },
    });
  });
  afterAll(async () => {
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (form: Record<string, string>) =>
    fetch(endpoint.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
        authorization:
          'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/monitoring/aws4_request, Signature=x',
      },
      body: new URLSearchParams({ Version: '2010-08-01', ...form }).toString(),
    });

  test('replies are the service namespace XML documents; errors carry the awsQuery code and the request id of the headers', async () => {
    const ok = await post({ Action: 'ListMetrics', Namespace: 'Nothing/Here' });
    const body = await ok.text();
    expect(ok.status).toBe(200);
    expect(body).toMatch(
      /^<ListMetricsResponse xmlns="http:\/\/monitoring\.amazonaws\.com\/doc\/2010-08-01\/"><ListMetricsResult>/,
    );
    expect(body).toContain(`<RequestId>${ok.headers.get('x-amzn-requestid')}</RequestId>`);
    const refused = await post({
      Action: 'PutMetricData',
      Namespace: 'AWS/Firehose',
      'MetricData.member.1.MetricName': 'X',
      'MetricData.member.1.Value': '1',
    });
    const error = await refused.text();
    expect(refused.status).toBe(400);
    expect(error).toContain('<Type>Sender</Type><Code>InvalidParameterValue</Code>');
    expect(error).toContain(`<RequestId>${refused.headers.get('x-amzn-requestid')}</RequestId>`);
    const unknown = await post({ Action: 'FlyToTheMoon' });
    expect(await unknown.text()).toContain('<Code>InvalidAction</Code>');
  });
});
