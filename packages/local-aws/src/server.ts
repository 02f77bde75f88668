// The local AWS endpoint: one HTTP server on 127.0.0.1 that answers the services of served-services.ts
// over the embedded engine. Requests are dispatched to the first service module that claims them (see protocol.ts);
// `/_local/...` is the endpoint's own admin API (maintenance runs, flushes, stats). Without authorization any access
// key / secret (or none) is accepted; with it (authz/) only SigV4 is read, the access key identifies the caller, and
// what IAM and Lake Formation would refuse is refused — the admin API included (an administrator's, or the start-time
// token's). Signatures themselves are never verified. One endpoint holds a data folder at a time (data-lock.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { LocalDirectoryStorage, StoredNameError, type SqlEngine, type Warehouse } from '@loglake/lakehouse';
import { createAthenaService } from './athena/service';
import { createCloudWatchService } from './cloudwatch/service';
import { LOCAL_KEEP_ALIVE_MS } from './client-config';
import { localDataPath } from './data-dir';
import { DataFolderLock } from './data-lock';
import { openInPlace } from './data-place';
import { ATHENA_MIN_CUTOFF_BYTES } from './athena/workgroups';
import { loadEngineFactories, type EngineFactories } from './engine';
import { AwsServiceError, LocalAwsError, LocalEndpointConfigError } from './errors';
import { FaultInjector, type FaultOptions } from './faults';
import { FirehoseService, type StreamRecovery } from './firehose/service';
import { FIREHOSE_NAMESPACE } from './firehose/metrics';
import {
  renderError,
  renderReply,
  speakingIn,
  type ErrorStyle,
  type LocalRequest,
  type ServiceModule,
  type WireResponse,
} from './protocol';
import { MaintenanceService } from './s3tables/maintenance';
import { createS3TablesService } from './s3tables/service';
import { createIcebergRestService } from './iceberg-rest/service';
import { createGlueService } from './glue/service';
import { createS3Service } from './s3/service';
import { glueSqlCatalog } from './glue/sql-catalog';
import { LOCAL_ACCOUNT_ID } from './arn';
import { JsonStore } from './store';
import { handleAdmin } from './admin';
import type { ServedService } from './model/api';
import {
  createAuthorization,
  warehouseTableId,
  type AuthorizationOptions,
  type ServiceCredentialsRequest,
} from './authz';
import type { LocalServiceCredentials } from './admin-client';
import { createCallerIdentityService } from './sts-identity';
import { badTargetEscape } from './percent-encoding';
import { MAX_RPC_BODY_BYTES, RequestBodyError } from './request-body';
import { unclaimedReply, unservedServiceReply } from './unserved-services';
import { internalError, tooLarge, wireError } from './model/wire-errors';
import { badRequest } from './iceberg-rest/errors';
import { checkServedList } from './served-services';

export interface LocalEndpointOptions {
  /** Data directory (state survives restarts). */
  dataDir: string;
  /** 0 or undefined = an ephemeral port. */
  port?: number;
  faults?: FaultOptions;
  /** Replaces every Firehose stream's IntervalInSeconds (tests, benchmarks). */
  firehoseBufferIntervalOverrideSeconds?: number;
  /** Run table maintenance (compaction, snapshot expiry, unreferenced files) every N seconds; 0/undefined = only on request. */
  maintenanceIntervalSeconds?: number;
  /**
   * 'adjustable' lets POST /_local/maintenance/clock move the clock maintenance judges snapshot ages by forward
   * (the lab shows the undo window closing in seconds). Default 'wall': the wall clock, as on AWS.
   */
  maintenanceClock?: 'wall' | 'adjustable';
  /**
   * 'adjustable' lets POST /_local/cloudwatch/clock move CloudWatch's clock forward (metrics are stamped and alarms
   * evaluated on it), so an alarm's one-minute periods pass in seconds. Default 'wall', as on AWS.
   */
  cloudWatchClock?: 'wall' | 'adjustable';
  /** Region used in ARNs the endpoint creates (default us-east-1; requests in any region are accepted). */
  region?: string;
  /** Lowest Athena BytesScannedCutoffPerQuery accepted (default Athena's 10,000,000 bytes). */
  athenaMinCutoffBytes?: number;
  /** Engine factories (default: from @loglake/lakehouse). */
  engine?: EngineFactories;
  /**
   * Enforce IAM and Lake Formation (README, "Authorization"): requests are identified by their access key and
   * refused as AWS refuses them. Absent: every request is served, whatever credentials sign it.
   */
  authorization?: AuthorizationOptions;
}

