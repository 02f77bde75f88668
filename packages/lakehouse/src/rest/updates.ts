// REST commit updates (the spec's TableUpdate), applied in order to the latest metadata. Schema, spec and sort-order
// additions are idempotent as Iceberg's TableMetadata.Builder makes them: adding one equal to an existing one reuses
// its id, so a client that retries a commit whose answer it lost does not pile up copies. `-1` in set-current-schema,
// set-default-spec and set-default-sort-order means "the one added earlier in this commit" (REST spec).
import type {
  PartitionSpecInput,
  Schema,
  SchemaField,
  Snapshot,
  SnapshotRef,
  SortOrderInput,
  TableMetadata,
  TableUpdate,
} from '../contract';
import { InvalidUpdateError, UnsupportedUpdateError } from '../errors';
import { normaliseType } from '../metadata/types';
import { transformToString, validateTransform } from '../metadata/transforms';
import { parquetCompression } from '../table/parquet-options';

type SortOrder = TableMetadata['sort-orders'][number];
type PartitionSpec = TableMetadata['partition-specs'][number];

interface Applying {
  meta: TableMetadata;
  table: string;
  lastSchema?: number;
  lastSpec?: number;
  lastOrder?: number;
  addedSnapshots: Set<number>;
}

const invalid = (message: string, value: unknown) => new InvalidUpdateError(message, { value });

export function applyUpdates(
  base: TableMetadata,
  updates: readonly TableUpdate[],
  table: string,
): TableMetadata {
  const state: Applying = { meta: base, table, addedSnapshots: new Set() };
  for (const update of updates) state.meta = applyOne(state, update);
  return state.meta;
}

function applyOne(s: Applying, u: TableUpdate): TableMetadata {
  const meta = s.meta;
  switch (u.action) {
    case 'assign-uuid':
      if (u.uuid !== meta['table-uuid'])
        throw new UnsupportedUpdateError(`${s.table}: the table UUID cannot be reassigned.`, {
          value: u.uuid,
        });
      return meta;
    case 'upgrade-format-version':
      // Athena and Firehose read and write format version 2; the catalog keeps every table there.
      if (u['format-version'] !== 2) {
        throw new UnsupportedUpdateError(
          `${s.table}: format version ${u['format-version']} is not supported; tables stay at format version 2.`,
          { value: u['format-version'] },
        );
      }
      return meta;
    case 'add-schema':
      return addSchema(s, u.schema, u['last-column-id']);
    case 'set-current-schema': {
      const id = u['schema-id'] === -1 ? s.lastSchema : u['schema-id'];
      if (id === undefined || !meta.schemas.some((x) => x['schema-id'] === id))
        throw invalid(`${s.table}: no schema ${u['schema-id']} to make current.`, u['schema-id']);
      return { ...meta, 'current-schema-id': id };
    }
    case 'add-spec':
      return addSpec(s, u.spec);
    case 'set-default-spec': {
      const id = u['spec-id'] === -1 ? s.lastSpec : u['spec-id'];
      if (id === undefined || !meta['partition-specs'].some((x) => x['spec-id'] === id))
        throw invalid(`${s.table}: no partition spec ${u['spec-id']} to make the default.`, u['spec-id']);
      return { ...meta, 'default-spec-id': id };
    }
    case 'add-sort-order':
      return addSortOrder(s, u['sort-order']);
    case 'set-default-sort-order': {
      const id = u['sort-order-id'] === -1 ? s.lastOrder : u['sort-order-id'];
      if (id === undefined || !meta['sort-orders'].some((x) => x['order-id'] === id))
        throw invalid(
          `${s.table}: no sort order ${u['sort-order-id']} to make the default.`,
          u['sort-order-id'],
        );
      return { ...meta, 'default-sort-order-id': id };
    }
    case 'add-snapshot':
      return addSnapshot(s, u.snapshot);
    case 'set-snapshot-ref':
      return setRef(s, u['ref-name'], u);
    case 'remove-snapshot-ref': {
      if (!meta.refs[u['ref-name']]) return meta;
      const refs = { ...meta.refs };
      delete refs[u['ref-name']];
      return { ...meta, refs, ...(u['ref-name'] === 'main' ? { 'current-snapshot-id': null } : {}) };
    }
    case 'remove-snapshots':
      return removeSnapshots(meta, u['snapshot-ids']);
    case 'set-properties': {
      const properties = { ...meta.properties, ...checkProperties(u.updates, s.table) };
      parquetCompression(properties, s.table); // a codec the writers could not honour is refused up front
      return { ...meta, properties };
    }
    case 'remove-properties': {
      const properties = { ...meta.properties };
      for (const key of u.removals ?? []) delete properties[key];
      return { ...meta, properties };
    }
    default:
      throw new UnsupportedUpdateError(
        `Update action ${JSON.stringify((u as { action?: unknown }).action)} is not supported by this catalog.`,
        { value: u },
      );
  }
}

