// DDL and utility statements: CREATE TABLE (Athena's Iceberg form and the S3 Tables form), DROP TABLE, SHOW TABLES,
// DESCRIBE, ALTER TABLE ADD COLUMNS; and the property/partitioning helpers CTAS shares.
import type { ColumnDefinition, PartitionFieldDefinition, StatementResult, Transform } from '../contract';
import { currentSchema } from '../metadata/table-metadata';
import type { ColumnDef, Expr, Identifier, PartitionSpecItem, Statement } from './ast';
import type { DdlEnvironment } from './engine';
import {
  CatalogNotFoundError,
  ColumnNotFoundError,
  GenericUserError,
  NotSupportedError,
  SchemaNotFoundError,
  SqlSyntaxError,
  SqlTableAlreadyExistsError,
  TableNotFoundError,
} from './errors';
import {
  bucketOfCatalog,
  isNotFound,
  loadResolvedTable,
  resolveName,
  type ResolvedName,
} from './name-resolution';
import { icebergToAthena, icebergType } from './types';

export const done = (statementType: StatementResult['statementType']): StatementResult => ({
  statementType,
  columns: [],
  rows: [],
  stats: { dataScannedInBytes: 0, engineExecutionTimeInMillis: 0 },
});

export function rowsResult(count: number, bytes: number): StatementResult {
  return {
    statementType: 'DML',
    columns: [{ name: 'rows', type: 'bigint' }],
    rows: [[String(count)]],
    stats: { dataScannedInBytes: bytes, engineExecutionTimeInMillis: 0, rowsAffected: count },
  };
}

export function propertyText(properties: Record<string, Expr>, key: string): string | undefined {
  const e = properties[key];
  if (!e) return undefined;
  if (e.k === 'string') return e.value;
  if (e.k === 'number') return e.text;
  if (e.k === 'bool') return String(e.value);
  throw new GenericUserError('INVALID_TABLE_PROPERTY', `Table property '${key}' must be a literal`, {
    position: e.pos,
    value: key,
  });
}

export function duplicateColumn(column: Identifier): GenericUserError {
  return new GenericUserError(
    'DUPLICATE_COLUMN_NAME',
    `Column name '${column.name}' specified more than once`,
    {
      position: column.pos,
      value: column.name,
    },
  );
}

/** A DDL column definition as the engine's ColumnDefinition. */
function columnDefinition(c: ColumnDef, required: boolean): ColumnDefinition {
  return {
    name: c.name.name,
    type: icebergType(c.type),
    required,
    ...(c.comment ? { doc: c.comment } : {}),
  };
}

function transformOf(item: PartitionSpecItem): Transform {
  if (item.transform === 'bucket') return `bucket[${item.param ?? 0}]`;
  if (item.transform === 'truncate') return `truncate[${item.param ?? 0}]`;
  return item.transform;
}

export function partitionFields(items: PartitionSpecItem[], columns: string[]): PartitionFieldDefinition[] {
  return items.map((item) => {
    if (!columns.includes(item.column)) throw new ColumnNotFoundError(item.column, item.pos);
    return { sourceColumn: item.column, transform: transformOf(item) };
  });
}

