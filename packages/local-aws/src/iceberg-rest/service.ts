// The S3 Tables Iceberg REST endpoint (`/iceberg/v1/…`, warehouse = table bucket ARN, SigV4 signing name
// `s3tables`), over the same warehouse the S3 Tables API serves: a table created through one is the other's table,
// and a REST commit is the next metadata location GetTableMetadataLocation returns.
// Routes served are the ones AWS lists for this endpoint ("Accessing tables using the Amazon S3 Tables Iceberg REST
// endpoint": getConfig, list/create/load/drop namespace, namespace and table existence, list/create/load/update/
// drop table); the spec's other routes answer the spec's 406. Signatures are not checked, as everywhere locally (with
// authorization, the request's access key says who the caller is).
import { isNamespaceName, isTableName, type Warehouse } from '@loglake/lakehouse';
import { parseTableCommit } from '@loglake/lakehouse/iceberg';
import { bucketFromArn } from '../arn';
import { parseJsonText } from '../json-body';
import type { LocalReply, LocalRequest, ServiceModule } from '../protocol';
import { matchRoute, route, type RouteParams } from '../routes';
import { createTableInput } from './create-table';
import { badRequest, errorReply, restErrorFor, unsupported } from './errors';

const ROOT = '/iceberg/v1';

type Handler = (params: RouteParams, request: LocalRequest, bucket: string) => Promise<LocalReply>;

/** The endpoints this service answers, as the spec's `endpoints` list in the config response names them. */
const SERVED_ENDPOINTS = [
  'GET /v1/{prefix}/namespaces',
  'POST /v1/{prefix}/namespaces',
  'GET /v1/{prefix}/namespaces/{namespace}',
  'HEAD /v1/{prefix}/namespaces/{namespace}',
  'DELETE /v1/{prefix}/namespaces/{namespace}',
  'GET /v1/{prefix}/namespaces/{namespace}/tables',
  'POST /v1/{prefix}/namespaces/{namespace}/tables',
  'GET /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  'HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  'DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}',
] as const;

const ok = (json: unknown): LocalReply => ({ status: 200, json });
const noContent = (): LocalReply => ({ status: 204 });

/** The one namespace level S3 Tables has (multi-level names arrive joined by the unit separator, %1F). */
function namespaceOf(raw: string | undefined): string {
  if (!raw) throw badRequest('The namespace is missing from the path.');
  if (raw.includes('\u001f'))
    throw badRequest(`S3 Tables namespaces have one level; got ${JSON.stringify(raw)}.`, raw);
  // Every lookup checks S3 Tables' naming rules first (a name no namespace can have is refused, never looked up).
  if (!isNamespaceName(raw))
    throw badRequest(
      `Invalid namespace name ${JSON.stringify(raw)}: S3 Tables names namespaces with 1-255 lowercase letters, digits and underscores, starting and ending with a letter or digit.`,
      raw,
    );
  return raw;
}

/** A table name from the path, checked against S3 Tables' rules before any lookup. */
function tableOf(raw: string | undefined): string {
  if (raw === undefined || !isTableName(raw))
    throw badRequest(
      `Invalid table name ${JSON.stringify(raw ?? '')}: S3 Tables names tables with 1-255 lowercase letters, digits and underscores, starting and ending with a letter or digit.`,
      raw,
    );
  return raw;
}

function bodyOf(request: LocalRequest): Record<string, unknown> {
  const parsed = request.body.length === 0 ? undefined : parseJsonText(request.body);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw badRequest('The request body is not a JSON object.');
  return parsed as Record<string, unknown>;
}

/** The table bucket a warehouse or prefix names: its ARN, whole (URL-encoded once) or as the two raw segments. */
function bucketOfArn(arn: string | null | undefined): string {
  const bucket = arn ? bucketFromArn(arn) : undefined;
  if (!bucket)
    throw badRequest(
      `The warehouse must be a table bucket ARN (arn:aws:s3tables:<region>:<account>:bucket/<name>), got ${JSON.stringify(arn)}.`,
      arn,
    );
  return bucket;
}

