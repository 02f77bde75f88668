// Amazon S3 Tables (restJson1) over the embedded warehouse: routes exactly as @aws-sdk/client-s3tables sends them.
import type { TableSummary, Warehouse } from '@loglake/lakehouse';
import { bucketFromArn, LOCAL_ACCOUNT_ID, tableArn, tableBucketArn } from '../arn';
import { s3TablesErrorFor } from '../engine-errors';
import { AwsServiceError, notSupported } from '../errors';
import type { LocalReply, LocalRequest, ServiceModule } from '../protocol';
import { parseJsonBody } from '../protocol';
import { firstSegment, matchRoute, route, type RouteParams } from '../routes';
import type { JsonStore } from '../store';
import type { MaintenanceService } from './maintenance';
import { columnsFromMetadata } from './schema';

type Handler = (params: RouteParams, request: LocalRequest) => Promise<LocalReply>;

const ROOTS = new Set([
  'buckets',
  'namespaces',
  'tables',
  'get-table',
  'tag',
  'table-bucket-replication',
  'table-replication',
  'replication-status',
  'table-record-expiration',
  'table-record-expiration-job-status',
]);

export interface S3TablesOptions {
  warehouse: Warehouse;
  store: JsonStore;
  maintenance: MaintenanceService;
  region: string;
}

function bad(message: string): AwsServiceError {
  return new AwsServiceError('BadRequestException', 400, message);
}

function notFound(message: string): AwsServiceError {
  return new AwsServiceError('NotFoundException', 404, message);
}

const ok = (json?: unknown): LocalReply => ({ status: 200, json: json ?? {} });
const noContent = (): LocalReply => ({ status: 204 });
const iso = (date: Date) => date.toISOString();