export async function tableExists(env: DdlEnvironment, name: ResolvedName): Promise<boolean> {
  try {
    await env.warehouse.getTable(name.bucket, name.namespace, name.table);
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

export async function requireNamespace(
  env: DdlEnvironment,
  name: Pick<ResolvedName, 'catalog' | 'bucket' | 'namespace'>,
  pos: Statement['pos'],
): Promise<void> {
  try {
    await env.warehouse.getNamespace(name.bucket, name.namespace);
  } catch (error) {
    if (isNotFound(error)) throw new SchemaNotFoundError(`${name.catalog}.${name.namespace}`, pos, error);
    throw error;
  }
}

export function checkTableType(properties: Record<string, Expr>): Record<string, string> {
  const tableType = propertyText(properties, 'table_type');
  if (tableType !== undefined && tableType.toLowerCase() !== 'iceberg') {
    throw new NotSupportedError(
      `table_type '${tableType}' (the S3 Tables catalog holds Iceberg tables only)`,
      properties['table_type']?.pos,
    );
  }
  const out: Record<string, string> = {};
  for (const key of Object.keys(properties)) {
    if (['table_type', 'partitioning', 'location', 'is_external'].includes(key)) continue;
    out[key] = propertyText(properties, key) as string;
  }
  return out;
}

export async function executeCreateTable(
  env: DdlEnvironment,
  s: Extract<Statement, { k: 'create-table' }>,
): Promise<StatementResult> {
  const name = resolveName(s.name, env.context);
  const properties = checkTableType(s.properties);
  const seen = new Set<string>();
  const columns = s.columns.map((c) => {
    if (seen.has(c.name.name)) throw duplicateColumn(c.name);
    seen.add(c.name.name);
    return columnDefinition(c, c.notNull);
  });
  const partitionBy = partitionFields(s.partitioning, [...seen]);
  await requireNamespace(env, name, s.pos);
  if (await tableExists(env, name)) {
    if (s.ifNotExists) return done('DDL');
    throw new SqlTableAlreadyExistsError(name.display, s.name.pos);
  }
  if (s.comment) properties['comment'] = s.comment;
  await env.warehouse.createTable(name.bucket, name.namespace, name.table, {
    columns,
    partitionBy,
    properties,
  });
  return done('DDL');
}

export async function executeDropTable(
  env: DdlEnvironment,
  s: Extract<Statement, { k: 'drop-table' }>,
): Promise<StatementResult> {
  const name = resolveName(s.name, env.context);
  try {
    await env.warehouse.dropTable(name.bucket, name.namespace, name.table, { purge: true });
  } catch (error) {
    if (!isNotFound(error)) throw error;
    if (!s.ifExists) throw new TableNotFoundError(name.display, s.name.pos, error);
  }
  return done('DDL');
}

export async function executeShowTables(
  env: DdlEnvironment,
  s: Extract<Statement, { k: 'show-tables' }>,
): Promise<StatementResult> {
  const parts = s.schema?.parts.map((p) => p.name) ?? [];
  const catalog = (parts.length === 2 ? parts[0] : env.context.catalog) ?? 'awsdatacatalog';
  const namespace = parts.length >= 1 ? parts[parts.length - 1] : env.context.database;
  if (!namespace) {
    throw new SqlSyntaxError(
      'Schema must be specified when session schema is not set (use SHOW TABLES IN <namespace> or pass a database in the query context)',
      s.pos,
    );
  }
  const bucket = bucketOfCatalog(catalog);
  if (bucket === null) throw new CatalogNotFoundError(catalog, s.pos);
  const name = { catalog: catalog.toLowerCase(), bucket, namespace };
  await requireNamespace(env, name, s.schema?.pos ?? s.pos);
  const tables = await env.warehouse.listTables(name.bucket, name.namespace);
  let names = tables.map((t) => t.name).sort();
  if (s.like !== undefined) {
    // Athena's Hive form takes a regex with * and |; SHOW TABLES LIKE takes SQL LIKE wildcards.
    const source =
      s.like.includes('%') || s.like.includes('_')
        ? s.like
            .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
            .replace(/%/g, '.*')
            .replace(/_/g, '.')
        : s.like.replace(/[.+?^${}()[\]\\]/g, '\\$&').replace(/\*/g, '.*');
    const pattern = new RegExp(`^(?:${source})$`, 'i');
    names = names.filter((n) => pattern.test(n));
  }
  return {
    ...done('UTILITY'),
    columns: [{ name: 'tab_name', type: 'varchar' }],
    rows: names.map((n) => [n]),
  };
}

export async function executeDescribe(
  env: DdlEnvironment,
  s: Extract<Statement, { k: 'describe' }>,
): Promise<StatementResult> {
  const name = resolveName(s.name, env.context);
  const table = await loadResolvedTable(env.warehouse, name, s.name.pos);
  const metadata = await table.metadata();
  const schema = currentSchema(metadata);
  const rows: (string | null)[][] = schema.fields.map((f) => [f.name, icebergToAthena(f.type), f.doc ?? '']);
  const spec = metadata['partition-specs'].find((p) => p['spec-id'] === metadata['default-spec-id']);
  if (spec && spec.fields.length) {
    rows.push(['', '', ''], ['# Partition Transforms', '', ''], ['# col_name', 'transform', '']);
    for (const field of spec.fields) {
      const source = schema.fields.find((f) => f.id === field['source-id']);
      rows.push([source?.name ?? field.name, field.transform, '']);
    }
  }
  return {
    ...done('UTILITY'),
    columns: [
      { name: 'col_name', type: 'varchar' },
      { name: 'data_type', type: 'varchar' },
      { name: 'comment', type: 'varchar' },
    ],
    rows,
  };
}

export async function executeAlterAddColumns(
  env: DdlEnvironment,
  s: Extract<Statement, { k: 'alter-add-columns' }>,
): Promise<StatementResult> {
  const name = resolveName(s.name, env.context);
  const table = await loadResolvedTable(env.warehouse, name, s.name.pos);
  const existing = new Set(currentSchema(await table.metadata()).fields.map((f) => f.name.toLowerCase()));
  const columns = s.columns.map((c) => {
    if (existing.has(c.name.name)) {
      throw new GenericUserError('COLUMN_ALREADY_EXISTS', `Column '${c.name.name}' already exists`, {
        position: c.name.pos,
        value: c.name.name,
      });
    }
    existing.add(c.name.name);
    return columnDefinition(c, false);
  });
  await table.addColumns(columns);
  return done('DDL');
}