/** Path after /iceberg/v1 with the prefix as one label: clients send it encoded once, or as it came in config. */
function splitPrefix(rawPath: string): { prefix: string; rest: string } | undefined {
  const tail = rawPath.slice(ROOT.length);
  const raw = /^\/(arn:[^/]*\/[^/]+)(\/.*)?$/.exec(tail);
  if (raw) return { prefix: raw[1] as string, rest: raw[2] ?? '' };
  const encoded = /^\/([^/]+)(\/.*)?$/.exec(tail);
  if (!encoded) return undefined;
  try {
    return { prefix: decodeURIComponent(encoded[1] as string), rest: encoded[2] ?? '' };
  } catch {
    return undefined;
  }
}

export function createIcebergRestService({ warehouse }: { warehouse: Warehouse }): ServiceModule {
  // The location and the metadata must be of one version: a commit landing between the two reads would pair version
  // N's location with N+1's metadata. The location is read on both sides of the metadata; unchanged means the
  // metadata read between them is that version's (locations only move forward).
  const loadResult = async (bucket: string, namespace: string, name: string) => {
    const handle = await warehouse.loadTable(bucket, namespace, name);
    let location = (await warehouse.getTable(bucket, namespace, name)).metadataLocation;
    for (;;) {
      const metadata = await handle.metadata();
      const after = (await warehouse.getTable(bucket, namespace, name)).metadataLocation;
      if (after === location) return { 'metadata-location': location, metadata, config: {} };
      location = after;
    }
  };
  const routes = [
    route<Handler>('listNamespaces', 'GET /namespaces', async (_p, request, bucket) => {
      // One level only: a parent has no children.
      if (request.query.get('parent')) return ok({ namespaces: [] });
      const all = await warehouse.listNamespaces(bucket);
      return ok({ namespaces: all.map((n) => [n.namespace]) });
    }),
    route<Handler>('createNamespace', 'POST /namespaces', async (_p, request, bucket) => {
      const body = bodyOf(request);
      const levels = body.namespace;
      if (!Array.isArray(levels) || levels.length !== 1 || typeof levels[0] !== 'string')
        throw badRequest(
          'namespace must be a list with exactly one name: S3 Tables namespaces have one level.',
        );
      const properties = (body.properties ?? {}) as Record<string, unknown>;
      if (Object.keys(properties).length > 0) throw unsupported('Namespace properties');
      await warehouse.createNamespace(bucket, levels[0]);
      return ok({ namespace: levels, properties: {} });
    }),
    route<Handler>('loadNamespaceMetadata', 'GET /namespaces/{namespace}', async (p, _r, bucket) => {
      const info = await warehouse.getNamespace(bucket, namespaceOf(p.namespace));
      return ok({ namespace: [info.namespace], properties: {} });
    }),
    route<Handler>('namespaceExists', 'HEAD /namespaces/{namespace}', async (p, _r, bucket) => {
      await warehouse.getNamespace(bucket, namespaceOf(p.namespace));
      return noContent();
    }),
    route<Handler>('dropNamespace', 'DELETE /namespaces/{namespace}', async (p, _r, bucket) => {
      await warehouse.deleteNamespace(bucket, namespaceOf(p.namespace));
      return noContent();
    }),
    route<Handler>('listTables', 'GET /namespaces/{namespace}/tables', async (p, _r, bucket) => {
      const namespace = namespaceOf(p.namespace);
      const tables = await warehouse.listTables(bucket, namespace);
      return ok({ identifiers: tables.map((t) => ({ namespace: [namespace], name: t.name })) });
    }),
    route<Handler>('createTable', 'POST /namespaces/{namespace}/tables', async (p, request, bucket) => {
      const namespace = namespaceOf(p.namespace);
      const { name, input } = createTableInput(bodyOf(request));
      await warehouse.createTable(bucket, namespace, name, input);
      return ok(await loadResult(bucket, namespace, name));
    }),
    route<Handler>('loadTable', 'GET /namespaces/{namespace}/tables/{table}', async (p, _r, bucket) =>
      ok(await loadResult(bucket, namespaceOf(p.namespace), tableOf(p.table))),
    ),
    route<Handler>('tableExists', 'HEAD /namespaces/{namespace}/tables/{table}', async (p, _r, bucket) => {
      await warehouse.getTable(bucket, namespaceOf(p.namespace), tableOf(p.table));
      return noContent();
    }),
    route<Handler>(
      'updateTable',
      'POST /namespaces/{namespace}/tables/{table}',
      async (p, request, bucket) => {
        // Every requirement and update checked member by member (a malformed one is a 400, InvalidUpdateError).
        const commit = parseTableCommit(bodyOf(request));
        const committed = await warehouse.commitTable(
          bucket,
          namespaceOf(p.namespace),
          tableOf(p.table),
          commit,
        );
        return ok({ 'metadata-location': committed.metadataLocation, metadata: committed.metadata });
      },
    ),
    route<Handler>('dropTable', 'DELETE /namespaces/{namespace}/tables/{table}', async (p, _r, bucket) => {
      // S3 Tables deletes a table's data with it (DeleteTable), whatever purgeRequested says.
      await warehouse.dropTable(bucket, namespaceOf(p.namespace), tableOf(p.table), { purge: true });
      return noContent();
    }),
  ];

  /** The route a request takes (config, or a route under the warehouse prefix); throws the spec's errors. */
  function locate(request: LocalRequest) {
    if (request.path === `${ROOT}/config`) {
      if (request.method !== 'GET') throw unsupported(`${request.method} /v1/config`);
      return { operation: 'getConfig', bucket: bucketOfArn(request.query.get('warehouse')), params: {} };
    }
    const split = request.path.startsWith(`${ROOT}/`) ? splitPrefix(request.path) : undefined;
    if (!split) throw unsupported(`${request.method} ${request.path}`);
    const bucket = bucketOfArn(split.prefix);
    const found = matchRoute(routes, request.method, split.rest);
    if (!found) throw unsupported(`${request.method} /v1/{prefix}${split.rest}`);
    return { operation: found.route.operation, bucket, params: found.params, handler: found.route.handler };
  }

  async function serve(request: LocalRequest): Promise<LocalReply> {
    const found = locate(request);
    await warehouse.getTableBucket(found.bucket);
    if (!found.handler) {
      // The prefix is the warehouse ARN, URL-encoded once so it stays one path segment.
      return ok({
        defaults: {},
        overrides: { prefix: encodeURIComponent(request.query.get('warehouse') as string) },
        endpoints: SERVED_ENDPOINTS,
      });
    }
    return found.handler(found.params, request, found.bucket);
  }

  return {
    name: 'S3TablesIcebergRest',
    // Its API is the Iceberg REST spec's, not a Smithy model: no `api`, but the operations it answers are listed.
    served: ['getConfig', ...routes.map((r) => r.operation)],
    errorStyle: { protocol: 'icebergRest', messageKey: 'message' },
    internalErrorCode: 'InternalServerError',
    claims: (request) => !request.headers['x-amz-target'] && request.path.startsWith('/iceberg/'),
    operationOf(request) {
      try {
        const found = locate(request);
        // The path names the resource (the handlers read the body themselves; the mapping does not look at it).
        return { operation: found.operation, params: { ...found.params, bucket: found.bucket }, input: {} };
      } catch {
        // A route the endpoint does not serve or a bad warehouse: answered by handle() in the spec's shape.
        return undefined;
      }
    },
    async handle(request) {
      try {
        return await serve(request);
      } catch (error) {
        return errorReply(restErrorFor(error), request.method === 'HEAD');
      }
    },
  };
}
