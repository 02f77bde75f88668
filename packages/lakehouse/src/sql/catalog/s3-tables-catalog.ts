// S3 Tables as Athena sees them: each table bucket is the catalog `s3tablescatalog/<bucket>`, its namespaces
// are schemas and its tables are the warehouse's Iceberg tables. Buckets come and go through the S3 Tables API,
// so the provider answers for any bucket name and the warehouse says whether it exists.
import type { CreateTableInput, TableHandle, Warehouse } from '../../contract';
import { NoSuchNamespaceError, NoSuchTableBucketError, NoSuchTableError } from '../../errors';
import type { CatalogProvider, SqlCatalog } from './catalog';

export const S3_TABLES_CATALOG = 's3tablescatalog';

/** The engine's "no such bucket / namespace / table" (what a catalog reports as absent rather than failing). */
function isAbsent(error: unknown): boolean {
  return (
    error instanceof NoSuchTableBucketError ||
    error instanceof NoSuchNamespaceError ||
    error instanceof NoSuchTableError
  );
}

async function orAbsent<T>(work: Promise<T>, absent: T): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isAbsent(error)) return absent;
    throw error;
  }
}

/** The table bucket a catalog name designates (`s3tablescatalog/<bucket>`), or null for any other catalog. */
export function bucketOfCatalog(catalog: string): string | null {
  const lower = catalog.toLowerCase();
  if (!lower.startsWith(`${S3_TABLES_CATALOG}/`)) return null;
  const bucket = catalog.slice(S3_TABLES_CATALOG.length + 1);
  return bucket.length ? bucket : null;
}

class S3TablesCatalog implements SqlCatalog {
  readonly kind = 's3tables' as const;
  readonly name: string;

  constructor(
    private readonly warehouse: Warehouse,
    private readonly bucket: string,
  ) {
    this.name = `${S3_TABLES_CATALOG}/${bucket}`.toLowerCase();
  }

  schemaExists(schema: string): Promise<boolean> {
    return orAbsent(
      this.warehouse.getNamespace(this.bucket, schema).then(() => true),
      false,
    );
  }

  async listTables(schema: string): Promise<string[] | undefined> {
    if (!(await this.schemaExists(schema))) return undefined;
    const tables = await this.warehouse.listTables(this.bucket, schema);
    return tables.map((t) => t.name).sort();
  }

  loadTable(schema: string, table: string): Promise<TableHandle | undefined> {
    return orAbsent<TableHandle | undefined>(this.warehouse.loadTable(this.bucket, schema, table), undefined);
  }

  tableExists(schema: string, table: string): Promise<boolean> {
    return orAbsent(
      this.warehouse.getTable(this.bucket, schema, table).then(() => true),
      false,
    );
  }

  createTable(schema: string, table: string, input: CreateTableInput): Promise<TableHandle> {
    return this.warehouse.createTable(this.bucket, schema, table, input);
  }

  dropTable(schema: string, table: string): Promise<boolean> {
    return orAbsent(
      this.warehouse.dropTable(this.bucket, schema, table, { purge: true }).then(() => true),
      false,
    );
  }
}

/** Every `s3tablescatalog/<bucket>` of the warehouse. */
export function s3TablesCatalogs(warehouse: Warehouse): CatalogProvider {
  return {
    catalog(name) {
      const bucket = bucketOfCatalog(name);
      return bucket === null ? undefined : new S3TablesCatalog(warehouse, bucket);
    },
  };
}
