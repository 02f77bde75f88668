// Every operation the endpoint serves has an IAM mapping: an unmapped one is refused to every caller (fail closed),
// so a service added without its actions would break the lab the moment authorization is on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalEndpoint, type LocalEndpoint } from '../server';
import { requiredPermissions, type MappingEnv, type OperationCall } from './actions';

const ENV: MappingEnv = {
  region: 'us-east-1',
  lookups: { workgroupOfQuery: () => 'primary', tableId: async () => 'table-id' },
};
const PARAMS = {
  tableBucketARN: 'arn:aws:s3tables:us-east-1:123456789012:bucket/b',
  namespace: 'n',
  name: 't',
  table: 't',
  bucket: 'b',
  key: 'k',
};
const call = (service: string, operation: string, body: unknown = {}): OperationCall => ({
  service,
  operation,
  params: PARAMS,
  request: {
    method: 'POST',
    path: '/',
    query: new URLSearchParams(),
    headers: {},
    body: Buffer.from(JSON.stringify(body)),
  },
});

describe('IAM actions of the operations the endpoint serves', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loglake-actions-'));
    endpoint = await startLocalEndpoint({ dataDir: dir });
  });
  afterAll(async () => {
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('every served operation of every service is mapped (none refused for want of a mapping)', async () => {
    const unmapped: string[] = [];
    for (const service of endpoint.services)
      for (const operation of service.served)
        if ((await requiredPermissions(call(service.name, operation), ENV)) === 'unmapped')
          unmapped.push(`${service.name} ${operation}`);
    expect(endpoint.services.map((s) => s.name)).toContain('CloudWatch');
    expect(unmapped).toEqual([]);
  });

  test('an operation the table does not know is unmapped (the check above can fail)', async () => {
    expect(await requiredPermissions(call('CloudWatch', 'PutDashboard'), ENV)).toBe('unmapped');
    expect(await requiredPermissions(call('NoSuchService', 'Anything'), ENV)).toBe('unmapped');
  });

  test('CloudWatch: alarm operations on the named alarms (all alarms when none is named), metrics on *', async () => {
    expect(
      await requiredPermissions(call('CloudWatch', 'DescribeAlarms', { AlarmNames: ['a', 'b'] }), ENV),
    ).toEqual([
      { action: 'cloudwatch:DescribeAlarms', resource: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:a' },
      { action: 'cloudwatch:DescribeAlarms', resource: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:b' },
    ]);
    expect(await requiredPermissions(call('CloudWatch', 'DescribeAlarms'), ENV)).toEqual([
      { action: 'cloudwatch:DescribeAlarms', resource: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:*' },
    ]);
    expect(
      await requiredPermissions(call('CloudWatch', 'PutMetricAlarm', { AlarmName: 'failed-rows' }), ENV),
    ).toEqual([
      {
        action: 'cloudwatch:PutMetricAlarm',
        resource: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:failed-rows',
      },
    ]);
    expect(await requiredPermissions(call('CloudWatch', 'GetMetricData'), ENV)).toEqual([
      { action: 'cloudwatch:GetMetricData', resource: '*' },
    ]);
  });
});