function checkProperties(updates: Record<string, string>, table: string): Record<string, string> {
  if (!updates || typeof updates !== 'object')
    throw invalid(`${table}: set-properties needs an updates map.`, updates);
  for (const [key, value] of Object.entries(updates)) {
    if (typeof value !== 'string') throw invalid(`${table}: property ${key} must be a string.`, value);
    if (key === 'format-version' && value !== '2')
      throw new UnsupportedUpdateError(`${table}: tables stay at format version 2.`, { value });
  }
  return updates;
}

const sameFields = (a: readonly SchemaField[], b: readonly SchemaField[]) =>
  a.length === b.length &&
  a.every((f, i) => {
    const g = b[i] as SchemaField;
    return f.id === g.id && f.name === g.name && f.type === g.type && f.required === g.required;
  });

function addSchema(
  s: Applying,
  input: { fields?: unknown },
  lastColumnId: number | undefined,
): TableMetadata {
  const meta = s.meta;
  if (!Array.isArray(input?.fields) || input.fields.length === 0)
    throw invalid(`${s.table}: add-schema needs a struct schema with fields.`, input);
  const fields: SchemaField[] = input.fields.map((raw: unknown) => {
    const f = raw as Partial<SchemaField>;
    if (!Number.isInteger(f.id) || typeof f.name !== 'string' || typeof f.type !== 'string')
      throw invalid(`${s.table}: every schema field needs an integer id, a name and a primitive type.`, raw);
    return {
      id: f.id as number,
      name: f.name,
      type: normaliseType(f.type),
      required: f.required === true,
      ...(f.doc !== undefined ? { doc: f.doc } : {}),
    };
  });
  if (new Set(fields.map((f) => f.id)).size !== fields.length)
    throw invalid(`${s.table}: field ids in a schema must be unique.`, fields);
  const existing = meta.schemas.find((x) => sameFields(x.fields, fields));
  if (existing) {
    s.lastSchema = existing['schema-id'];
    return meta;
  }
  const schemaId = Math.max(...meta.schemas.map((x) => x['schema-id'])) + 1;
  const schema: Schema = { 'schema-id': schemaId, type: 'struct', fields };
  s.lastSchema = schemaId;
  return {
    ...meta,
    schemas: [...meta.schemas, schema],
    'last-column-id': Math.max(meta['last-column-id'], lastColumnId ?? 0, ...fields.map((f) => f.id)),
  };
}

function sourceType(meta: TableMetadata, sourceId: number, table: string): { name: string; type: string } {
  for (const schema of [...meta.schemas].reverse()) {
    const field = schema.fields.find((f) => f.id === sourceId);
    if (field) return field;
  }
  throw invalid(`${table}: no column with field id ${sourceId}.`, sourceId);
}

function addSpec(s: Applying, input: PartitionSpecInput): TableMetadata {
  const meta = s.meta;
  if (!Array.isArray(input?.fields)) throw invalid(`${s.table}: add-spec needs a spec with fields.`, input);
  let lastId = meta['last-partition-id'];
  const known = meta['partition-specs'].flatMap((spec) => spec.fields);
  const fields: PartitionSpec['fields'] = input.fields.map((f) => {
    const source = sourceType(meta, f['source-id'], s.table);
    const transform = transformToString(validateTransform(String(f.transform), source.type, source.name));
    const reused = known.find((k) => k['source-id'] === f['source-id'] && k.transform === transform);
    const fieldId = f['field-id'] ?? reused?.['field-id'] ?? ++lastId;
    lastId = Math.max(lastId, fieldId);
    return { 'source-id': f['source-id'], 'field-id': fieldId, name: String(f.name), transform };
  });
  const same = meta['partition-specs'].find((spec) => JSON.stringify(spec.fields) === JSON.stringify(fields));
  if (same) {
    s.lastSpec = same['spec-id'];
    return meta;
  }
  const specId = Math.max(...meta['partition-specs'].map((x) => x['spec-id'])) + 1;
  s.lastSpec = specId;
  return {
    ...meta,
    'partition-specs': [...meta['partition-specs'], { 'spec-id': specId, fields }],
    'last-partition-id': lastId,
  };
}

function addSortOrder(s: Applying, input: SortOrderInput): TableMetadata {
  const meta = s.meta;
  if (!Array.isArray(input?.fields)) throw invalid(`${s.table}: add-sort-order needs fields.`, input);
  const fields: SortOrder['fields'] = input.fields.map((f) => {
    const source = sourceType(meta, f['source-id'], s.table);
    if (f.direction !== 'asc' && f.direction !== 'desc')
      throw invalid(`${s.table}: sort direction must be asc or desc.`, f.direction);
    if (f['null-order'] !== 'nulls-first' && f['null-order'] !== 'nulls-last')
      throw invalid(`${s.table}: null-order must be nulls-first or nulls-last.`, f['null-order']);
    const transform = transformToString(validateTransform(String(f.transform), source.type, source.name));
    return { 'source-id': f['source-id'], transform, direction: f.direction, 'null-order': f['null-order'] };
  });
  // The unsorted order is always id 0; any other equal order is reused.
  const same = meta['sort-orders'].find((o) => JSON.stringify(o.fields) === JSON.stringify(fields));
  if (same) {
    s.lastOrder = same['order-id'];
    return meta;
  }
  const orderId = Math.max(0, ...meta['sort-orders'].map((o) => o['order-id'])) + 1;
  s.lastOrder = orderId;
  return { ...meta, 'sort-orders': [...meta['sort-orders'], { 'order-id': orderId, fields }] };
}