export function createS3TablesService({
  warehouse,
  store,
  maintenance,
  region,
}: S3TablesOptions): ServiceModule {
  const bucketOf = (arn: string | undefined): string => {
    const bucket = arn ? bucketFromArn(arn) : undefined;
    if (!bucket)
      throw bad(
        `Invalid table bucket ARN ${JSON.stringify(arn)}: expected arn:aws:s3tables:<region>:<account>:bucket/<name>.`,
      );
    return bucket;
  };
  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw s3TablesErrorFor(error);
    }
  };
  const bucketSummary = (info: { name: string; createdAt: Date }) => ({
    arn: tableBucketArn(region, info.name),
    name: info.name,
    ownerAccountId: LOCAL_ACCOUNT_ID,
    createdAt: iso(info.createdAt),
    tableBucketId: info.name,
    type: 'customer',
  });
  const namespaceSummary = (info: { bucket: string; namespace: string; createdAt: Date }) => ({
    namespace: [info.namespace],
    createdAt: iso(info.createdAt),
    createdBy: LOCAL_ACCOUNT_ID,
    ownerAccountId: LOCAL_ACCOUNT_ID,
    namespaceId: `${info.bucket}.${info.namespace}`,
    tableBucketId: info.bucket,
  });
  const tableIdOf = async (summary: TableSummary): Promise<string> => {
    const handle = await warehouse.loadTable(summary.bucket, summary.namespace, summary.name);
    return (await handle.metadata())['table-uuid'];
  };
  const tableSummary = async (summary: TableSummary) => ({
    namespace: [summary.namespace],
    name: summary.name,
    type: 'customer',
    tableARN: tableArn(region, summary.bucket, await tableIdOf(summary)),
    createdAt: iso(summary.createdAt),
    modifiedAt: iso(summary.modifiedAt),
    namespaceId: `${summary.bucket}.${summary.namespace}`,
    tableBucketId: summary.bucket,
  });
  const page = <T>(items: T[], request: LocalRequest, maxKey: string, maxLimit: number) => {
    const start = Number(request.query.get('continuationToken') ?? '0') || 0;
    const max = Math.min(Number(request.query.get(maxKey) ?? maxLimit) || maxLimit, maxLimit);
    const slice = items.slice(start, start + max);
    return { slice, continuationToken: start + max < items.length ? String(start + max) : undefined };
  };
  const requireNamespace = (value: unknown): string => {
    if (!Array.isArray(value) || value.length !== 1 || typeof value[0] !== 'string' || !value[0]) {
      throw bad('namespace must be a list with exactly one name, e.g. ["network"].');
    }
    return value[0];
  };
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
  const tableExists = (b: string, n: string, t: string) => call(() => warehouse.getTable(b, n, t));

  const routes = [
    route<Handler>('CreateTableBucket', 'PUT /buckets', async (_p, request) => {
      const name = parseJsonBody(request.body, 'S3Tables').name;
      if (typeof name !== 'string' || !/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(name)) {
        throw bad(
          `Invalid table bucket name ${JSON.stringify(name)}: 3-63 lowercase letters, digits and hyphens, starting and ending with a letter or digit.`,
        );
      }
      const info = await call(() => warehouse.createTableBucket(name));
      return ok({ arn: tableBucketArn(region, info.name) });
    }),
    route<Handler>('ListTableBuckets', 'GET /buckets', async (_p, request) => {
      const prefix = request.query.get('prefix') ?? '';
      const all = (await call(() => warehouse.listTableBuckets())).filter((b) => b.name.startsWith(prefix));
      const { slice, continuationToken } = page(all, request, 'maxBuckets', 1000);
      return ok({ tableBuckets: slice.map(bucketSummary), continuationToken });
    }),
    route<Handler>('GetTableBucket', 'GET /buckets/{arn}', async (p) =>
      ok(bucketSummary(await call(() => warehouse.getTableBucket(bucketOf(p.arn))))),
    ),
    route<Handler>('DeleteTableBucket', 'DELETE /buckets/{arn}', async (p) => {
      await call(() => warehouse.deleteTableBucket(bucketOf(p.arn)));
      return noContent();
    }),
    route<Handler>('GetTableBucketMaintenanceConfiguration', 'GET /buckets/{arn}/maintenance', async (p) => {
      const bucket = bucketOf(p.arn);
      await call(() => warehouse.getTableBucket(bucket));
      const config = maintenance.bucketConfig(bucket);
      return ok({
        tableBucketARN: tableBucketArn(region, bucket),
        configuration: {
          icebergUnreferencedFileRemoval: {
            status: config.icebergUnreferencedFileRemoval.status,
            settings: { icebergUnreferencedFileRemoval: config.icebergUnreferencedFileRemoval.settings },
          },
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
    route<Handler>('CreateNamespace', 'PUT /namespaces/{arn}', async (p, request) => {
      const bucket = bucketOf(p.arn);
      const namespace = requireNamespace(parseJsonBody(request.body, 'S3Tables').namespace);
      if (!/^[a-z0-9_]{1,255}$/.test(namespace)) {
        throw bad(
          `Invalid namespace name ${JSON.stringify(namespace)}: use lowercase letters, digits and underscores.`,
        );
      }
      await call(() => warehouse.createNamespace(bucket, namespace));
      return ok({ tableBucketARN: tableBucketArn(region, bucket), namespace: [namespace] });
    }),
    route<Handler>('ListNamespaces', 'GET /namespaces/{arn}', async (p, request) => {
      const prefix = request.query.get('prefix') ?? '';
      const all = (await call(() => warehouse.listNamespaces(bucketOf(p.arn)))).filter((n) =>
        n.namespace.startsWith(prefix),
      );
      const { slice, continuationToken } = page(all, request, 'maxNamespaces', 1000);
      return ok({ namespaces: slice.map(namespaceSummary), continuationToken });
    }),
    route<Handler>('GetNamespace', 'GET /namespaces/{arn}/{namespace}', async (p) =>
      ok(namespaceSummary(await call(() => warehouse.getNamespace(bucketOf(p.arn), p.namespace ?? '')))),
    ),
    route<Handler>('DeleteNamespace', 'DELETE /namespaces/{arn}/{namespace}', async (p) => {
      await call(() => warehouse.deleteNamespace(bucketOf(p.arn), p.namespace ?? ''));
      return noContent();
    }),
    route<Handler>('CreateTable', 'PUT /tables/{arn}/{namespace}', async (p, request) => {
      const bucket = bucketOf(p.arn);
      const body = parseJsonBody(request.body, 'S3Tables');
      const name = body.name;
      if (typeof name !== 'string' || !/^[a-z0-9_]{1,255}$/.test(name)) {
        throw bad(
          `Invalid table name ${JSON.stringify(name)}: use lowercase letters, digits and underscores.`,
        );
      }
      if (body.format !== undefined && body.format !== 'ICEBERG')
        throw bad(`Unsupported table format ${JSON.stringify(body.format)}: only ICEBERG.`);
      const columns = columnsFromMetadata(body.metadata);
      const handle = await call(() => warehouse.createTable(bucket, p.namespace ?? '', name, { columns }));
      const summary = await call(() => warehouse.getTable(bucket, handle.namespace, handle.name));
      return ok({
        tableARN: tableArn(region, bucket, (await handle.metadata())['table-uuid']),
        versionToken: summary.versionToken,
      });
    }),
    route<Handler>('ListTables', 'GET /tables/{arn}', async (p, request) => {
      const bucket = bucketOf(p.arn);
      const prefix = request.query.get('prefix') ?? '';
      const namespace = request.query.get('namespace') ?? undefined;
      const all = (await call(() => warehouse.listTables(bucket, namespace))).filter((t) =>
        t.name.startsWith(prefix),
      );
      const { slice, continuationToken } = page(all, request, 'maxTables', 1000);
      return ok({ tables: await call(() => Promise.all(slice.map(tableSummary))), continuationToken });
    }),
    route<Handler>('DeleteTable', 'DELETE /tables/{arn}/{namespace}/{name}', async (p, request) => {
      const bucket = bucketOf(p.arn);
      const token = request.query.get('versionToken');
      const summary = await tableExists(bucket, p.namespace ?? '', p.name ?? '');
      if (token && token !== summary.versionToken)
        throw new AwsServiceError(
          'ConflictException',
          409,
          'Provided version token does not match the table version token.',
        );
      await call(() => warehouse.dropTable(bucket, summary.namespace, summary.name, { purge: true }));
      return noContent();
    }),
    route<Handler>('GetTable', 'GET /get-table', async (_p, request) => {
      const summary = await findTable(request);
      const handle = await call(() => warehouse.loadTable(summary.bucket, summary.namespace, summary.name));
      const metadata = await call(() => handle.metadata());
      return ok({
        name: summary.name,
        type: 'customer',
        tableARN: tableArn(region, summary.bucket, metadata['table-uuid']),
        namespace: [summary.namespace],
        namespaceId: `${summary.bucket}.${summary.namespace}`,
        versionToken: summary.versionToken,
        metadataLocation: summary.metadataLocation,
        warehouseLocation: metadata.location,
        createdAt: iso(summary.createdAt),
        createdBy: LOCAL_ACCOUNT_ID,
        modifiedAt: iso(summary.modifiedAt),
        modifiedBy: LOCAL_ACCOUNT_ID,
        ownerAccountId: LOCAL_ACCOUNT_ID,
        format: 'ICEBERG',
        tableBucketId: summary.bucket,
      });
    }),
    route<Handler>(
      'GetTableMetadataLocation',
      'GET /tables/{arn}/{namespace}/{name}/metadata-location',
      async (p) => {
        const summary = await tableExists(bucketOf(p.arn), p.namespace ?? '', p.name ?? '');
        const metadata = await call(async () =>
          (await warehouse.loadTable(summary.bucket, summary.namespace, summary.name)).metadata(),
        );
        return ok({
          versionToken: summary.versionToken,
          metadataLocation: summary.metadataLocation,
          warehouseLocation: metadata.location,
        });
      },
    ),
    route<Handler>(
      'UpdateTableMetadataLocation',
      'PUT /tables/{arn}/{namespace}/{name}/metadata-location',
      async (p, request) => {
        const bucket = bucketOf(p.arn);
        const body = parseJsonBody(request.body, 'S3Tables');
        if (typeof body.versionToken !== 'string' || typeof body.metadataLocation !== 'string') {
          throw bad('versionToken and metadataLocation are required strings.');
        }
        const current = await tableExists(bucket, p.namespace ?? '', p.name ?? '');
        if (current.versionToken !== body.versionToken) {
          throw new AwsServiceError(
            'ConflictException',
            409,
            'Provided version token does not match the table version token.',
          );
        }
        const updated = await call(() =>
          warehouse.updateMetadataLocation(
            bucket,
            current.namespace,
            current.name,
            body.versionToken as string,
            body.metadataLocation as string,
          ),
        );
        return ok({
          name: updated.name,
          tableARN: tableArn(region, bucket, await call(() => tableIdOf(updated))),
          namespace: [updated.namespace],
          versionToken: updated.versionToken,
          metadataLocation: updated.metadataLocation,
        });
      },
    ),
    route<Handler>(
      'GetTableMaintenanceConfiguration',
      'GET /tables/{arn}/{namespace}/{name}/maintenance',
      async (p) => {
        const summary = await tableExists(bucketOf(p.arn), p.namespace ?? '', p.name ?? '');
        const config = maintenance.tableConfig(summary.bucket, summary.namespace, summary.name);
        return ok({
          tableARN: tableArn(region, summary.bucket, await call(() => tableIdOf(summary))),
          configuration: {
            icebergCompaction: {
              status: config.icebergCompaction.status,
              settings: { icebergCompaction: config.icebergCompaction.settings },
            },
            icebergSnapshotManagement: {
              status: config.icebergSnapshotManagement.status,
              settings: { icebergSnapshotManagement: config.icebergSnapshotManagement.settings },
            },
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

  // Operations of the S3 Tables API the local endpoint does not implement: answered with an error naming them.
  const unsupported: [string, string][] = [
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
  for (const [operation, pattern] of unsupported) {
    routes.push(
      route<Handler>(operation, pattern, async () => {
        throw notSupported('S3Tables', operation);
      }),
    );
  }

  async function findTable(request: LocalRequest): Promise<TableSummary> {
    const arn = request.query.get('tableArn');
    if (arn) {
      const match = /^arn:aws[a-z-]*:s3tables:[^:]*:[^:]*:bucket\/([^/]+)\/table\/(.+)$/.exec(arn);
      if (!match) throw bad(`Invalid table ARN ${JSON.stringify(arn)}.`);
      const [, bucket, id] = match as unknown as [string, string, string];
      for (const summary of await call(() => warehouse.listTables(bucket))) {
        if ((await call(() => tableIdOf(summary))) === id) return summary;
      }
      throw notFound(`The specified table could not be found: ${arn}.`);
    }
    const bucket = bucketOf(request.query.get('tableBucketARN') ?? undefined);
    const namespace = request.query.get('namespace');
    const name = request.query.get('name');
    if (!namespace || !name)
      throw bad('GetTable needs either tableArn, or tableBucketARN with namespace and name.');
    return tableExists(bucket, namespace, name);
  }

  return {
    name: 'S3Tables',
    errorStyle: { protocol: 'restJson1', messageKey: 'message' },
    claims: (request) => !request.headers['x-amz-target'] && ROOTS.has(firstSegment(request.path)),
    async handle(request) {
      const found = matchRoute(routes, request.method, request.path);
      if (!found) throw notSupported('S3Tables', `${request.method} ${request.path.split('?')[0]}`);
      return found.route.handler(found.params, request);
    },
  };
}
