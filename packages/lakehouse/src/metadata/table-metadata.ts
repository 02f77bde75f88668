// Iceberg v2 table metadata: creation, lookups, and the JSON document written to vN.metadata.json.
import { randomUUID } from 'node:crypto';
import type { CreateTableInput, Schema, Snapshot, TableMetadata } from '../contract';
import { CorruptTableError, NoSuchSnapshotError } from '../errors';
import {
  buildPartitionSpec,
  buildSortOrder,
  FIRST_PARTITION_FIELD_ID,
  UNSORTED,
  type PartitionSpec,
  type SortOrder,
} from './partition-spec';
import { buildSchema } from './schema';

export const DEFAULT_PROPERTIES: Readonly<Record<string, string>> = {
  'write.format.default': 'parquet',
  'write.parquet.compression-codec': 'zstd',
  'write.delete.mode': 'merge-on-read',
  'write.update.mode': 'merge-on-read',
  'write.merge.mode': 'merge-on-read',
  'write.target-file-size-bytes': String(512 * 1024 * 1024),
};

export function newTableMetadata(
  location: string,
  input: CreateTableInput,
  table: string,
  now = Date.now(),
): TableMetadata {
  const schema: Schema =
    input.deferSchema && input.columns.length === 0
      ? { 'schema-id': 0, type: 'struct', fields: [] }
      : buildSchema(0, input.columns);
  const spec = buildPartitionSpec(0, schema, input.partitionBy ?? [], FIRST_PARTITION_FIELD_ID - 1, table);
  const sortFields = input.sortBy ?? [];
  const sortOrders: SortOrder[] = [UNSORTED];
  if (sortFields.length > 0) sortOrders.push(buildSortOrder(1, schema, sortFields, table));
  return {
    'format-version': 2,
    'table-uuid': randomUUID(),
    location,
    'last-sequence-number': 0,
    'last-updated-ms': now,
    'last-column-id': Math.max(0, ...schema.fields.map((f) => f.id)),
    'current-schema-id': 0,
    schemas: [schema],
    'default-spec-id': 0,
    'partition-specs': [spec],
    'last-partition-id': Math.max(FIRST_PARTITION_FIELD_ID - 1, ...spec.fields.map((f) => f['field-id'])),
    'default-sort-order-id': sortFields.length > 0 ? 1 : 0,
    'sort-orders': sortOrders,
    properties: { ...DEFAULT_PROPERTIES, ...(input.properties ?? {}) },
    'current-snapshot-id': null,
    snapshots: [],
    'snapshot-log': [],
    'metadata-log': [],
    refs: {},
  };
}

export function schemaById(meta: TableMetadata, id: number): Schema {
  const schema = meta.schemas.find((s) => s['schema-id'] === id);
  if (!schema) throw new CorruptTableError(`Table metadata has no schema ${id}.`, { value: id });
  return schema;
}

export function currentSchema(meta: TableMetadata): Schema {
  return schemaById(meta, meta['current-schema-id']);
}

export function specById(meta: TableMetadata, id: number): PartitionSpec {
  const spec = meta['partition-specs'].find((s) => s['spec-id'] === id);
  if (!spec) throw new CorruptTableError(`Table metadata has no partition spec ${id}.`, { value: id });
  return spec;
}

export function defaultSpec(meta: TableMetadata): PartitionSpec {
  return specById(meta, meta['default-spec-id']);
}

export function defaultSortOrder(meta: TableMetadata): SortOrder {
  return meta['sort-orders'].find((o) => o['order-id'] === meta['default-sort-order-id']) ?? UNSORTED;
}

export function snapshotById(meta: TableMetadata, id: number): Snapshot {
  const snapshot = meta.snapshots.find((s) => s['snapshot-id'] === id);
  if (!snapshot) {
    throw new NoSuchSnapshotError(
      `Snapshot ${id} does not exist in this table (it may have been expired); list snapshots in $snapshots.`,
      { value: id },
    );
  }
  return snapshot;
}

/** The snapshot a branch points at (main by default), or null for an empty table. */
export function branchHead(meta: TableMetadata, branch = 'main'): Snapshot | null {
  const ref = meta.refs[branch];
  if (ref) return snapshotById(meta, ref['snapshot-id']);
  if (branch === 'main' && meta['current-snapshot-id'] != null && meta['current-snapshot-id'] >= 0) {
    return snapshotById(meta, meta['current-snapshot-id']);
  }
  return null;
}

export function serializeMetadata(meta: TableMetadata): string {
  return `${JSON.stringify(meta, null, 2)}\n`;
}

export function parseMetadata(text: string, path: string): TableMetadata {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CorruptTableError(`Metadata file ${path} is not valid JSON.`, { cause: error, value: path });
  }
  const meta = parsed as Partial<TableMetadata>;
  if (meta['format-version'] !== 2 || !Array.isArray(meta.schemas) || typeof meta.location !== 'string') {
    throw new CorruptTableError(`Metadata file ${path} is not Iceberg v2 table metadata.`, { value: path });
  }
  meta.refs ??= {};
  meta.snapshots ??= [];
  meta['snapshot-log'] ??= [];
  meta['metadata-log'] ??= [];
  meta.properties ??= {};
  return meta as TableMetadata;
}
