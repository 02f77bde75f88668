// Table definitions, through the catalog each name resolves to: CREATE TABLE (Athena's Iceberg form and the
// S3 Tables form), DROP TABLE, the ALTER TABLE forms Athena documents for Iceberg tables (ADD COLUMNS, DROP
// COLUMN, CHANGE COLUMN, SET/UNSET TBLPROPERTIES), and the statements Athena refuses (on S3 Tables, or for
// Iceberg tables), refused as Athena refuses them.
import type { StatementResult } from '../../contract';
import { currentSchema } from '../../metadata/table-metadata';
import {
  loadResolvedTable,
  requireSchema,
  resolveName,
  type ResolvedName,
} from '../analyzer/name-resolution';
import {
  columnDefinition,
  duplicateColumn,
  icebergProperties,
  partitionFields,
  propertyText,
  schemaField,
} from '../analyzer/table-definition';
import { icebergType } from '../analyzer/types';
import { DEFAULT_CATALOG } from '../catalog/registry';
import {
  GenericUserError,
  NotSupportedError,
  RefusedByAthenaError,
  SqlTableAlreadyExistsError,
  TableNotFoundError,
} from '../errors';
import type { QualifiedName, RefusedStatement, Statement } from '../tree/ast';
import { done, type ExecutionContext } from './context';

async function loadTarget(ctx: ExecutionContext, name: QualifiedName) {
  const resolved = resolveName(name, ctx.session, ctx.catalogs);
  return { resolved, table: await loadResolvedTable(resolved, ctx.services, name.pos) };
}

export async function executeCreateTable(
  ctx: ExecutionContext,
  s: Extract<Statement, { k: 'create-table' }>,
): Promise<StatementResult> {
  const name = resolveName(s.name, ctx.session, ctx.catalogs);
  const properties = icebergProperties(s.properties);
  const seen = new Set<string>();
  const columns = s.columns.map((c) => {
    if (seen.has(c.name.name)) throw duplicateColumn(c.name);
    seen.add(c.name.name);
    return columnDefinition(c, c.notNull);
  });
  const partitionBy = partitionFields(s.partitioning, [...seen]);
  await requireSchema(name, s.pos);
  if (await name.catalog.tableExists(name.schema, name.table)) {
    if (s.ifNotExists) return done('DDL');
    throw new SqlTableAlreadyExistsError(name.display, s.name.pos);
  }
  if (s.comment) properties['comment'] = s.comment;
  await name.catalog.createTable(name.schema, name.table, { columns, partitionBy, properties });
  return done('DDL');
}

export async function executeDropTable(
  ctx: ExecutionContext,
  s: Extract<Statement, { k: 'drop-table' }>,
): Promise<StatementResult> {
  const name = resolveName(s.name, ctx.session, ctx.catalogs);
  const dropped = await name.catalog.dropTable(name.schema, name.table);
  if (!dropped && !s.ifExists) throw new TableNotFoundError(name.display, s.name.pos);
  return done('DDL');
}

