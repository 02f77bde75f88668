// Every operation the endpoint serves has an IAM mapping: an unmapped one is refused to every caller (fail closed),
// so a service added without its actions would break the lab the moment authorization is on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Warehouse } from '@loglake/lakehouse';
import { restRoutes } from '../model/rest';
import type { LocalRequest, ServiceModule } from '../protocol';
import { S3TABLES_API } from '../s3tables/context';
import type { MaintenanceService } from '../s3tables/maintenance';
import { createS3TablesService } from '../s3tables/service';
import { createIcebergRestService } from '../iceberg-rest/service';
import { startLocalEndpoint, type LocalEndpoint } from '../server';
import { JsonStore } from '../store';
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
  input: body as Record<string, unknown>,
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

  test("every operation of the Iceberg REST endpoint (the spec's, not a model's) is mapped", async () => {
    const iceberg = createIcebergRestService({ warehouse: {} as Warehouse });
    expect(iceberg.served).toContain('updateTable');
    const unmapped: string[] = [];
    for (const operation of iceberg.served ?? [])
      if ((await requiredPermissions(call(iceberg.name, operation), ENV)) === 'unmapped')
        unmapped.push(operation);
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

describe('S3 Tables: each served operation, as the SDK sends it, authorized on the resource it acts on', () => {
  const BUCKET = 'arn:aws:s3tables:us-east-1:123456789012:bucket/b';
  const TABLE = `${BUCKET}/table/table-id`;
  const LABELS: Record<string, string> = {
    tableBucketARN: BUCKET,
    namespace: 'n',
    name: 't',
    resourceArn: TABLE,
    type: 'icebergCompaction',
  };
  const QUERY: Record<string, string> = {
    tableBucketARN: BUCKET,
    tableArn: TABLE,
    namespace: 'n',
    name: 't',
  };
  const BODIES: Record<string, unknown> = { CreateTableBucket: { name: 'b' } };
  let dir: string;
  let s3tables: ServiceModule;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'loglake-actions-s3t-'));
    // operationOf reads only the request: the warehouse and maintenance are never touched.
    s3tables = createS3TablesService({
      warehouse: {} as Warehouse,
      maintenance: {} as MaintenanceService,
      store: new JsonStore(dir),
      region: 'us-east-1',
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The request of a route with its labels and required query members filled in. */
  const requestOf = (operation: string, body: unknown = {}): LocalRequest => {
    const route = restRoutes(S3TABLES_API.model).find((r) => r.operation === operation);
    if (!route) throw new Error(`no route for ${operation}`);
    const path = route.segments
      .map((s) => ('literal' in s ? s.literal : encodeURIComponent(LABELS[s.label] ?? 'x')))
      .join('/');
    const query = new URLSearchParams(route.query.map(([k, v]): [string, string] => [k, v ?? '']));
    const input = S3TABLES_API.model.shapes[S3TABLES_API.model.operations[operation]?.input ?? ''];
    if (input && input.type === 'structure')
      for (const member of Object.values(input.members))
        // GetTable takes either a table ARN or the bucket, namespace and name: all optional in the model.
        if (member.httpQuery !== undefined && (member.required || operation === 'GetTable'))
          query.set(member.httpQuery, QUERY[member.httpQuery] ?? 'x');
    return {
      method: route.method,
      path: `/${path}`,
      query,
      headers: {},
      body: Buffer.from(JSON.stringify(body)),
    };
  };
  const permissionsOf = async (operation: string, body?: unknown) => {
    const request = requestOf(operation, body);
    const found = s3tables.operationOf?.(request);
    expect(found?.operation).toBe(operation);
    return requiredPermissions(
      { service: 'S3Tables', operation, params: found?.params ?? {}, input: found?.input ?? {} },
      ENV,
    );
  };

  test('every served operation is mapped, on the account, the bucket or one of its tables', async () => {
    const outside: string[] = [];
    for (const operation of s3tables.served ?? []) {
      const mapping = await permissionsOf(operation, BODIES[operation]);
      if (mapping === 'unmapped') outside.push(`${operation}: unmapped`);
      else
        for (const { resource } of mapping)
          if (
            resource !== BUCKET &&
            !resource.startsWith(`${BUCKET}/table/`) &&
            operation !== 'ListTableBuckets'
          )
            outside.push(`${operation}: ${resource}`);
    }
    expect(outside).toEqual([]);
  });

  test('bucket settings on the bucket; a table named by its ARN on that table; tags on the resource named', async () => {
    expect(await permissionsOf('PutTableBucketEncryption')).toEqual([
      { action: 's3tables:PutTableBucketEncryption', resource: BUCKET },
    ]);
    expect(await permissionsOf('GetTableBucketReplication')).toEqual([
      { action: 's3tables:GetTableBucketReplication', resource: BUCKET },
    ]);
    expect(await permissionsOf('GetTableReplication')).toEqual([
      { action: 's3tables:GetTableReplication', resource: TABLE },
    ]);
    expect(await permissionsOf('TagResource')).toEqual([{ action: 's3tables:TagResource', resource: TABLE }]);
    expect(await permissionsOf('GetTableMaintenanceConfiguration')).toEqual([
      { action: 's3tables:GetTableMaintenanceConfiguration', resource: TABLE },
    ]);
  });

  test('creating with metadata, encryption or tags needs the actions the API reference lists', async () => {
    expect(await permissionsOf('CreateTable', { name: 'new_t', format: 'ICEBERG' })).toEqual([
      { action: 's3tables:CreateTable', resource: BUCKET },
    ]);
    expect(
      await permissionsOf('CreateTable', {
        name: 'new_t',
        format: 'ICEBERG',
        metadata: {},
        tags: { a: 'b' },
      }),
    ).toEqual([
      { action: 's3tables:CreateTable', resource: BUCKET },
      { action: 's3tables:PutTableData', resource: TABLE },
      { action: 's3tables:TagResource', resource: TABLE },
    ]);
    expect(
      (await permissionsOf('CreateTableBucket', { name: 'b', encryptionConfiguration: {} })) as unknown[],
    ).toEqual([
      { action: 's3tables:CreateTableBucket', resource: BUCKET },
      { action: 's3tables:PutTableBucketEncryption', resource: BUCKET },
    ]);
  });
});
