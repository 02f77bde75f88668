// S3 Tables configuration routes: table and table-bucket maintenance settings, maintenance job status, and
// resource policies (stored documents, not enforced), plus the operations the local endpoint does not implement.
import type { TableSummary, Warehouse } from '@loglake/lakehouse';
import { tableArn, tableBucketArn } from '../arn';
import { AwsServiceError, notSupported } from '../errors';
import type { LocalReply, LocalRequest } from '../protocol';
import { parseJsonBody } from '../protocol';
import { route, type Route, type RouteParams } from '../routes';
import type { JsonStore } from '../store';
import type { MaintenanceService } from './maintenance';

export type Handler = (params: RouteParams, request: LocalRequest) => Promise<LocalReply>;

/** What the routes share with the catalog routes in service.ts. */
export interface RouteContext {
  warehouse: Warehouse;
  store: JsonStore;
  maintenance: MaintenanceService;
  region: string;
  bucketOf(arn: string | undefined): string;
  call<T>(work: () => Promise<T>): Promise<T>;
  tableExists(bucket: string, namespace: string, name: string): Promise<TableSummary>;
  tableIdOf(summary: TableSummary): Promise<string>;
}

export function bad(message: string): AwsServiceError {
  return new AwsServiceError('BadRequestException', 400, message);
}

export function notFound(message: string): AwsServiceError {
  return new AwsServiceError('NotFoundException', 404, message);
}

/** One maintenance setting as S3 Tables answers it: the settings wrapped in an object named after their type. */
const onWire = (type: string, entry: { status: string; settings: unknown }) => ({
  status: entry.status,
  settings: { [type]: entry.settings },
});

export const ok = (json?: unknown): LocalReply => ({ status: 200, json: json ?? {} });
export const noContent = (): LocalReply => ({ status: 204 });

export function configRoutes(ctx: RouteContext): Route<Handler>[] {
  const { warehouse, store, maintenance, region, bucketOf, call, tableExists, tableIdOf } = ctx;
  const policyKey = (...parts: string[]) => `s3tables/policies/${parts.map(encodeURIComponent).join('/')}`;
  const getPolicy = (key: string, what: string) => {
    const policy = store.read<{ resourcePolicy: string }>(key);
    if (!policy) throw notFound(`The ${what} policy does not exist.`);
    return ok(policy);
  };
  const putPolicy = (key: string, request: LocalRequest) => {
    const body = parseJsonBody(request.body, 'S3Tables');
    const policy = body.resourcePolicy;
    if (typeof policy !== 'string') throw bad('resourcePolicy must be a JSON policy document as a string.');
    try {
      JSON.parse(policy);
    } catch {
      throw bad('resourcePolicy is not valid JSON: pass the policy document as a JSON string.');
    }
    store.write(key, { resourcePolicy: policy });
    return ok();
  };
  return [
    route<Handler>('GetTableBucketMaintenanceConfiguration', 'GET /buckets/{arn}/maintenance', async (p) => {
      const bucket = bucketOf(p.arn);
      await call(() => warehouse.getTableBucket(bucket));
      const config = maintenance.bucketConfig(bucket);
      return ok({
        tableBucketARN: tableBucketArn(region, bucket),
        configuration: {
          icebergUnreferencedFileRemoval: onWire(
            'icebergUnreferencedFileRemoval',
            config.icebergUnreferencedFileRemoval,
          ),
        },
      });
    }),
    route<Handler>(
      'PutTableBucketMaintenanceConfiguration',
      'PUT /buckets/{arn}/maintenance/{type}',
      async (p, request) => {
        const bucket = bucketOf(p.arn);
        await call(() => warehouse.getTableBucket(bucket));
        const value = parseJsonBody(request.body, 'S3Tables').value;
        if (!value || typeof value !== 'object') throw bad('value is required: {status, settings}.');
        maintenance.putBucketConfig(bucket, p.type ?? '', value as Record<string, unknown>);
        return noContent();
      },
    ),
    route<Handler>('GetTableBucketPolicy', 'GET /buckets/{arn}/policy', async (p) => {
      const bucket = bucketOf(p.arn);
      await call(() => warehouse.getTableBucket(bucket));
      return getPolicy(policyKey(bucket), 'table bucket');
    }),
    route<Handler>('PutTableBucketPolicy', 'PUT /buckets/{arn}/policy', async (p, request) => {
      const bucket = bucketOf(p.arn);
      await call(() => warehouse.getTableBucket(bucket));
      return putPolicy(policyKey(bucket), request);
    }),
    route<Handler>('DeleteTableBucketPolicy', 'DELETE /buckets/{arn}/policy', async (p) => {
      store.delete(policyKey(bucketOf(p.arn)));
      return noContent();
    }),
    route<Handler>(
      'GetTableMaintenanceConfiguration',
      'GET /tables/{arn}/{namespace}/{name}/maintenance',
      async (p) => {
        const summary = await tableExists(bucketOf(p.arn), p.namespace ?? '', p.name ?? '');
        const config = maintenance.tableConfig(summary.bucket, summary.namespace, summary.name);
        return ok({
          tableARN: tableArn(region, summary.bucket, await call(() => tableIdOf(summary))),
          configuration: {
            icebergCompaction: onWire('icebergCompaction', config.icebergCompaction),
            icebergSnapshotManagement: onWire('icebergSnapshotManagement', config.icebergSnapshotManagement),
          },
        });
      },
    ),
    route<Handler>(
      'PutTableMaintenanceConfiguration',
      'PUT /tables/{arn}/{namespace}/{name}/maintenance/{type}',
      async (p, request) => {
        const summary = await tableExists(bucketOf(p.arn), p.namespace ?? '', p.name ?? '');
        const value = parseJsonBody(request.body, 'S3Tables').value;
        if (!value || typeof value !== 'object') throw bad('value is required: {status, settings}.');
        maintenance.putTableConfig(
          summary.bucket,
          summary.namespace,
          summary.name,
          p.type ?? '',
          value as Record<string, unknown>,
        );
        return noContent();
      },
    ),
    route<Handler>(
      'GetTableMaintenanceJobStatus',
      'GET /tables/{arn}/{namespace}/{name}/maintenance-job-status',
      async (p) => {
        const summary = await tableExists(bucketOf(p.arn), p.namespace ?? '', p.name ?? '');
        return ok({
          tableARN: tableArn(region, summary.bucket, await call(() => tableIdOf(summary))),
          status: maintenance.jobStatus(summary.bucket, summary.namespace, summary.name),
        });
      },
    ),
    route<Handler>('GetTablePolicy', 'GET /tables/{arn}/{namespace}/{name}/policy', async (p) => {
      const s = await tableExists(bucketOf(p.arn), p.namespace ?? '', p.name ?? '');
      return getPolicy(policyKey(s.bucket, s.namespace, s.name), 'table');
    }),
    route<Handler>('PutTablePolicy', 'PUT /tables/{arn}/{namespace}/{name}/policy', async (p, request) => {
      const s = await tableExists(bucketOf(p.arn), p.namespace ?? '', p.name ?? '');
      return putPolicy(policyKey(s.bucket, s.namespace, s.name), request);
    }),
    route<Handler>('DeleteTablePolicy', 'DELETE /tables/{arn}/{namespace}/{name}/policy', async (p) => {
      store.delete(policyKey(bucketOf(p.arn), p.namespace ?? '', p.name ?? ''));
      return noContent();
    }),
  ];
}

