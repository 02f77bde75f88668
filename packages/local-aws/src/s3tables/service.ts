// Amazon S3 Tables (restJson1) over the embedded warehouse: routes exactly as @aws-sdk/client-s3tables sends them.
import type { TableSummary, Warehouse } from '@loglake/lakehouse';
import { bucketFromArn, LOCAL_ACCOUNT_ID, tableArn, tableBucketArn } from '../arn';
import { s3TablesErrorFor } from '../engine-errors';
import { AwsServiceError, notSupported } from '../errors';
import type { LocalRequest, ServiceModule } from '../protocol';
import { parseJsonBody } from '../protocol';
import { firstSegment, matchRoute, route } from '../routes';
import type { JsonStore } from '../store';
import type { MaintenanceService } from './maintenance';
import { columnsFromMetadata } from './schema';
import {
  bad,
  configRoutes,
  noContent,
  notFound,
  ok,
  UNSUPPORTED_S3TABLES_ROUTES,
  unsupportedRoutes,
  type Handler,
  type RouteContext,
} from './config-routes';

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

const iso = (date: Date) => date.toISOString();
const UNSUPPORTED = new Set(UNSUPPORTED_S3TABLES_ROUTES.map(([operation]) => operation));

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
  const tableExists = (b: string, n: string, t: string) => call(() => warehouse.getTable(b, n, t));

  const ctx: RouteContext = { warehouse, store, maintenance, region, bucketOf, call, tableExists, tableIdOf };
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
    ...configRoutes(ctx),
    ...unsupportedRoutes(),
  ];

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
    internalErrorCode: 'InternalServerErrorException',
    claims: (request) => !request.headers['x-amz-target'] && ROOTS.has(firstSegment(request.path)),
    operationOf(request) {
      const found = matchRoute(routes, request.method, request.path);
      if (!found || UNSUPPORTED.has(found.route.operation)) return undefined;
      return { operation: found.route.operation, params: found.params };
    },
    async handle(request) {
      const found = matchRoute(routes, request.method, request.path);
      if (!found) throw notSupported('S3Tables', `${request.method} ${request.path.split('?')[0]}`);
      return found.route.handler(found.params, request);
    },
  };
}
