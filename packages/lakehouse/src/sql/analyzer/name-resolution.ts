// Athena's name resolution: `catalog.schema.table`, `schema.table` or `table`, with the default catalog and
// database taken from the query context, each name resolved through the catalog that answers for it
// (`"s3tablescatalog/<bucket>".ns.t` for S3 Tables, `awsdatacatalog.db.t` or `db.t` for Glue).
import type { QueryContext, TableHandle } from '../../contract';
import type { CatalogServices, SqlCatalog } from '../catalog/catalog';
import { DEFAULT_CATALOG, type CatalogRegistry } from '../catalog/registry';
import {
  CatalogNotFoundError,
  SchemaNotFoundError,
  SqlSyntaxError,
  TableNotFoundError,
  type SourcePosition,
} from '../errors';
import type { QualifiedName } from '../tree/ast';

export interface ResolvedSchema {
  catalog: SqlCatalog;
  schema: string;
}

export interface ResolvedName extends ResolvedSchema {
  table: string;
  /** How Athena prints it in errors: `s3tablescatalog/bucket.ns.table`. */
  display: string;
}

function findCatalog(catalogs: CatalogRegistry, name: string, pos: SourcePosition): SqlCatalog {
  const catalog = catalogs.find(name);
  if (!catalog) throw new CatalogNotFoundError(name.toLowerCase(), pos);
  return catalog;
}

const missingSchema = (hint: string, pos: SourcePosition, value: string): SqlSyntaxError =>
  new SqlSyntaxError(
    `Schema must be specified when session schema is not set (${hint} or pass a database in the query context)`,
    pos,
    value,
  );

/** A table name as written, with the query context's defaults filled in (Athena's rules, no catalog lookup). */
export interface QualifiedTableName {
  catalog: string;
  schema: string;
  table: string;
}

export function qualifyTableName(name: QualifiedName, session: QueryContext): QualifiedTableName {
  const parts = name.parts.map((p) => p.name);
  if (parts.length > 3) {
    throw new SqlSyntaxError(`Too many dots in table name: ${parts.join('.')}`, name.pos, parts.join('.'));
  }
  const table = parts[parts.length - 1] as string;
  const schema = parts.length >= 2 ? (parts[parts.length - 2] as string) : session.database?.toLowerCase();
  if (!schema) throw missingSchema(`qualify '${table}' as namespace.${table}`, name.pos, table);
  const catalog = parts.length === 3 ? (parts[0] as string) : (session.catalog ?? DEFAULT_CATALOG);
  return { catalog, schema, table };
}

export function resolveName(
  name: QualifiedName,
  session: QueryContext,
  catalogs: CatalogRegistry,
): ResolvedName {
  const { catalog: catalogName, schema, table } = qualifyTableName(name, session);
  const catalog = findCatalog(catalogs, catalogName, name.pos);
  return { catalog, schema, table, display: `${catalog.name}.${schema}.${table}` };
}

/** `[catalog.]schema` as SHOW TABLES IN names it, or the context's database. */
export function resolveSchema(
  name: QualifiedName | undefined,
  session: QueryContext,
  catalogs: CatalogRegistry,
  pos: SourcePosition,
): ResolvedSchema {
  const parts = name?.parts.map((p) => p.name) ?? [];
  const catalogName = (parts.length === 2 ? parts[0] : session.catalog) ?? DEFAULT_CATALOG;
  const schema = parts.length >= 1 ? parts[parts.length - 1] : session.database?.toLowerCase();
  if (!schema) throw missingSchema('use SHOW TABLES IN <namespace>', pos, '');
  return { catalog: findCatalog(catalogs, catalogName, name?.pos ?? pos), schema };
}

export async function requireSchema(name: ResolvedSchema, pos: SourcePosition): Promise<void> {
  if (!(await name.catalog.schemaExists(name.schema)))
    throw new SchemaNotFoundError(`${name.catalog.name}.${name.schema}`, pos);
}

/** The table's handle, or Athena's TABLE_NOT_FOUND naming it as written. */
export async function loadResolvedTable(
  name: ResolvedName,
  services: CatalogServices,
  pos: SourcePosition,
): Promise<TableHandle> {
  const table = await name.catalog.loadTable(name.schema, name.table, services);
  if (!table) throw new TableNotFoundError(name.display, pos);
  return table;
}
