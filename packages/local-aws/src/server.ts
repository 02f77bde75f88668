// The local AWS endpoint: one HTTP server on 127.0.0.1 that answers the services of served-services.ts
// over the embedded engine. Requests are dispatched to the first service module that claims them (see protocol.ts);
// `/_local/...` is the endpoint's own admin API (maintenance runs, flushes, stats). Without authorization any access
// key / secret (or none) is accepted; with it (authz/) only SigV4 is read, the access key identifies the caller, and
// what IAM and Lake Formation would refuse is refused — the admin API included (an administrator's, or the start-time
// token's). Signatures themselves are never verified. One endpoint holds a data folder at a time (data-lock.ts).
// This file starts and stops it; the services are built in endpoint-services.ts, each request finds its way in
// dispatch.ts, and the HTTP side (bodies, targets, request ids) is http-exchange.ts.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Warehouse } from '@loglake/lakehouse';
import type { LocalServiceCredentials } from './admin-client';
import {
  createAuthorization,
  warehouseTableId,
  type AuthorizationOptions,
  type ServiceCredentialsRequest,
} from './authz';
import { localDataPath } from './data-dir';
import { DataFolderLock } from './data-lock';
import { openInPlace } from './data-place';
import { createDispatch } from './dispatch';
import { loadEngineFactories, type EngineFactories } from './engine';
import { createEndpointServices } from './endpoint-services';
import { LocalAwsError, LocalEndpointConfigError } from './errors';
import { FaultInjector, type FaultOptions } from './faults';
import type { StreamRecovery } from './firehose/service';
import { listenOnLoopback } from './http-exchange';
import type { ServedService } from './model/api';
import type { MaintenanceService } from './s3tables/maintenance';
import { JsonStore } from './store';

export { splitTarget } from './http-exchange';

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

// Start order: the lock (startLocalEndpoint), the authorization options, the warehouse, the services, then listening;
// stop closes them the other way round (the services before the warehouse).
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
  const { services, firehose, athena, cloudwatch, maintenance } = await createEndpointServices({
    options,
    dataDir,
    region,
    store,
    faults,
    factories,
    warehouse,
    authz,
  });

  const authorizer = authz?.requestAuthorizer({
    workgroupOfQuery: athena.workgroupOfQuery,
    tableId: warehouseTableId(warehouse),
  });
  const adminAccess = authz && authorizer ? authz.adminAccess(authorizer) : undefined;
  const dispatch = createDispatch({
    services,
    ...(authorizer ? { authorizer } : {}),
    ...(adminAccess ? { adminAccess } : {}),
    admin: { maintenance, firehose, cloudwatch, faults, authorization: authz !== undefined },
  });

  const { server, port: actualPort } = await listenOnLoopback(port, dispatch).catch(
    async (error: unknown) => {
      await warehouse.close();
      throw error;
    },
  );
  lock.update({ port: actualPort });
  firehose.replay();
  const scheduled = scheduleMaintenance(maintenance, options.maintenanceIntervalSeconds);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await scheduled.stop();
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

/**
 * Scheduled maintenance (when asked for: every `intervalSeconds` > 0): one run at a time; a failed run is reported
 * in the job status. stop() ends the schedule and waits for a run under way.
 */
function scheduleMaintenance(
  maintenance: MaintenanceService,
  intervalSeconds: number | undefined,
): { stop(): Promise<void> } {
  let scheduledRun: Promise<unknown> = Promise.resolve();
  let scheduledBusy = false;
  const maintenanceTimer =
    intervalSeconds && intervalSeconds > 0
      ? setInterval(() => {
          if (scheduledBusy) return;
          scheduledBusy = true;
          scheduledRun = maintenance
            .run()
            .catch(() => undefined)
            .finally(() => (scheduledBusy = false));
        }, intervalSeconds * 1000)
      : undefined;
  maintenanceTimer?.unref();
  return {
    async stop() {
      if (maintenanceTimer) clearInterval(maintenanceTimer);
      await scheduledRun;
    },
  };
}
