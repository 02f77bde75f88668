// The services one endpoint serves, built over its opened warehouse and state store: each module wired to the ones it
// reads (Athena's SQL engine over Glue's catalog and S3's objects, Firehose's metrics into CloudWatch), in the order
// requests are offered to them (server.ts dispatches to the first that claims one), and checked against the list the
// endpoint declares (served-services.ts).
import { LocalDirectoryStorage, type SqlEngine, type Warehouse } from '@loglake/lakehouse';
import { createAthenaService } from './athena/service';
import { ATHENA_MIN_CUTOFF_BYTES } from './athena/workgroups';
import type { Authorization } from './authz';
import { createCloudWatchService, type CloudWatchService } from './cloudwatch/service';
import type { EngineFactories } from './engine';
import { LocalEndpointConfigError } from './errors';
import type { FaultInjector } from './faults';
import type { ErrorOutputObjects } from './firehose/error-output';
import { FIREHOSE_NAMESPACE } from './firehose/metrics';
import { FirehoseService } from './firehose/service';
import { createGlueService } from './glue/service';
import { glueSqlCatalog } from './glue/sql-catalog';
import { createIcebergRestService } from './iceberg-rest/service';
import { LOCAL_ACCOUNT_ID } from './arn';
import type { ServiceModule } from './protocol';
import { createS3Service } from './s3/service';
import { MaintenanceService } from './s3tables/maintenance';
import { createS3TablesService } from './s3tables/service';
import { checkServedList } from './served-services';
import type { JsonStore } from './store';
import { createCallerIdentityService } from './sts-identity';

export interface EndpointServicesContext {
  /** The services' part of LocalEndpointOptions (server.ts, where each is described). */
  options: {
    firehoseBufferIntervalOverrideSeconds?: number;
    maintenanceClock?: 'wall' | 'adjustable';
    cloudWatchClock?: 'wall' | 'adjustable';
    athenaMinCutoffBytes?: number;
  };
  dataDir: string;
  region: string;
  store: JsonStore;
  faults: FaultInjector;
  factories: EngineFactories;
  warehouse: Warehouse;
  authz: Authorization | undefined;
}

export interface EndpointServices {
  /** In the order requests are offered to them. */
  services: ServiceModule[];
  firehose: FirehoseService;
  athena: ReturnType<typeof createAthenaService>;
  cloudwatch: CloudWatchService;
  maintenance: MaintenanceService;
}

export async function createEndpointServices(context: EndpointServicesContext): Promise<EndpointServices> {
  const { options, dataDir, region, store, factories, warehouse, authz } = context;
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
  const firehose = await openFirehose(context, s3.objects, cloudwatch);
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
  return { services, firehose, athena, cloudwatch, maintenance };
}

/**
 * Opens every stream's record log and queues what it holds for replay; a log it cannot read stops the start, and
 * what is open by then (CloudWatch, the warehouse) is closed before the error is thrown.
 */
async function openFirehose(
  context: EndpointServicesContext,
  objects: ErrorOutputObjects,
  cloudwatch: CloudWatchService,
): Promise<FirehoseService> {
  const { options, dataDir, region, store, faults, warehouse, authz } = context;
  try {
    return new FirehoseService({
      warehouse,
      store,
      faults,
      region,
      dataDir,
      objects,
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
}