export interface LocalEndpoint {
  url: string;
  port: number;
  dataDir: string;
  faults: FaultInjector;
  /** Firehose streams whose record log held records (replayed now) or a damaged tail when the endpoint started. */
  recovery: StreamRecovery[];
  /** The AWS services served: each one's model, error conventions and the operations served (conformance, coverage). */
  services: ServedService[];
  /**
   * With authorization: the token that opens the admin API (/_local/*) besides the administrators' own keys
   * (`Authorization: Bearer <token>`); a new one at each start. Undefined without authorization (the API is open).
   */
  adminToken?: string;
  /**
   * With authorization: the session credentials an AWS service (Lambda, run locally) gets for a role whose trust
   * policy names it — the local stand-in for a service assuming its role. In-process only: no HTTP route hands them
   * out. Throws LocalEndpointConfigError without authorization, AccessDenied's message when the role does not trust
   * the service.
   */
  serviceCredentials(request: ServiceCredentialsRequest): LocalServiceCredentials;
  /** Flushes Firehose buffers, waits for running queries, closes the engine and the server. */
  stop(): Promise<void>;
}

export async function startLocalEndpoint(options: LocalEndpointOptions): Promise<LocalEndpoint> {
  if (!options.dataDir)
    throw new LocalEndpointConfigError(
      'dataDir is required: the folder where the local endpoint keeps its state.',
    );
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new LocalEndpointConfigError(`Invalid port ${port}: use 0 (any free port) or 1-65535.`, {
      value: port,
    });
  }
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  // One owner per data folder: taken before anything in it is opened (a held folder stops the start, naming holder).
  const lock = DataFolderLock.acquire(dataDir, { port: port || null });
  try {
    return await startOn(options, dataDir, port, lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function startOn(
  options: LocalEndpointOptions,
  dataDir: string,
  port: number,
  lock: DataFolderLock,
): Promise<LocalEndpoint> {
  const faults = new FaultInjector(options.faults);
  const region = options.region ?? 'us-east-1';
  const factories = options.engine ?? (await loadEngineFactories());
  const store = new JsonStore(localDataPath(dataDir, 'state'));
  // Authorization options the endpoint cannot use stop it before anything is opened.
  const authz = options.authorization
    ? createAuthorization(options.authorization, { store, region })
    : undefined;
  const warehouse: Warehouse = await openInPlace(dataDir, () =>
    factories.openWarehouse(localDataPath(dataDir, 'warehouse')),
  );
  // Glue + S3 for the snapshots unit: Glue's AwsDataCatalog is one of the SQL engine's catalogs, and CTAS with
  // external_location writes where the S3 service serves the snapshot bucket from.
  const glue = createGlueService({
    store,
    accountId: LOCAL_ACCOUNT_ID,
    warehouse,
    ...(authz ? { s3TablesGuard: authz.glueS3Tables } : {}),
  });
  const s3 = createS3Service({ dataDir, store, region, accountId: LOCAL_ACCOUNT_ID });

  let sqlEngine: Promise<SqlEngine> | undefined;
  const getSqlEngine = (): Promise<SqlEngine> => {
    const create = factories.createSqlEngine;
    if (!create) {
      return Promise.reject(
        new LocalEndpointConfigError('The engine factories given to the endpoint have no createSqlEngine.'),
      );
    }
    sqlEngine ??= Promise.resolve(
      create(warehouse, {
        catalogs: [glueSqlCatalog(glue.catalog)],
        // The engine reads and writes the local S3's objects in the same layout the S3 service serves them from.
        externalStorage: new LocalDirectoryStorage(s3.objects.root),
      }),
    );
    return sqlEngine;
  };

  const maintenance = new MaintenanceService(warehouse, store, options.maintenanceClock === 'adjustable');
  // CloudWatch: the metrics Firehose documents, and alarms on them (evaluated on CloudWatch's clock).
  const cloudwatch = createCloudWatchService({
    store,
    region,
    accountId: LOCAL_ACCOUNT_ID,
    clock: options.cloudWatchClock ?? 'wall',
  });
  let firehose: FirehoseService;
  try {
    // Opens every stream's record log and queues what it holds for replay (a log it cannot read stops the start).
    firehose = new FirehoseService({
      warehouse,
      store,
      faults,
      region,
      dataDir,
      objects: s3.objects,
      bufferIntervalOverrideSeconds: options.firehoseBufferIntervalOverrideSeconds,
      metrics: (stream, data) => {
        const at = cloudwatch.clock.now();
        for (const d of data)
          cloudwatch.metrics.put(
            {
              namespace: FIREHOSE_NAMESPACE,
              metricName: d.name,
              dimensions: [{ Name: 'DeliveryStreamName', Value: stream }],
            },
            at,
            { sum: d.value, count: 1, min: d.value, max: d.value },
            { unit: d.unit },
          );
      },
      ...(authz ? { roles: authz.firehoseRoles } : {}),
    });
  } catch (error) {
    await cloudwatch.close?.();
    await warehouse.close();
    throw error;
  }
  const athena = createAthenaService({
    store,
    sqlEngine: getSqlEngine,
    minCutoffBytes: options.athenaMinCutoffBytes ?? ATHENA_MIN_CUTOFF_BYTES,
    ...(authz ? { statements: authz.statements } : {}),
    glueTableLocation: (database, table) => {
      try {
        return glue.catalog.getTable(database, table).StorageDescriptor?.Location;
      } catch {
        return undefined; // no such table: the query fails when it runs
      }
    },
  });
  const services: ServiceModule[] = [
    // STS: with authorization its principals and AssumeRole; without, GetCallerIdentity for the account.
    authz ? authz.sts : createCallerIdentityService(),
    firehose,
    athena,
    createS3TablesService({ warehouse, store, maintenance, region }),
    // S3 Tables' Iceberg REST endpoint (/iceberg/v1/...), over the same warehouse.
    createIcebergRestService({ warehouse }),
    cloudwatch,
    glue,
    // Last: claims path-style bucket requests (`/<bucket>/<key>`) no other service claimed.
    s3,
  ];
  checkServedList(services.map((s) => s.name));

  const authorizer = authz?.requestAuthorizer({
    workgroupOfQuery: athena.workgroupOfQuery,
    tableId: warehouseTableId(warehouse),
  });
  const adminAccess = authz && authorizer ? authz.adminAccess(authorizer) : undefined;

  const dispatch = async (request: LocalRequest): Promise<WireResponse> => {
    if (request.path.startsWith('/_local/')) {
      // The admin API is an administrator's: with authorization on, the caller is checked before anything runs.
      const refused = adminAccess?.check(request);
      if (refused) return refused;
      return handleAdmin(request, {
        maintenance,
        firehose,
        cloudwatch,
        faults,
        authorization: authz !== undefined,
      });
    }
    // A service the endpoint does not serve (IAM, SNS, Lambda…), and a request no service claims, are answered in
    // the protocol the caller speaks (unserved-services.ts).
    let claimed: ServiceModule | undefined;
    try {
      const unserved = unservedServiceReply(request);
      if (unserved) return unserved;
      claimed = services.find((s) => s.claims(request));
    } catch (error) {
      // Only an awsQuery form is read to be claimed: one over the limit is refused in that protocol.
      if (!(error instanceof RequestBodyError)) throw error;
      return renderError(QUERY_STYLE, tooLarge(undefined, error.message, error));
    }
    // A target that is not valid percent-encoding cannot be read one way only: refused before anyone reads it.
    const badEscape = badTargetEscape(request.path, request.rawQuery ?? '');
    if (!claimed) return unclaimedReply(request, badEscape ? uriProblem(badEscape) : undefined);
    // A service spoken in several protocols (CloudWatch) answers errors in the request's.
    const style = claimed.errorStyleFor?.(request) ?? claimed.errorStyle;
    const service = speakingIn(claimed, style);
    if (badEscape) return renderError(service.errorStyle, badUri(service, badEscape));
    try {
      if (authorizer) {
        // The request-authentication/authorization step: who signed it, and may they (authz/request-authorizer.ts).
        // It authorizes the service's own reading of the request (ServiceModule.operationOf), which handle() serves.
        const outcome = await authorizer.authorize(request, service);
        if ('refused' in outcome) return outcome.refused;
        request.caller = outcome.caller;
      }
      return renderReply(service.errorStyle, await claimed.handle(request));
    } catch (error) {
      const answer =
        error instanceof AwsServiceError
          ? error
          : error instanceof StoredNameError
            ? // A name the one name → path mapping cannot store: the caller's input, the service's validation error.
              (service.api?.invalid(error.message) ??
              wireError(undefined, 'ValidationException', error.message, { cause: error }))
            : internalError(
                service.internalErrorCode,
                `Internal error in the local endpoint: ${error instanceof Error ? error.message : String(error)}`,
                error,
              );
      return renderError(service.errorStyle, answer);
    }
  };

  const server = createServer((req, res) => void serve(req, res, dispatch));
  server.keepAliveTimeout = LOCAL_KEEP_ALIVE_MS;
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new LocalEndpointConfigError(
              `Port ${port} on 127.0.0.1 is already in use: stop the other process or pass --port <another port>.`,
              { value: port, cause: error },
            )
          : error,
      ),
    );
    server.listen(port, '127.0.0.1', () => resolvePromise());
  }).catch(async (error: unknown) => {
    await warehouse.close();
    throw error;
  });
  const actualPort = (server.address() as AddressInfo).port;
  lock.update({ port: actualPort });
  firehose.replay();

  // Scheduled maintenance (when asked for): one run at a time; a failed run is reported in the job status.
  let scheduledRun: Promise<unknown> = Promise.resolve();
  let scheduledBusy = false;
  const maintenanceTimer =
    options.maintenanceIntervalSeconds && options.maintenanceIntervalSeconds > 0
      ? setInterval(() => {
          if (scheduledBusy) return;
          scheduledBusy = true;
          scheduledRun = maintenance
            .run()
            .catch(() => undefined)
            .finally(() => (scheduledBusy = false));
        }, options.maintenanceIntervalSeconds * 1000)
      : undefined;
  maintenanceTimer?.unref();

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      if (maintenanceTimer) clearInterval(maintenanceTimer);
      await scheduledRun;
      // Stop accepting requests first, then flush what Firehose buffered, then close the engine.
      const closed = new Promise<void>((resolvePromise) => server.close(() => resolvePromise()));
      server.closeIdleConnections();
      for (const service of services) await service.close?.();
      // Keep-alive sockets that went idle after the first sweep would hold close() for keepAliveTimeout.
      server.closeAllConnections();
      await closed;
      await warehouse.close();
      lock.release();
    })();
    return stopping;
  };

  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    dataDir,
    faults,
    recovery: firehose.recovery,
    services: services.flatMap((s) => (s.api ? [{ name: s.name, api: s.api, served: s.served ?? [] }] : [])),
    ...(adminAccess ? { adminToken: adminAccess.token } : {}),
    serviceCredentials(request) {
      if (!authz)
        throw new LocalEndpointConfigError(
          'This endpoint does not enforce authorization, so any credentials will do; start it with the authorization option for role credentials.',
        );
      const outcome = authz.serviceCredentials(request);
      if ('denied' in outcome) throw new LocalAwsError(outcome.denied, { value: request.roleArn });
      return { ...outcome.credentials, expiration: new Date(outcome.credentials.expiration) };
    },
    stop,
  };
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  dispatch: (request: LocalRequest) => Promise<WireResponse>,
): Promise<void> {
  try {
    // An RPC request's body is capped as it is read (S3's objects are not: a PutObject may be large).
    const rpc = rpcStyleOf(req);
    let body: Buffer;
    try {
      body = await readBody(req, rpc ? MAX_RPC_BODY_BYTES : undefined);
    } catch (error) {
      if (!(error instanceof RequestBodyError) || !rpc) throw error;
      const refused = renderError(rpc, tooLarge(undefined, error.message, error));
      // The rest of the body is discarded as it arrives (Node drains a request its handler did not read).
      res.writeHead(refused.status, refused.headers);
      res.end(refused.body);
      return;
    }
    const { path, query, rawQuery } = splitTarget(req.url ?? '/');
    const response = await dispatch({
      method: req.method ?? 'GET',
      path,
      query,
      rawQuery,
      headers: req.headers,
      body,
    });
    // One request id, in every SDK's header (S3 reads x-amz-request-id) and, where the protocol writes one, the body.
    const requestId = response.requestId ?? cryptoRandomId();
    res.writeHead(response.status, {
      ...response.headers,
      'x-amzn-requestid': requestId,
      'x-amz-request-id': requestId,
    });
    res.end(response.body);
  } catch (error) {
    res.writeHead(500, { 'content-type': 'application/json', 'x-amzn-errortype': 'InternalFailure' });
    res.end(JSON.stringify({ message: `Internal error in the local endpoint: ${(error as Error).message}` }));
  }
}

