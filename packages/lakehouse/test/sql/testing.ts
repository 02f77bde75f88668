// TEST SUPPORT for the SQL front end's tests: catalogs standing in for the ones the local endpoint plugs in.
import type { TableHandle } from '../../src/contract';
import type { CatalogProvider, ParquetTableRegistration, SqlCatalog } from '../../src/sql/catalog/catalog';

/** A Hive catalog standing in for Glue's AwsDataCatalog: the given schemas, tables registered by CTAS. */
export function memoryHiveCatalog(
  schemas: string[],
): CatalogProvider & { tables: Map<string, ParquetTableRegistration> } {
  const tables = new Map<string, ParquetTableRegistration>();
  const catalog: SqlCatalog = {
    name: 'awsdatacatalog',
    kind: 'glue',
    schemaExists: async (schema) => schemas.includes(schema),
    listTables: async (schema) =>
      [...tables.keys()].filter((k) => k.startsWith(`${schema}.`)).map((k) => k.slice(schema.length + 1)),
    tableExists: async (schema, table) => tables.has(`${schema}.${table}`),
    loadTable: async (schema, table, services): Promise<TableHandle | undefined> => {
      const registered = tables.get(`${schema}.${table}`);
      if (!registered) return undefined;
      return services.parquetTable({
        schema,
        name: table,
        location: registered.location,
        columns: registered.columns,
        properties: {},
        version: '0',
        updatedMs: 0,
      });
    },
    createTable: () => Promise.reject(new Error('not in this test')),
    dropTable: async (schema, table) => tables.delete(`${schema}.${table}`),
    registerParquetTable: async (schema, table, registration) => {
      tables.set(`${schema}.${table}`, registration);
    },
  };
  return { tables, catalog: (name) => (name === 'awsdatacatalog' ? catalog : undefined) };
}
