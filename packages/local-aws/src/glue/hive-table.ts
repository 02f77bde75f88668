// A Glue (Hive-style) Parquet table seen through the engine's TableHandle contract, so the SQL front end can scan
// it like any table: the relation reads the Parquet files under the table's *current* Glue location, and bytes
// scanned are the compressed sizes of the projected columns' chunks, as for the Iceberg tables (Athena counts
// Parquet column chunks read the same way). Hive tables have no snapshots and no DML: those methods refuse.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { duckdbType, sqlIdent as ident, sqlString as quote } from '@loglake/lakehouse';
import type {
  IcebergPrimitive,
  ScanOptions,
  ScanPlan,
  Schema,
  TableHandle,
  TableMetadata,
  Warehouse,
} from '@loglake/lakehouse';
import type { GlueTableRecord } from './catalog';

const TYPES: Record<string, IcebergPrimitive> = {
  string: 'string',
  varchar: 'string',
  char: 'string',
  int: 'int',
  integer: 'int',
  smallint: 'int',
  tinyint: 'int',
  bigint: 'long',
  double: 'double',
  float: 'float',
  boolean: 'boolean',
  date: 'date',
  timestamp: 'timestamp',
};

class HiveTableError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/** Data files of a Hive location: Athena skips names starting with `_` or `.` (job markers, temp files). */
async function dataFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && !e.name.startsWith('_') && !e.name.startsWith('.'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

export function glueSchema(table: GlueTableRecord): Schema {
  const columns = [...(table.StorageDescriptor?.Columns ?? []), ...(table.PartitionKeys ?? [])];
  return {
    'schema-id': 0,
    type: 'struct',
    fields: columns.map((c, i) => ({
      id: i + 1,
      name: c.Name.toLowerCase(),
      type: TYPES[(c.Type ?? 'string').toLowerCase()] ?? 'string',
      required: false,
    })),
  };
}

export interface HiveTableDeps {
  warehouse: Warehouse;
  /** s3://bucket/prefix/ → local directory. */
  localPath: (uri: string) => string;
}

export function hiveTableHandle(bucket: string, table: GlueTableRecord, deps: HiveTableDeps): TableHandle {
  const schema = glueSchema(table);
  const location = table.StorageDescriptor?.Location ?? '';
  const refusal = (what: string) =>
    new HiveTableError(
      'NotSupportedError',
      `${what} is not supported on the Glue (Hive) table ${table.DatabaseName}.${table.Name}`,
    );
  const refuse = (what: string) => () => Promise.reject(refusal(what));
  const metadata: TableMetadata = {
    'format-version': 2,
    'table-uuid': `glue-${table.DatabaseName}-${table.Name}-${table.VersionId}`,
    location,
    'last-sequence-number': 0,
    'last-updated-ms': Math.round(table.UpdateTime * 1000),
    'last-column-id': schema.fields.length,
    'current-schema-id': 0,
    schemas: [schema],
    'default-spec-id': 0,
    'partition-specs': [{ 'spec-id': 0, fields: [] }],
    'last-partition-id': 999,
    'default-sort-order-id': 0,
    'sort-orders': [{ 'order-id': 0, fields: [] }],
    properties: { ...(table.Parameters ?? {}) },
    'current-snapshot-id': null,
    snapshots: [],
    'snapshot-log': [],
    'metadata-log': [],
    refs: {},
  };

  const scan = async (options: ScanOptions = {}): Promise<ScanPlan> => {
    const files = location ? await dataFiles(deps.localPath(location)) : [];
    const wanted = options.columns?.map((c) => c.toLowerCase());
    const projected = schema.fields.filter((f) => !wanted || wanted.includes(f.name));
    const select = schema.fields.map(
      (f) => `CAST(${ident(f.name)} AS ${duckdbType(f.type)}) AS ${ident(f.name)}`,
    );
    let relationSql: string;
    let bytesScanned = 0;
    if (files.length === 0) {
      relationSql = `(SELECT ${schema.fields.map((f) => `CAST(NULL AS ${duckdbType(f.type)}) AS ${ident(f.name)}`).join(', ')} WHERE false)`;
    } else {
      const list = `[${files.map(quote).join(', ')}]`;
      relationSql = `(SELECT ${select.join(', ')} FROM read_parquet(${list}, union_by_name = true))`;
      if (projected.length > 0) {
        const names = new Set(projected.map((f) => f.name));
        const columns = await deps.warehouse.describeParquet(files);
        for (const column of columns)
          if (names.has(column.name.toLowerCase())) bytesScanned += column.compressedBytes;
      }
    }
    return {
      snapshotId: null,
      schema,
      relationSql,
      stats: { bytesScanned, filesScanned: files.length, filesSkipped: 0, deleteFilesScanned: 0 },
      metadataRowCount: null,
    };
  };

  return {
    bucket,
    namespace: table.DatabaseName,
    name: table.Name,
    metadata: async () => metadata,
    scan,
    append: refuse('INSERT'),
    newAppend: () => {
      throw refusal('INSERT');
    },
    deleteWhere: refuse('DELETE'),
    rowDelta: refuse('Row-level changes'),
    overwriteWhere: refuse('Overwrite'),
    addColumns: refuse('ALTER TABLE ADD COLUMNS'),
    renameColumn: refuse('Renaming a column'),
    setSortOrder: refuse('A sort order'),
    setProperties: refuse('Setting properties'),
    createTag: refuse('A tag'),
    createBranch: refuse('A branch'),
    dropRef: refuse('Dropping a ref'),
    expireSnapshots: refuse('Snapshot expiry'),
    compact: refuse('Compaction'),
    removeOrphanFiles: refuse('Orphan file removal'),
  };
}
