// The catalogs an engine knows, found by name. Athena's default catalog is AwsDataCatalog: when no Glue catalog
// is plugged in, it is an empty catalog (names in it are not found), so `db.table` without an S3 Tables catalog in
// the context fails as Athena fails for a table that is not in Glue.
import type { CreateTableInput, TableHandle } from '../../contract';
import { NotSupportedError } from '../errors';
import type { CatalogProvider, SqlCatalog } from './catalog';

export const DEFAULT_CATALOG = 'awsdatacatalog';

class EmptyCatalog implements SqlCatalog {
  readonly kind = 'glue' as const;
  constructor(readonly name: string) {}
  schemaExists = async (): Promise<boolean> => false;
  listTables = async (): Promise<string[] | undefined> => undefined;
  loadTable = async (): Promise<TableHandle | undefined> => undefined;
  tableExists = async (): Promise<boolean> => false;
  dropTable = async (): Promise<boolean> => false;
  createTable(_schema: string, _table: string, _input: CreateTableInput): Promise<TableHandle> {
    return Promise.reject(
      new NotSupportedError(
        `CREATE TABLE in ${this.name} (create Iceberg tables in s3tablescatalog/<bucket>)`,
      ),
    );
  }
}

export class CatalogRegistry {
  constructor(private readonly providers: readonly CatalogProvider[]) {}

  /** The catalog of that name (case-insensitive), the empty default catalog, or undefined when none answers. */
  find(name: string): SqlCatalog | undefined {
    for (const provider of this.providers) {
      const catalog = provider.catalog(name);
      if (catalog) return catalog;
    }
    return name.toLowerCase() === DEFAULT_CATALOG ? new EmptyCatalog(DEFAULT_CATALOG) : undefined;
  }
}
