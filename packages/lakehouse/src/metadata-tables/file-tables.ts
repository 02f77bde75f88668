// $files, $manifests and $partitions: read from the manifests of one snapshot (the current one unless the
// caller selects another) by the engine's own reader, the one scan planning uses (manifests/live-files.ts): the
// typed entries it decodes are mapped to rows here, no manifest record is decoded twice. Column names and types
// follow Trino's Iceberg connector (Athena engine v3).
import type { Schema, Snapshot, TableMetadata } from '../contract';
import type { DataFile, LiveFile } from '../manifests/data-file';
import { readManifestListCached, snapshotFiles } from '../manifests/live-files';
import { currentSchema, snapshotById } from '../metadata/table-metadata';
import { duckdbType } from '../metadata/types';
import { compareLiterals, decodeBound, literalToText, type Literal } from '../metadata/values';
import {
  athenaType,
  decodeSingleValue,
  humanString,
  partitionHumanString,
  sqlReadyValue,
} from './iceberg-values';
import { parseTransform, transformResultType } from '../metadata/transforms';
import { quoteIdent } from './relation-sql';
import type { MetadataColumn, MetadataTable, MetadataValue } from './types';

type PartitionSpec = TableMetadata['partition-specs'][number];
type PartitionFieldSpec = PartitionSpec['fields'][number];

const INT_BIGINT_MAP = { type: 'map(integer, bigint)', duckdbType: 'MAP(INTEGER, BIGINT)' };
const INT_VARCHAR_MAP = { type: 'map(integer, varchar)', duckdbType: 'MAP(INTEGER, VARCHAR)' };

function fieldTypeById(schema: Schema): Map<number, string> {
  return new Map(schema.fields.map((f) => [f.id, f.type]));
}

/** Partition fields of every spec, first occurrence of each field id, whose source column still exists. */
function allPartitionFields(metadata: TableMetadata, schema: Schema): PartitionFieldSpec[] {
  const ids = new Set(schema.fields.map((f) => f.id));
  const seen = new Set<number>();
  const out: PartitionFieldSpec[] = [];
  for (const spec of metadata['partition-specs']) {
    for (const field of spec.fields) {
      if (!ids.has(field['source-id']) || seen.has(field['field-id'])) continue;
      seen.add(field['field-id']);
      out.push(field);
    }
  }
  return out;
}

interface PartitionColumn {
  column: MetadataColumn;
  fields: { field: PartitionFieldSpec; resultType: string }[];
}

function partitionColumn(metadata: TableMetadata, schema: Schema): PartitionColumn | null {
  const types = fieldTypeById(schema);
  const fields = allPartitionFields(metadata, schema)
    .filter((f) => f.transform !== 'void')
    .map((field) => ({
      field,
      resultType: transformResultType(
        parseTransform(field.transform),
        types.get(field['source-id']) ?? 'string',
      ),
    }));
  if (fields.length === 0) return null;
  const athena = fields.map(({ field, resultType }) => `${field.name} ${athenaType(resultType)}`).join(', ');
  const duck = fields
    .map(({ field, resultType }) => `${quoteIdent(field.name)} ${duckdbType(resultType)}`)
    .join(', ');
  return { column: { name: 'partition', type: `row(${athena})`, duckdbType: `STRUCT(${duck})` }, fields };
}

/** A partition value (the engine's literal) as a value DuckDB can cast: a decimal as its digits at its scale. */
function partitionValue(resultType: string, value: Literal | null | undefined): MetadataValue {
  if (value === null || value === undefined) return null;
  if (resultType.startsWith('decimal')) return literalToText(resultType, value);
  return sqlReadyValue(resultType, value) as MetadataValue;
}

/** Where each partition field id sits in a spec's partition tuple (the engine's values are in spec order). */
function fieldPositions(metadata: TableMetadata): Map<number, Map<number, number>> {
  return new Map(
    metadata['partition-specs'].map((spec) => [
      spec['spec-id'],
      new Map(spec.fields.map((f, i) => [f['field-id'], i])),
    ]),
  );
}