const OPERATIONS = new Set(['append', 'overwrite', 'delete', 'replace']);

function addSnapshot(s: Applying, snapshot: Snapshot): TableMetadata {
  const meta = s.meta;
  const id = snapshot?.['snapshot-id'];
  if (!Number.isSafeInteger(id) || id <= 0)
    throw invalid(`${s.table}: snapshot-id must be a positive integer below 2^53.`, id);
  if (meta.snapshots.some((x) => x['snapshot-id'] === id))
    throw invalid(`${s.table}: snapshot ${id} already exists.`, id);
  if (typeof snapshot['manifest-list'] !== 'string' || !OPERATIONS.has(snapshot.summary?.operation))
    throw invalid(`${s.table}: a snapshot needs a manifest-list and a summary operation.`, snapshot);
  const sequence = snapshot['sequence-number'];
  // Format v2: each snapshot takes the next sequence number (Iceberg's TableMetadata.Builder checks the same).
  if (!Number.isSafeInteger(sequence) || sequence <= meta['last-sequence-number'])
    throw invalid(
      `${s.table}: sequence-number ${sequence} must be greater than the table's last ${meta['last-sequence-number']}.`,
      sequence,
    );
  if (
    snapshot['schema-id'] !== undefined &&
    !meta.schemas.some((x) => x['schema-id'] === snapshot['schema-id'])
  )
    throw invalid(
      `${s.table}: snapshot schema-id ${snapshot['schema-id']} does not exist.`,
      snapshot['schema-id'],
    );
  s.addedSnapshots.add(id);
  return {
    ...meta,
    snapshots: [...meta.snapshots, snapshot],
    'last-sequence-number': sequence,
    'last-updated-ms': Math.max(meta['last-updated-ms'], snapshot['timestamp-ms']),
  };
}

const REF_NAME = /^[A-Za-z0-9_.-]{1,255}$/;

function setRef(s: Applying, name: string, ref: SnapshotRef): TableMetadata {
  const meta = s.meta;
  if (typeof name !== 'string' || !REF_NAME.test(name))
    throw invalid(`${s.table}: invalid ref name ${JSON.stringify(name)}.`, name);
  if (ref.type !== 'branch' && ref.type !== 'tag')
    throw invalid(`${s.table}: ref type must be branch or tag.`, ref.type);
  if (name === 'main' && ref.type !== 'branch') throw invalid(`${s.table}: main must be a branch.`, ref.type);
  const snapshot = meta.snapshots.find((x) => x['snapshot-id'] === ref['snapshot-id']);
  if (!snapshot)
    throw invalid(`${s.table}: no snapshot ${ref['snapshot-id']} to point ${name} at.`, ref['snapshot-id']);
  const next: SnapshotRef = { 'snapshot-id': snapshot['snapshot-id'], type: ref.type };
  for (const key of ['max-ref-age-ms', 'max-snapshot-age-ms', 'min-snapshots-to-keep'] as const) {
    const value = ref[key];
    if (value === undefined || value === null) continue;
    if (!Number.isSafeInteger(value) || value <= 0)
      throw invalid(`${s.table}: ${key} must be a positive integer.`, value);
    if (ref.type === 'tag' && key !== 'max-ref-age-ms')
      throw invalid(`${s.table}: a tag takes only max-ref-age-ms.`, key);
    next[key] = value;
  }
  const refs = { ...meta.refs, [name]: next };
  if (name !== 'main') return { ...meta, refs };
  const at = s.addedSnapshots.has(snapshot['snapshot-id']) ? snapshot['timestamp-ms'] : Date.now();
  const moved = meta['current-snapshot-id'] !== snapshot['snapshot-id'];
  return {
    ...meta,
    refs,
    'current-snapshot-id': snapshot['snapshot-id'],
    'snapshot-log': moved
      ? [...meta['snapshot-log'], { 'snapshot-id': snapshot['snapshot-id'], 'timestamp-ms': at }]
      : meta['snapshot-log'],
  };
}

function removeSnapshots(meta: TableMetadata, ids: readonly number[]): TableMetadata {
  const gone = new Set(ids ?? []);
  const refs = Object.fromEntries(Object.entries(meta.refs).filter(([, r]) => !gone.has(r['snapshot-id'])));
  // As expiry does: the snapshot log keeps only the unbroken tail after the last removed entry.
  let log = [...meta['snapshot-log']];
  const lastGap = log.map((e) => gone.has(e['snapshot-id'])).lastIndexOf(true);
  if (lastGap >= 0) log = log.slice(lastGap + 1);
  const current = meta['current-snapshot-id'];
  return {
    ...meta,
    snapshots: meta.snapshots.filter((x) => !gone.has(x['snapshot-id'])),
    refs,
    'snapshot-log': log,
    'current-snapshot-id': current != null && gone.has(current) ? null : (current ?? null),
  };
}