/**
 * The request target's path exactly as sent (no dot-segment removal: `/bucket/p/../x` names the key `p/../x`, as S3
 * takes it) and its query string.
 */
export function splitTarget(target: string): { path: string; query: URLSearchParams; rawQuery: string } {
  const cut = target.indexOf('?');
  const raw = cut < 0 ? target : target.slice(0, cut);
  const path = raw.startsWith('/') ? raw : `/${raw}`;
  const rawQuery = cut < 0 ? '' : target.slice(cut + 1);
  return { path, query: new URLSearchParams(rawQuery), rawQuery };
}

const uriProblem = (bad: { where: string; escape: string }) =>
  `its ${bad.where} holds ${JSON.stringify(bad.escape)}, which is no valid percent-encoding of UTF-8 (encode "%" as %25).`;

const QUERY_STYLE: ErrorStyle = { protocol: 'awsQuery', messageKey: 'Message' };

/**
 * A path or query string that is not valid percent-encoding, in the service's error: S3's InvalidURI ("Couldn't parse
 * the specified URI", 400: Amazon S3 API Reference, "Error responses"), the Iceberg REST spec's 400, the others'
 * malformed-input error (SerializationException, ValidationError…, 400).
 */
function badUri(service: ServiceModule, bad: { where: string; escape: string }): AwsServiceError {
  const message = `Couldn't parse the specified URI: ${uriProblem(bad)}`;
  switch (service.errorStyle.protocol) {
    case 'restXml':
      return wireError('s3', 'InvalidURI', message);
    case 'icebergRest':
      return badRequest(message);
    default:
      return service.api?.malformed(message) ?? wireError(undefined, 'ValidationException', message);
  }
}