function partitionRow(
  pc: PartitionColumn,
  positions: Map<number, Map<number, number>>,
  live: LiveFile,
): MetadataValue {
  const at = positions.get(live.specId);
  const row: Record<string, MetadataValue> = {};
  for (const { field, resultType } of pc.fields) {
    const i = at?.get(field['field-id']);
    row[field.name] = partitionValue(resultType, i === undefined ? null : live.file.partition[i]);
  }
  return row;
}

/** Live data and delete files of a snapshot (data first, then position and equality deletes, each in manifest order). */
async function liveFiles(metadata: TableMetadata, snapshot: Snapshot) {
  const { dataFiles, deleteFiles } = await snapshotFiles(metadata, snapshot);
  return { dataFiles, files: [...dataFiles, ...deleteFiles].sort((a, b) => a.file.content - b.file.content) };
}

function snapshotOrNone(metadata: TableMetadata, snapshotId: number | null) {
  return snapshotId === null ? null : snapshotById(metadata, snapshotId);
}

export const FILES_BASE_COLUMNS: MetadataColumn[] = [
  { name: 'content', type: 'integer', duckdbType: 'INTEGER' },
  { name: 'file_path', type: 'varchar', duckdbType: 'VARCHAR' },
  { name: 'file_format', type: 'varchar', duckdbType: 'VARCHAR' },
  { name: 'record_count', type: 'bigint', duckdbType: 'BIGINT' },
  { name: 'file_size_in_bytes', type: 'bigint', duckdbType: 'BIGINT' },
  { name: 'column_sizes', ...INT_BIGINT_MAP },
  { name: 'value_counts', ...INT_BIGINT_MAP },
  { name: 'null_value_counts', ...INT_BIGINT_MAP },
  { name: 'nan_value_counts', ...INT_BIGINT_MAP },
  { name: 'lower_bounds', ...INT_VARCHAR_MAP },
  { name: 'upper_bounds', ...INT_VARCHAR_MAP },
  { name: 'key_metadata', type: 'varbinary', duckdbType: 'BLOB' },
  { name: 'split_offsets', type: 'array(bigint)', duckdbType: 'BIGINT[]' },
  { name: 'equality_ids', type: 'array(integer)', duckdbType: 'INTEGER[]' },
];

function countMap(map: Map<number, number> | null): MetadataValue {
  return map === null
    ? null
    : new Map<number, MetadataValue>([...map.entries()].map(([k, v]) => [k, BigInt(v)]));
}

/** Bounds as Iceberg human strings, only for columns of the current schema (as Trino filters them). */
function boundMap(map: Map<number, Uint8Array> | null, types: Map<number, string>): MetadataValue {
  if (map === null) return null;
  const out = new Map<number, MetadataValue>();
  for (const [id, bytes] of map) {
    const type = types.get(id);
    if (type !== undefined) out.set(id, humanString(type, decodeSingleValue(type, bytes)));
  }
  return out;
}

export async function filesTable(
  tableName: string,
  metadata: TableMetadata,
  snapshotId: number | null,
): Promise<MetadataTable> {
  const schema = currentSchema(metadata);
  const pc = partitionColumn(metadata, schema);
  const columns = pc ? [...FILES_BASE_COLUMNS, pc.column] : FILES_BASE_COLUMNS;
  const snapshot = snapshotOrNone(metadata, snapshotId);
  if (!snapshot) return { name: `${tableName}$files`, columns, rows: [] };
  const types = fieldTypeById(schema);
  const positions = fieldPositions(metadata);
  const { files } = await liveFiles(metadata, snapshot);
  const rows = files.map((live): MetadataValue[] => {
    const f = live.file;
    const row: MetadataValue[] = [
      f.content,
      f.filePath,
      f.fileFormat,
      f.recordCount,
      f.fileSizeInBytes,
      countMap(f.columnSizes),
      countMap(f.valueCounts),
      countMap(f.nullValueCounts),
      countMap(f.nanValueCounts),
      boundMap(f.lowerBounds, types),
      boundMap(f.upperBounds, types),
      f.keyMetadata,
      f.splitOffsets,
      f.equalityIds,
    ];
    if (pc) row.push(partitionRow(pc, positions, live));
    return row;
  });
  return { name: `${tableName}$files`, columns, rows };
}

