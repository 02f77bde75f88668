// Utility statements that describe what the catalogs hold: SHOW TABLES, SHOW COLUMNS, DESCRIBE, SHOW CREATE
// TABLE and SHOW TBLPROPERTIES (Athena's pages for Iceberg tables), answered from table metadata.
import type { StatementResult, TableMetadata } from '../../contract';
import { sqlIdent, sqlString } from '../../duckdb/duckdb-session';
import { currentSchema, DEFAULT_PROPERTIES } from '../../metadata/table-metadata';
import { loadResolvedTable, requireSchema, resolveName, resolveSchema } from '../analyzer/name-resolution';
import { icebergToAthena } from '../analyzer/types';
import { isHiveTable } from '../catalog/catalog';
import type { Statement } from '../tree/ast';
import { textResult, type ExecutionContext } from './context';

export async function executeShowTables(
  ctx: ExecutionContext,
  s: Extract<Statement, { k: 'show-tables' }>,
): Promise<StatementResult> {
  const schema = resolveSchema(s.schema, ctx.session, ctx.catalogs, s.pos);
  await requireSchema(schema, s.schema?.pos ?? s.pos);
  let names = (await schema.catalog.listTables(schema.schema)) ?? [];
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
  return textResult(
    ['tab_name'],
    names.map((n) => [n]),
  );
}

async function metadataOf(ctx: ExecutionContext, name: Extract<Statement, { name: unknown }>['name']) {
  const resolved = resolveName(name, ctx.session, ctx.catalogs);
  const table = await loadResolvedTable(resolved, ctx.services, name.pos);
  return { resolved, table, metadata: await table.metadata() };
}

/** Partition fields as Athena's DDL writes them: `col`, `hour(col)`, `bucket(16, col)`, `truncate(10, col)`. */
function partitionTexts(metadata: TableMetadata): string[] {
  const schema = currentSchema(metadata);
  const spec = metadata['partition-specs'].find((p) => p['spec-id'] === metadata['default-spec-id']);
  return (spec?.fields ?? []).map((field) => {
    const source = schema.fields.find((f) => f.id === field['source-id'])?.name ?? field.name;
    const parameterised = /^(bucket|truncate)\[(\d+)\]$/.exec(field.transform);
    if (parameterised) return `${parameterised[1]}(${parameterised[2]}, ${source})`;
    return field.transform === 'identity' ? source : `${field.transform}(${source})`;
  });
}

export async function executeDescribe(
  ctx: ExecutionContext,
  s: Extract<Statement, { k: 'describe' }>,
): Promise<StatementResult> {
  const { table, metadata } = await metadataOf(ctx, s.name);
  // A Hive table's columns as its catalog records them (array<string>, tinyint...).
  const hiveTypes = isHiveTable(table) ? table.hiveColumns.map((c) => c.type) : undefined;
  const rows: (string | null)[][] = currentSchema(metadata).fields.map((f, i) => [
    f.name,
    hiveTypes?.[i] ?? icebergToAthena(f.type),
    f.doc ?? '',
  ]);
  const schema = currentSchema(metadata);
  const spec = metadata['partition-specs'].find((p) => p['spec-id'] === metadata['default-spec-id']);
  if (spec && spec.fields.length) {
    rows.push(['', '', ''], ['# Partition Transforms', '', ''], ['# col_name', 'transform', '']);
    for (const field of spec.fields) {
      const source = schema.fields.find((f) => f.id === field['source-id']);
      rows.push([source?.name ?? field.name, field.transform, '']);
    }
  }
  return textResult(['col_name', 'data_type', 'comment'], rows);
}

/** SHOW COLUMNS {FROM|IN} [db.]table: the column names only (Athena's SHOW COLUMNS page). */
export async function executeShowColumns(
  ctx: ExecutionContext,
  s: Extract<Statement, { k: 'show-columns' }>,
): Promise<StatementResult> {
  const { metadata } = await metadataOf(ctx, s.name);
  return textResult(
    ['field'],
    currentSchema(metadata).fields.map((f) => [f.name]),
  );
}

/**
 * SHOW CREATE TABLE: a CREATE TABLE statement that recreates the table (columns, comments, partition transforms,
 * the table properties that differ from the engine's defaults), one line per row as Athena returns DDL text.
 */
export async function executeShowCreateTable(
  ctx: ExecutionContext,
  s: Extract<Statement, { k: 'show-create-table' }>,
): Promise<StatementResult> {
  const { resolved, metadata } = await metadataOf(ctx, s.name);
  const fields = currentSchema(metadata).fields;
  const lines = [`CREATE TABLE ${resolved.schema}.${resolved.table} (`];
  fields.forEach((f, i) => {
    const comment = f.doc ? ` COMMENT ${sqlString(f.doc)}` : '';
    lines.push(
      `  ${sqlIdent(f.name)} ${icebergToAthena(f.type)}${comment}${i < fields.length - 1 ? ',' : ')'}`,
    );
  });
  const { comment, ...rest } = metadata.properties;
  if (comment) lines.push(`COMMENT ${sqlString(comment)}`);
  const partitions = partitionTexts(metadata);
  if (partitions.length) lines.push(`PARTITIONED BY (${partitions.join(', ')})`);
  const properties = Object.entries(rest)
    .filter(([key, value]) => DEFAULT_PROPERTIES[key] !== value)
    .sort(([a], [b]) => a.localeCompare(b));
  lines.push('TBLPROPERTIES (', `  'table_type'='iceberg'${properties.length ? ',' : ''}`);
  properties.forEach(([key, value], i) =>
    lines.push(`  ${sqlString(key)}=${sqlString(value)}${i < properties.length - 1 ? ',' : ''}`),
  );
  lines.push(')');
  return textResult(
    ['createtab_stmt'],
    lines.map((line) => [line]),
  );
}

/** SHOW TBLPROPERTIES t [('key')]: the table's properties (Athena's page for Iceberg tables). */
export async function executeShowTblProperties(
  ctx: ExecutionContext,
  s: Extract<Statement, { k: 'show-tblproperties' }>,
): Promise<StatementResult> {
  const { metadata } = await metadataOf(ctx, s.name);
  const entries = Object.entries({ table_type: 'ICEBERG', ...metadata.properties })
    .filter(([key]) => s.key === undefined || key === s.key)
    .sort(([a], [b]) => a.localeCompare(b));
  return textResult(['prpt_name', 'prpt_value'], entries);
}