/**
 * The protocol of a request that speaks an RPC protocol, told from its headers as the services' claims() tell it:
 * rpcv2Cbor's `smithy-protocol`, awsJson's `X-Amz-Target`, awsQuery's form POST. Undefined for REST requests.
 */
function rpcStyleOf(req: IncomingMessage): ErrorStyle | undefined {
  const type = String(req.headers['content-type'] ?? '');
  if (String(req.headers['smithy-protocol'] ?? '').toLowerCase() === 'rpc-v2-cbor')
    return { protocol: 'rpcv2Cbor', messageKey: 'message' };
  if (req.headers['x-amz-target'] !== undefined)
    return { protocol: type.includes('x-amz-json-1.0') ? 'awsJson1_0' : 'awsJson1_1', messageKey: 'message' };
  if (req.method === 'POST' && type.startsWith('application/x-www-form-urlencoded')) return QUERY_STYLE;
  return undefined;
}

/**
 * The request body; with a Content-Length, read into one buffer of that size (no list of chunks to join). Past
 * `limit` bytes (declared or received) nothing more is kept: RequestBodyError.
 */
function readBody(req: IncomingMessage, limit?: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  const over = () =>
    new RequestBodyError(
      'too-large',
      `The request body is over the local endpoint's limit of ${limit} bytes: send less per request.`,
    );
  if (limit !== undefined && Number.isSafeInteger(declared) && declared > limit)
    return Promise.reject(over());
  const preallocated =
    Number.isSafeInteger(declared) && declared > 0 && declared <= MAX_PREALLOCATED_BODY
      ? Buffer.allocUnsafe(declared)
      : undefined;
  return new Promise((resolve, reject) => {
    let length = 0;
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (limit !== undefined && received > limit) {
        req.off('data', onData);
        chunks.length = 0;
        reject(over());
        return;
      }
      if (preallocated && chunks.length === 0 && length + chunk.length <= preallocated.length) {
        preallocated.set(chunk, length);
        length += chunk.length;
      } else chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('error', reject);
    req.on('end', () => {
      // A body that disagrees with its Content-Length is passed on as received; the service judges it.
      const head = preallocated ? [preallocated.subarray(0, length)] : [];
      resolve(
        chunks.length === 0 && preallocated
          ? preallocated.subarray(0, length)
          : Buffer.concat([...head, ...chunks]),
      );
    });
  });
}

/** Largest body read into one preallocated buffer (the RPC services' largest: request-body.ts). */
const MAX_PREALLOCATED_BODY = MAX_RPC_BODY_BYTES;

function cryptoRandomId(): string {
  return globalThis.crypto.randomUUID();
}
