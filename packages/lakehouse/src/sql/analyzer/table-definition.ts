// What a DDL statement says about a table, checked before anything is created: its properties (literals only,
// Iceberg tables only), column definitions (no name twice) and partition transforms (over its own columns).
import type { ColumnDefinition, PartitionFieldDefinition, Schema, Transform } from '../../contract';
import { ColumnNotFoundError, GenericUserError, NotSupportedError } from '../errors';
import type { ColumnDef, Expr, Identifier, PartitionSpecItem } from '../tree/ast';
import { icebergType } from './types';

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
    { position: column.pos, value: column.name },
  );
}

/** A DDL column definition as the engine's ColumnDefinition. */
export function columnDefinition(c: ColumnDef, required: boolean): ColumnDefinition {
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

/** The table properties of an Iceberg CREATE TABLE / CTAS as strings, refusing any other table type. */
export function icebergProperties(properties: Record<string, Expr>): Record<string, string> {
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

/** The field a statement names, or COLUMN_NOT_FOUND at the name. */
export function schemaField(schema: Schema, column: Identifier): Schema['fields'][number] {
  const field = schema.fields.find((f) => f.name.toLowerCase() === column.name);
  if (!field) throw new ColumnNotFoundError(column.name, column.pos);
  return field;
}

/** Target columns of INSERT / UPDATE / MERGE: each must exist, none twice. */
export function checkColumns(schema: Schema, columns: Identifier[]): void {
  const seen = new Set<string>();
  for (const c of columns) {
    schemaField(schema, c);
    if (seen.has(c.name)) throw duplicateColumn(c);
    seen.add(c.name);
  }
}
