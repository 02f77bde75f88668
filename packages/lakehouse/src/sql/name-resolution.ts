// Athena's name resolution for S3 Tables: `"s3tablescatalog/<bucket>".namespace.table`, `namespace.table` or
// `table`, with the default catalog and database taken from the query context.
import type { QueryContext, TableHandle, Warehouse } from '../contract';
import type { QualifiedName } from './ast';
import { CatalogNotFoundError, SqlSyntaxError, TableNotFoundError } from './errors';

export const S3_TABLES_CATALOG = 's3tablescatalog';

export interface ResolvedName {
  catalog: string;
  bucket: string;
  namespace: string;
  table: string;
  /** How Athena prints it in errors: `s3tablescatalog/bucket.ns.table`. */
  display: string;
}

/** The table bucket a catalog name designates (`s3tablescatalog/<bucket>`), or null for any other catalog. */
export function bucketOfCatalog(catalog: string): string | null {
  const lower = catalog.toLowerCase();
  if (!lower.startsWith(`${S3_TABLES_CATALOG}/`)) return null;
  const bucket = catalog.slice(S3_TABLES_CATALOG.length + 1);
  return bucket.length ? bucket : null;
}

export function resolveName(name: QualifiedName, context: QueryContext): ResolvedName {
  const parts = name.parts.map((p) => p.name);
  if (parts.length > 3) {
    throw new SqlSyntaxError(`Too many dots in table name: ${parts.join('.')}`, name.pos, parts.join('.'));
  }
  const table = parts[parts.length - 1] as string;
  const namespace = parts.length >= 2 ? (parts[parts.length - 2] as string) : context.database?.toLowerCase();
  const catalog = parts.length === 3 ? (parts[0] as string) : (context.catalog ?? 'awsdatacatalog');
  if (!namespace) {
    throw new SqlSyntaxError(
      `Schema must be specified when session schema is not set (qualify '${table}' as namespace.${table} or pass a database in the query context)`,
      name.pos,
      table,
    );
  }
  const bucket = bucketOfCatalog(catalog);
  const display = `${catalog.toLowerCase()}.${namespace}.${table}`;
  if (bucket === null) {
    if (parts.length === 3) throw new CatalogNotFoundError(catalog, name.pos);
    // Athena's default catalog is AwsDataCatalog, which holds no S3 tables: say how to reach them.
    throw new TableNotFoundError(display, name.pos);
  }
  return { catalog: catalog.toLowerCase(), bucket, namespace, table, display };
}

/** Loads a table, turning the engine's "no such bucket/namespace/table" into Athena's TABLE_NOT_FOUND. */
export async function loadResolvedTable(
  warehouse: Warehouse,
  name: ResolvedName,
  pos: QualifiedName['pos'],
): Promise<TableHandle> {
  try {
    return await warehouse.loadTable(name.bucket, name.namespace, name.table);
  } catch (error) {
    if (isNotFound(error)) throw new TableNotFoundError(name.display, pos, error);
    throw error;
  }
}

/** The engine's not-found errors (NoSuchTableError, NoSuchNamespaceError, NoSuchTableBucketError). */
export function isNotFound(error: unknown): boolean {
  return error instanceof Error && /^NoSuch/.test(error.name);
}