export async function executeAlterAddColumns(
  ctx: ExecutionContext,
  s: Extract<Statement, { k: 'alter-add-columns' }>,
): Promise<StatementResult> {
  const { table } = await loadTarget(ctx, s.name);
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

/** ALTER TABLE t DROP COLUMN c (Athena: "Drops a column from an existing Iceberg table"). */
export async function executeAlterDropColumn(
  ctx: ExecutionContext,
  s: Extract<Statement, { k: 'alter-drop-column' }>,
): Promise<StatementResult> {
  const { table } = await loadTarget(ctx, s.name);
  const field = schemaField(currentSchema(await table.metadata()), s.column);
  await table.dropColumn(field.name);
  return done('DDL');
}

/** ALTER TABLE t CHANGE [COLUMN] old new type [COMMENT c] [FIRST | AFTER col]: rename, widen, document, move. */
export async function executeAlterChangeColumn(
  ctx: ExecutionContext,
  s: Extract<Statement, { k: 'alter-change-column' }>,
): Promise<StatementResult> {
  const { table } = await loadTarget(ctx, s.name);
  const schema = currentSchema(await table.metadata());
  const field = schemaField(schema, s.column);
  const target = s.definition.name.name;
  if (target !== field.name.toLowerCase() && schema.fields.some((f) => f.name.toLowerCase() === target)) {
    throw new GenericUserError('COLUMN_ALREADY_EXISTS', `Column '${target}' already exists`, {
      position: s.definition.name.pos,
      value: target,
    });
  }
  const after = s.position && 'after' in s.position ? schemaField(schema, s.position.after) : undefined;
  await table.changeColumn(field.name, {
    name: target,
    type: icebergType(s.definition.type),
    ...(s.definition.comment !== undefined ? { doc: s.definition.comment } : {}),
    ...(s.position ? { position: after ? { after: after.name } : { first: true } } : {}),
  });
  return done('DDL');
}

export async function executeAlterProperties(
  ctx: ExecutionContext,
  s: Extract<Statement, { k: 'alter-set-properties' | 'alter-unset-properties' }>,
): Promise<StatementResult> {
  const { table } = await loadTarget(ctx, s.name);
  if (s.k === 'alter-unset-properties') {
    await table.removeProperties(s.keys);
    return done('DDL');
  }
  const properties: Record<string, string> = {};
  for (const key of Object.keys(s.properties)) {
    if (key === 'table_type' || key === 'partitioning') {
      throw new GenericUserError('INVALID_TABLE_PROPERTY', `Table property '${key}' cannot be changed`, {
        position: s.properties[key]?.pos,
        value: key,
      });
    }
    properties[key] = propertyText(s.properties, key) as string;
  }
  await table.setProperties(properties);
  return done('DDL');
}

/** Athena's reasons for what it does not run on S3 Tables or on Iceberg tables (docs cited in the README). */
const S3_TABLES_REFUSALS: Record<RefusedStatement['what'], string> = {
  // "OPTIMIZE and VACUUM – You can manage compaction and snapshot management in S3." (Athena: Register S3 table
  // bucket catalogs and query Tables from Athena, Considerations and limitations)
  OPTIMIZE:
    'OPTIMIZE is not supported for S3 Tables: S3 compacts table buckets itself (PutTableMaintenanceConfiguration)',
  VACUUM:
    'VACUUM is not supported for S3 Tables: S3 manages snapshots and unreferenced files itself (PutTableMaintenanceConfiguration)',
  // "ALTER TABLE RENAME, CREATE VIEW, and ALTER DATABASE are not supported." (same page)
  'ALTER TABLE RENAME TO': 'ALTER TABLE RENAME is not supported for S3 Tables',
  'CREATE VIEW': 'CREATE VIEW is not supported for S3 Tables',
  'ALTER DATABASE': 'ALTER DATABASE is not supported for S3 Tables',
  // "ALTER TABLE REPLACE COLUMNS is not supported ... it is not supported for Iceberg." (ALTER TABLE CHANGE COLUMN)
  'ALTER TABLE REPLACE COLUMNS':
    'ALTER TABLE REPLACE COLUMNS is not supported for Iceberg tables: use ALTER TABLE CHANGE COLUMN',
};

export async function executeRefused(ctx: ExecutionContext, s: RefusedStatement): Promise<StatementResult> {
  let name: ResolvedName | undefined;
  if (s.table) name = resolveName(s.table, ctx.session, ctx.catalogs);
  const catalog = name?.catalog ?? ctx.catalogs.find(ctx.session.catalog ?? DEFAULT_CATALOG);
  if (catalog?.kind === 's3tables') {
    if (name && !(await catalog.tableExists(name.schema, name.table)))
      throw new TableNotFoundError(name.display, s.table?.pos);
    throw new RefusedByAthenaError(S3_TABLES_REFUSALS[s.what], s.pos, s.what);
  }
  // Elsewhere (Hive tables in AwsDataCatalog, views) Athena runs them; the local engine does not.
  throw new NotSupportedError(s.what, s.pos);
}
