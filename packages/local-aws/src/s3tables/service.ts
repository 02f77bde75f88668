// Amazon S3 Tables (restJson1) over the embedded warehouse: every operation of S3 Tables' model, found by the
// model's HTTP bindings and checked against it (protocol.ts restJsonService), each handler typed with the SDK's
// input and output types (operations.ts).
import type { Warehouse } from '@loglake/lakehouse';
import { restJsonService, type ServiceModule } from '../protocol';
import type { JsonStore } from '../store';
import { catalogOperations } from './catalog-ops';
import { S3TABLES_API, s3TablesContext } from './context';
import type { MaintenanceService } from './maintenance';
import { maintenanceOperations } from './maintenance-ops';
import type { S3TablesOperations } from './operations';
import { S3TablesSettings } from './settings';
import { settingsOperations } from './settings-ops';

export interface S3TablesOptions {
  warehouse: Warehouse;
  store: JsonStore;
  maintenance: MaintenanceService;
  region: string;
}

export function createS3TablesService(options: S3TablesOptions): ServiceModule {
  const ctx = s3TablesContext({ ...options, settings: new S3TablesSettings(options.store) });
  const operations: S3TablesOperations = {
    ...catalogOperations(ctx),
    ...maintenanceOperations(ctx),
    ...settingsOperations(ctx),
  };
  return restJsonService({
    name: 'S3Tables',
    api: S3TABLES_API,
    internalErrorCode: 'InternalServerErrorException',
    operations,
  });
}
