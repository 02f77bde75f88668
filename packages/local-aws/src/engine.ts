// How the endpoint gets its engine: the embedded warehouse and the Athena SQL front end from @loglake/lakehouse.
// Tests and tools may inject their own factories instead (LocalEndpointOptions.engine).
import {
  createSqlEngine,
  openWarehouse,
  type AthenaSqlEngineOptions,
  type SqlEngine,
  type Warehouse,
} from '@loglake/lakehouse';

export interface EngineFactories {
  openWarehouse(dataDir: string): Promise<Warehouse>;
  /** Absent = Athena queries fail with a reason saying the SQL front end is not available. */
  createSqlEngine?: (
    warehouse: Warehouse,
    options?: AthenaSqlEngineOptions,
  ) => SqlEngine | Promise<SqlEngine>;
}

export async function loadEngineFactories(): Promise<EngineFactories> {
  return {
    openWarehouse: (dataDir) => openWarehouse(dataDir),
    createSqlEngine: (warehouse, options) => createSqlEngine(warehouse, options),
  };
}
