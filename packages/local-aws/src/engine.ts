// How the endpoint gets its engine: the embedded warehouse (`openWarehouse`) and the SQL front end, both from
// @loglake/lakehouse. They are looked up at run time so the endpoint can be built and tested while they land;
// tests and tools may also inject their own factories.
import type { SqlEngine, Warehouse } from '@loglake/lakehouse';
import { EngineUnavailableError } from './errors';

export interface EngineFactories {
  openWarehouse(dataDir: string): Promise<Warehouse>;
  /** Absent = Athena queries fail with a reason saying the SQL front end is not available. */
  createSqlEngine?: (warehouse: Warehouse) => SqlEngine | Promise<SqlEngine>;
}

type Module = Record<string, unknown>;

// Names the SQL front end may export its factory under (first found wins).
const SQL_FACTORY_NAMES = ['createSqlEngine', 'openSqlEngine', 'createAthenaSqlEngine', 'sqlEngineFor'];

export async function loadEngineFactories(): Promise<EngineFactories> {
  let lakehouse: Module;
  try {
    lakehouse = (await import('@loglake/lakehouse')) as Module;
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new EngineUnavailableError(
      `Could not load @loglake/lakehouse (${reason}). If the package is missing, run \`pnpm install\` at the repository root.`,
      undefined,
      { cause },
    );
  }
  const open = lakehouse.openWarehouse;
  if (typeof open !== 'function') {
    throw new EngineUnavailableError(
      '@loglake/lakehouse does not export openWarehouse(dataDir) yet: the embedded engine is not available in this checkout.',
    );
  }
  const sqlName = SQL_FACTORY_NAMES.find((name) => typeof lakehouse[name] === 'function');
  const sqlFactory = sqlName
    ? (lakehouse[sqlName] as (warehouse: Warehouse) => SqlEngine | Promise<SqlEngine>)
    : undefined;
  return {
    openWarehouse: (dataDir) => (open as (dir: string) => Promise<Warehouse>)(dataDir),
    createSqlEngine: sqlFactory,
  };
}
