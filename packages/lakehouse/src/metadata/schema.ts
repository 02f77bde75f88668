// Iceberg schemas: building from column definitions and evolving them (add, rename, drop, promote, move)
// without reusing ids.
import type { ColumnChange, ColumnDefinition, Schema, SchemaField } from '../contract';
import { InvalidSchemaError, SchemaMismatchError } from '../errors';
import { normaliseType } from './types';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function checkName(name: string, existing: readonly string[]): void {
  if (!NAME.test(name) || name.length > 255) {
    throw new InvalidSchemaError(
      `Invalid column name '${name}': use letters, digits and underscores, starting with a letter or underscore.`,
      { value: name },
    );
  }
  if (existing.some((other) => other.toLowerCase() === name.toLowerCase())) {
    throw new InvalidSchemaError(
      `Column '${name}' already exists (names are case-insensitive); pick another name.`,
      {
        value: name,
      },
    );
  }
}

function toField(column: ColumnDefinition, id: number): SchemaField {
  let type;
  try {
    type = normaliseType(column.type);
  } catch (error) {
    throw new InvalidSchemaError(`Column '${column.name}': ${(error as Error).message}`, {
      value: column.type,
      cause: error,
    });
  }
  const field: SchemaField = { id, name: column.name, type, required: column.required ?? false };
  if (column.doc !== undefined) field.doc = column.doc;
  return field;
}

/** A schema with ids firstId, firstId+1, ... */
export function buildSchema(schemaId: number, columns: readonly ColumnDefinition[], firstId = 1): Schema {
  if (columns.length === 0)
    throw new InvalidSchemaError('A table needs at least one column.', { value: columns });
  const names: string[] = [];
  const fields = columns.map((column, index) => {
    checkName(column.name, names);
    names.push(column.name);
    return toField(column, firstId + index);
  });
  return { 'schema-id': schemaId, type: 'struct', fields };
}

/** Finds a field by name (exact, then case-insensitive), or throws SchemaMismatchError naming the table's columns. */
export function findField(schema: Schema, name: string, table = 'the table'): SchemaField {
  const field =
    schema.fields.find((f) => f.name === name) ??
    schema.fields.find((f) => f.name.toLowerCase() === name.toLowerCase());
  if (!field) {
    throw new SchemaMismatchError(
      `Column '${name}' does not exist in ${table}; its columns are ${schema.fields.map((f) => f.name).join(', ')}.`,
      { value: name },
    );
  }
  return field;
}

export function fieldById(schema: Schema, id: number): SchemaField | undefined {
  return schema.fields.find((f) => f.id === id);
}

/** New schema with columns appended as optional fields (Iceberg forbids adding required columns to data). */
export function addColumnsToSchema(
  schema: Schema,
  newSchemaId: number,
  lastColumnId: number,
  columns: readonly ColumnDefinition[],
): Schema {
  if (columns.length === 0)
    throw new InvalidSchemaError('ADD COLUMNS needs at least one column.', { value: columns });
  const names = schema.fields.map((f) => f.name);
  const added = columns.map((column, index) => {
    if (column.required) {
      throw new InvalidSchemaError(
        `Cannot add required column '${column.name}': existing rows have no value for it. Add it as optional.`,
        { value: column.name },
      );
    }
    checkName(column.name, names);
    names.push(column.name);
    return toField(column, lastColumnId + 1 + index);
  });
  return { 'schema-id': newSchemaId, type: 'struct', fields: [...schema.fields, ...added] };
}

export function renameInSchema(
  schema: Schema,
  newSchemaId: number,
  from: string,
  to: string,
  table: string,
): Schema {
  const field = findField(schema, from, table);
  checkName(
    to,
    schema.fields.filter((f) => f.id !== field.id).map((f) => f.name),
  );
  return {
    'schema-id': newSchemaId,
    type: 'struct',
    fields: schema.fields.map((f) => (f.id === field.id ? { ...f, name: to } : f)),
  };
}

/** New schema without the column (Iceberg never reuses its id; a partition source cannot be dropped). */
export function dropFromSchema(
  schema: Schema,
  newSchemaId: number,
  name: string,
  table: string,
  partitionSourceIds: readonly number[],
): Schema {
  const field = findField(schema, name, table);
  if (partitionSourceIds.includes(field.id)) {
    throw new InvalidSchemaError(
      `Cannot drop column '${field.name}' of ${table}: the partition spec uses it.`,
      { value: field.name },
    );
  }
  if (schema.fields.length === 1)
    throw new InvalidSchemaError(`Cannot drop '${field.name}', the only column of ${table}.`, {
      value: name,
    });
  return { 'schema-id': newSchemaId, type: 'struct', fields: schema.fields.filter((f) => f.id !== field.id) };
}

/** Iceberg's allowed type promotions (spec, "Schema Evolution"): int → long, float → double, wider decimal. */
function canPromote(from: string, to: string): boolean {
  if (from === to) return true;
  if (from === 'int' && to === 'long') return true;
  if (from === 'float' && to === 'double') return true;
  const a = /^decimal\((\d+),(\d+)\)$/.exec(from);
  const b = /^decimal\((\d+),(\d+)\)$/.exec(to);
  return !!a && !!b && a[2] === b[2] && Number(b[1]) >= Number(a[1]);
}

/** New schema with one column renamed, promoted, re-documented and/or moved. */
export function changeInSchema(
  schema: Schema,
  newSchemaId: number,
  name: string,
  change: ColumnChange,
  table: string,
): Schema {
  const field = findField(schema, name, table);
  const others = schema.fields.filter((f) => f.id !== field.id);
  const updated: SchemaField = { ...field };
  if (change.name !== undefined && change.name !== field.name) {
    checkName(
      change.name,
      others.map((f) => f.name),
    );
    updated.name = change.name;
  }
  if (change.type !== undefined) {
    const type = normaliseType(change.type);
    if (!canPromote(field.type, type)) {
      throw new InvalidSchemaError(
        `Cannot change column '${field.name}' of ${table} from ${field.type} to ${type}: Iceberg only widens int to long, float to double and a decimal's precision.`,
        { value: type },
      );
    }
    updated.type = type;
  }
  if (change.doc !== undefined) updated.doc = change.doc;
  let fields = schema.fields.map((f) => (f.id === field.id ? updated : f));
  if (change.position) {
    const position = change.position;
    fields = fields.filter((f) => f.id !== field.id);
    const at =
      'first' in position
        ? 0
        : fields.findIndex((f) => f.id === findField(schema, position.after, table).id) + 1;
    fields.splice(at, 0, updated);
  }
  return { 'schema-id': newSchemaId, type: 'struct', fields };
}
