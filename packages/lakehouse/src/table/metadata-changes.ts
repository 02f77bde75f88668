// Metadata-only changes (no snapshot, no data rewrite): schema evolution, sort order, properties, refs.
import type { ColumnChange, ColumnDefinition, SortFieldDefinition, TableMetadata } from '../contract';
import { InvalidNameError, NoSuchRefError, NoSuchSnapshotError, RefAlreadyExistsError } from '../errors';
import { buildSortOrder } from '../metadata/partition-spec';
import { parquetCompression } from './parquet-options';
import { addColumnsToSchema, changeInSchema, dropFromSchema, renameInSchema } from '../metadata/schema';
import { branchHead, currentSchema, snapshotById } from '../metadata/table-metadata';

function nextSchemaId(base: TableMetadata): number {
  return Math.max(...base.schemas.map((s) => s['schema-id'])) + 1;
}

export function addColumnsChange(base: TableMetadata, columns: ColumnDefinition[]): TableMetadata {
  const schema = addColumnsToSchema(currentSchema(base), nextSchemaId(base), base['last-column-id'], columns);
  return {
    ...base,
    schemas: [...base.schemas, schema],
    'current-schema-id': schema['schema-id'],
    'last-column-id': Math.max(base['last-column-id'], ...schema.fields.map((f) => f.id)),
  };
}

export function renameColumnChange(
  base: TableMetadata,
  from: string,
  to: string,
  table: string,
): TableMetadata {
  const schema = renameInSchema(currentSchema(base), nextSchemaId(base), from, to, table);
  return { ...base, schemas: [...base.schemas, schema], 'current-schema-id': schema['schema-id'] };
}

export function dropColumnChange(base: TableMetadata, name: string, table: string): TableMetadata {
  const spec = base['partition-specs'].find((p) => p['spec-id'] === base['default-spec-id']);
  const sources = spec?.fields.map((f) => f['source-id']) ?? [];
  const schema = dropFromSchema(currentSchema(base), nextSchemaId(base), name, table, sources);
  return { ...base, schemas: [...base.schemas, schema], 'current-schema-id': schema['schema-id'] };
}

export function changeColumnChange(
  base: TableMetadata,
  name: string,
  change: ColumnChange,
  table: string,
): TableMetadata {
  const schema = changeInSchema(currentSchema(base), nextSchemaId(base), name, change, table);
  return { ...base, schemas: [...base.schemas, schema], 'current-schema-id': schema['schema-id'] };
}

export function setSortOrderChange(
  base: TableMetadata,
  fields: SortFieldDefinition[],
  table: string,
): TableMetadata {
  const candidate = buildSortOrder(0, currentSchema(base), fields, table);
  const same = base['sort-orders'].find((o) => JSON.stringify(o.fields) === JSON.stringify(candidate.fields));
  if (same) return { ...base, 'default-sort-order-id': same['order-id'] };
  const orderId = Math.max(0, ...base['sort-orders'].map((o) => o['order-id'])) + 1;
  return {
    ...base,
    'sort-orders': [...base['sort-orders'], { ...candidate, 'order-id': orderId }],
    'default-sort-order-id': orderId,
  };
}

export function setPropertiesChange(base: TableMetadata, properties: Record<string, string>): TableMetadata {
  for (const [key, value] of Object.entries(properties)) {
    if (key.trim() === '' || typeof value !== 'string') {
      throw new InvalidNameError(`Table property '${key}' needs a non-empty name and a string value.`, {
        value: key,
      });
    }
  }
  const merged = { ...base.properties, ...properties };
  parquetCompression(merged, 'the table'); // refuse codecs the writer could not honour, before committing
  return { ...base, properties: merged };
}

export function removePropertiesChange(base: TableMetadata, keys: string[]): TableMetadata {
  const properties = { ...base.properties };
  for (const key of keys) delete properties[key];
  return { ...base, properties };
}

const REF_NAME = /^[A-Za-z0-9_.-]{1,255}$/;

export function createRefChange(
  base: TableMetadata,
  type: 'tag' | 'branch',
  name: string,
  snapshotId: number | undefined,
  maxRefAgeMs: number | undefined,
  table: string,
): TableMetadata {
  if (!REF_NAME.test(name) || name === 'main') {
    throw new InvalidNameError(
      `Invalid ${type} name '${name}': use letters, digits, '_', '-' or '.', and not 'main'.`,
      { value: name },
    );
  }
  if (base.refs[name]) {
    throw new RefAlreadyExistsError(
      `${table} already has a ${base.refs[name].type} named '${name}'; drop it first or pick another name.`,
      {
        value: name,
      },
    );
  }
  const id = snapshotId ?? branchHead(base)?.['snapshot-id'];
  if (id === undefined) {
    throw new NoSuchSnapshotError(`${table} has no snapshot yet to ${type}; write data first.`, {
      value: name,
    });
  }
  snapshotById(base, id);
  if (maxRefAgeMs !== undefined && (!Number.isInteger(maxRefAgeMs) || maxRefAgeMs <= 0)) {
    throw new InvalidNameError(
      `max-ref-age-ms must be a positive integer of milliseconds, got ${maxRefAgeMs}.`,
      { value: maxRefAgeMs },
    );
  }
  return {
    ...base,
    refs: {
      ...base.refs,
      [name]: {
        'snapshot-id': id,
        type,
        ...(maxRefAgeMs !== undefined ? { 'max-ref-age-ms': maxRefAgeMs } : {}),
      },
    },
  };
}

export function dropRefChange(base: TableMetadata, name: string, table: string): TableMetadata {
  if (name === 'main')
    throw new InvalidNameError(`The main branch of ${table} cannot be dropped.`, { value: name });
  if (!base.refs[name]) {
    throw new NoSuchRefError(
      `${table} has no tag or branch '${name}'; its refs are ${Object.keys(base.refs).join(', ') || 'none'}.`,
      {
        value: name,
      },
    );
  }
  const refs = { ...base.refs };
  delete refs[name];
  return { ...base, refs };
}