export const MANIFESTS_COLUMNS: MetadataColumn[] = [
  { name: 'path', type: 'varchar', duckdbType: 'VARCHAR' },
  { name: 'length', type: 'bigint', duckdbType: 'BIGINT' },
  { name: 'partition_spec_id', type: 'integer', duckdbType: 'INTEGER' },
  { name: 'added_snapshot_id', type: 'bigint', duckdbType: 'BIGINT' },
  { name: 'added_data_files_count', type: 'integer', duckdbType: 'INTEGER' },
  { name: 'added_rows_count', type: 'bigint', duckdbType: 'BIGINT' },
  { name: 'existing_data_files_count', type: 'integer', duckdbType: 'INTEGER' },
  { name: 'existing_rows_count', type: 'bigint', duckdbType: 'BIGINT' },
  { name: 'deleted_data_files_count', type: 'integer', duckdbType: 'INTEGER' },
  { name: 'deleted_rows_count', type: 'bigint', duckdbType: 'BIGINT' },
  {
    name: 'partitions',
    type: 'array(row(contains_null boolean, contains_nan boolean, lower_bound varchar, upper_bound varchar))',
    duckdbType:
      'STRUCT(contains_null BOOLEAN, contains_nan BOOLEAN, lower_bound VARCHAR, upper_bound VARCHAR)[]',
  },
];

export async function manifestsTable(
  tableName: string,
  metadata: TableMetadata,
  snapshotId: number | null,
): Promise<MetadataTable> {
  const snapshot = snapshotOrNone(metadata, snapshotId);
  if (!snapshot) return { name: `${tableName}$manifests`, columns: MANIFESTS_COLUMNS, rows: [] };
  const types = fieldTypeById(currentSchema(metadata));
  const manifests = await readManifestListCached(snapshot['manifest-list']);
  const rows = manifests.map((m): MetadataValue[] => {
    const spec = metadata['partition-specs'].find((s) => s['spec-id'] === m.partitionSpecId);
    const partitions = m.partitions.map((p, i): MetadataValue => {
      const field = spec?.fields[i];
      const sourceType = field ? (types.get(field['source-id']) ?? 'string') : 'string';
      const resultType = field ? transformResultType(parseTransform(field.transform), sourceType) : 'string';
      const human = (b: Uint8Array | null) =>
        b === null || !field
          ? null
          : partitionHumanString(field.transform, sourceType, decodeSingleValue(resultType, b));
      return {
        contains_null: p.containsNull,
        contains_nan: p.containsNan,
        lower_bound: human(p.lowerBound),
        upper_bound: human(p.upperBound),
      };
    });
    return [
      m.manifestPath,
      m.manifestLength,
      m.partitionSpecId,
      m.addedSnapshotId,
      m.addedFilesCount,
      m.addedRowsCount,
      m.existingFilesCount,
      m.existingRowsCount,
      m.deletedFilesCount,
      m.deletedRowsCount,
      partitions,
    ];
  });
  return { name: `${tableName}$manifests`, columns: MANIFESTS_COLUMNS, rows };
}

/** A bound as stored and as the engine's typed literal, which orders it (decimals by value, strings by UTF-8). */
interface Bound {
  bytes: Uint8Array;
  literal: Literal;
}

interface ColumnStats {
  min: Bound | null;
  max: Bound | null;
  nullCount: number | null;
  nanCount: number | null;
  seen: boolean;
}

function accumulate(stats: ColumnStats, file: DataFile, id: number, type: string): void {
  const lower = file.lowerBounds?.get(id);
  const upper = file.upperBounds?.get(id);
  const nulls = file.nullValueCounts?.get(id);
  const nans = file.nanValueCounts?.get(id);
  if (lower !== undefined) {
    const v = { bytes: lower, literal: decodeBound(type, lower) };
    if (stats.min === null || compareLiterals(v.literal, stats.min.literal) < 0) stats.min = v;
    stats.seen = true;
  }
  if (upper !== undefined) {
    const v = { bytes: upper, literal: decodeBound(type, upper) };
    if (stats.max === null || compareLiterals(stats.max.literal, v.literal) < 0) stats.max = v;
    stats.seen = true;
  }
  if (nulls !== undefined) {
    stats.nullCount = (stats.nullCount ?? 0) + nulls;
    stats.seen = true;
  }
  if (nans !== undefined) stats.nanCount = (stats.nanCount ?? 0) + nans;
}