/** Operations of the S3 Tables API the local endpoint does not implement: answered with an error naming them. */
export const UNSUPPORTED_S3TABLES_ROUTES: readonly (readonly [string, string])[] = [
  ['GetTableBucketEncryption', 'GET /buckets/{arn}/encryption'],
  ['PutTableBucketEncryption', 'PUT /buckets/{arn}/encryption'],
  ['DeleteTableBucketEncryption', 'DELETE /buckets/{arn}/encryption'],
  ['GetTableBucketMetricsConfiguration', 'GET /buckets/{arn}/metrics'],
  ['PutTableBucketMetricsConfiguration', 'PUT /buckets/{arn}/metrics'],
  ['DeleteTableBucketMetricsConfiguration', 'DELETE /buckets/{arn}/metrics'],
  ['GetTableBucketStorageClass', 'GET /buckets/{arn}/storage-class'],
  ['PutTableBucketStorageClass', 'PUT /buckets/{arn}/storage-class'],
  ['GetTableEncryption', 'GET /tables/{arn}/{namespace}/{name}/encryption'],
  ['GetTableStorageClass', 'GET /tables/{arn}/{namespace}/{name}/storage-class'],
  ['RenameTable', 'PUT /tables/{arn}/{namespace}/{name}/rename'],
  ['ListTagsForResource', 'GET /tag/{arn}'],
  ['TagResource', 'POST /tag/{arn}'],
  ['UntagResource', 'DELETE /tag/{arn}'],
  ['GetTableBucketReplication', 'GET /table-bucket-replication'],
  ['PutTableBucketReplication', 'PUT /table-bucket-replication'],
  ['DeleteTableBucketReplication', 'DELETE /table-bucket-replication'],
  ['GetTableReplication', 'GET /table-replication'],
  ['PutTableReplication', 'PUT /table-replication'],
  ['DeleteTableReplication', 'DELETE /table-replication'],
  ['GetTableReplicationStatus', 'GET /replication-status'],
  ['GetTableRecordExpirationConfiguration', 'GET /table-record-expiration'],
  ['PutTableRecordExpirationConfiguration', 'PUT /table-record-expiration'],
  ['GetTableRecordExpirationJobStatus', 'GET /table-record-expiration-job-status'],
];

export function unsupportedRoutes(): Route<Handler>[] {
  return UNSUPPORTED_S3TABLES_ROUTES.map(([operation, pattern]) =>
    route<Handler>(operation, pattern, async () => {
      throw notSupported('S3Tables', operation);
    }),
  );
}