export async function partitionsTable(
  tableName: string,
  metadata: TableMetadata,
  snapshotId: number | null,
): Promise<MetadataTable> {
  const schema = currentSchema(metadata);
  const pc = partitionColumn(metadata, schema);
  const identitySources = new Set(
    (metadata['partition-specs'].find((s) => s['spec-id'] === metadata['default-spec-id'])?.fields ?? [])
      .filter((f) => f.transform === 'identity')
      .map((f) => f['source-id']),
  );
  const dataFields = schema.fields.filter((f) => !identitySources.has(f.id));
  const columns: MetadataColumn[] = [
    ...(pc ? [pc.column] : []),
    { name: 'record_count', type: 'bigint', duckdbType: 'BIGINT' },
    { name: 'file_count', type: 'bigint', duckdbType: 'BIGINT' },
    { name: 'total_size', type: 'bigint', duckdbType: 'BIGINT' },
  ];
  if (dataFields.length > 0) {
    const metric = (t: string, duck: boolean) =>
      duck
        ? `STRUCT("min" ${duckdbType(t)}, "max" ${duckdbType(t)}, null_count BIGINT, nan_count BIGINT)`
        : `row(min ${athenaType(t)}, max ${athenaType(t)}, null_count bigint, nan_count bigint)`;
    columns.push({
      name: 'data',
      type: `row(${dataFields.map((f) => `${f.name} ${metric(f.type, false)}`).join(', ')})`,
      duckdbType: `STRUCT(${dataFields.map((f) => `${quoteIdent(f.name)} ${metric(f.type, true)}`).join(', ')})`,
    });
  }
  const snapshot = snapshotOrNone(metadata, snapshotId);
  if (!snapshot) return { name: `${tableName}$partitions`, columns, rows: [] };
  const positions = fieldPositions(metadata);
  const { dataFiles } = await liveFiles(metadata, snapshot);
  const groups = new Map<
    string,
    { partition: MetadataValue; records: number; files: number; size: number; stats: ColumnStats[] }
  >();
  for (const live of dataFiles) {
    const dataFile = live.file;
    const partition = pc ? partitionRow(pc, positions, live) : null;
    const key = JSON.stringify(partition, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    let group = groups.get(key);
    if (!group) {
      group = {
        partition,
        records: 0,
        files: 0,
        size: 0,
        stats: dataFields.map(() => ({ min: null, max: null, nullCount: null, nanCount: null, seen: false })),
      };
      groups.set(key, group);
    }
    group.records += dataFile.recordCount;
    group.files += 1;
    group.size += dataFile.fileSizeInBytes;
    dataFields.forEach((f, i) => accumulate(group.stats[i] as ColumnStats, dataFile, f.id, f.type));
  }
  const rows = [...groups.values()].map((g): MetadataValue[] => {
    const row: MetadataValue[] = pc ? [g.partition] : [];
    row.push(g.records, g.files, g.size);
    if (dataFields.length > 0) {
      // As Trino: a column without any metric makes the whole `data` value null.
      if (g.stats.some((s) => !s.seen)) row.push(null);
      else {
        const data: Record<string, MetadataValue> = {};
        dataFields.forEach((f, i) => {
          const s = g.stats[i] as ColumnStats;
          data[f.name] = {
            min: sqlReadyValue(f.type, s.min && decodeSingleValue(f.type, s.min.bytes)) as MetadataValue,
            max: sqlReadyValue(f.type, s.max && decodeSingleValue(f.type, s.max.bytes)) as MetadataValue,
            null_count: s.nullCount,
            nan_count: s.nanCount,
          };
        });
        row.push(data);
      }
    }
    return row;
  });
  return { name: `${tableName}$partitions`, columns, rows };
}
