// A Hive-style Parquet table (what a Glue catalog holds: a location and columns) seen through the engine's
// TableHandle contract, so the front end scans it like any table. The relation reads the Parquet files under the
// table's location as the catalog gives it *now*; bytes scanned are the compressed sizes of the projected
// columns' chunks, as for the Iceberg tables (Athena counts Parquet column chunks read the same way). Hive tables
// have no snapshots and no DML: those methods refuse, naming the table.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { IcebergPrimitive, ScanOptions, ScanPlan, Schema, TableMetadata } from '../../contract';
import { sqlIdent as ident, sqlString as quote } from '../../duckdb/duckdb-session';
import { sqlTypeOfHive } from '../analyzer/hive-types';
import type { SqlType } from '../analyzer/types';
import type { CatalogServices, HiveTableHandle, ParquetTableSpec } from '../catalog/catalog';
import { duckdbTypeOfSql } from '../translation/duckdb-types';
import { NotSupportedError } from '../errors';
import type { ExternalStorage } from './external-storage';

/** The Iceberg primitive a Hive column is reported as in the handle's schema (nested types as string). */
function icebergPrimitiveOf(t: SqlType): IcebergPrimitive {
  switch (t.k) {
    case 'tinyint':
    case 'smallint':
    case 'integer':
      return 'int';
    case 'bigint':
      return 'long';
    case 'real':
      return 'float';
    case 'double':
    case 'boolean':
    case 'date':
      return t.k;
    case 'timestamp':
      return t.zone === undefined ? 'timestamp' : 'timestamptz';
    case 'decimal':
      return `decimal(${t.precision},${t.scale})`;
    case 'varbinary':
      return 'binary';
    default:
      return 'string';
  }
}

function schemaOf(spec: ParquetTableSpec): Schema {
  return {
    'schema-id': 0,
    type: 'struct',
    fields: spec.columns.map((c, i) => ({
      id: i + 1,
      name: c.name.toLowerCase(),
      type: icebergPrimitiveOf(sqlTypeOfHive(c.type)),
      required: false,
    })),
  };
}

function metadataOf(spec: ParquetTableSpec, schema: Schema): TableMetadata {
  return {
    'format-version': 2,
    'table-uuid': `hive-${spec.schema}-${spec.name}-${spec.version}`,
    location: spec.location,
    'last-sequence-number': 0,
    'last-updated-ms': spec.updatedMs,
    'last-column-id': schema.fields.length,
    'current-schema-id': 0,
    schemas: [schema],
    'default-spec-id': 0,
    'partition-specs': [{ 'spec-id': 0, fields: [] }],
    'last-partition-id': 999,
    'default-sort-order-id': 0,
    'sort-orders': [{ 'order-id': 0, fields: [] }],
    properties: { ...spec.properties },
    'current-snapshot-id': null,
    snapshots: [],
    'snapshot-log': [],
    'metadata-log': [],
    refs: {},
  };
}

function parquetTable(
  connection: DuckDBConnection,
  storage: ExternalStorage,
  spec: ParquetTableSpec,
): HiveTableHandle {
  const schema = schemaOf(spec);
  // Each column read as its Hive type says (tinyint, array<string>, a millisecond timestamp...).
  const duckdbTypes = new Map(
    spec.columns.map((c) => [c.name.toLowerCase(), duckdbTypeOfSql(sqlTypeOfHive(c.type))]),
  );
  const typeOf = (name: string): string => duckdbTypes.get(name) as string;
  const metadata = metadataOf(spec, schema);
  const refuse = (what: string) => () =>
    Promise.reject(new NotSupportedError(`${what} on the Hive table ${spec.schema}.${spec.name}`));

  const scan = async (options: ScanOptions = {}): Promise<ScanPlan> => {
    const files = await storage.dataFiles(spec.location);
    const wanted = options.columns?.map((c) => c.toLowerCase());
    const projected = schema.fields.filter((f) => !wanted || wanted.includes(f.name));
    let relationSql: string;
    let bytesScanned = 0;
    if (files.length === 0) {
      const empty = schema.fields.map((f) => `CAST(NULL AS ${typeOf(f.name)}) AS ${ident(f.name)}`);
      relationSql = `(SELECT ${empty.join(', ')} WHERE false)`;
    } else {
      const list = `[${files.map(quote).join(', ')}]`;
      const select = schema.fields.map(
        (f) => `CAST(${ident(f.name)} AS ${typeOf(f.name)}) AS ${ident(f.name)}`,
      );
      relationSql = `(SELECT ${select.join(', ')} FROM read_parquet(${list}, union_by_name = true))`;
      const names = projected.map((f) => quote(f.name)).join(', ');
      if (names) {
        const reader = await connection.runAndReadAll(
          `SELECT coalesce(sum(total_compressed_size), 0) AS bytes FROM parquet_metadata(${list}) WHERE lower(path_in_schema) IN (${names})`,
        );
        bytesScanned = Number(reader.getRowObjectsJS()[0]?.['bytes'] ?? 0);
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
    hiveColumns: spec.columns,
    bucket: '',
    namespace: spec.schema,
    name: spec.name,
    metadata: async () => metadata,
    scan,
    append: refuse('INSERT'),
    newAppend: () => {
      throw new NotSupportedError(`INSERT on the Hive table ${spec.schema}.${spec.name}`);
    },
    deleteWhere: refuse('DELETE'),
    rowDelta: refuse('Row-level changes'),
    overwriteWhere: refuse('Overwrite'),
    addColumns: refuse('ALTER TABLE ADD COLUMNS'),
    renameColumn: refuse('Renaming a column'),
    dropColumn: refuse('ALTER TABLE DROP COLUMN'),
    changeColumn: refuse('ALTER TABLE CHANGE COLUMN'),
    setSortOrder: refuse('A sort order'),
    setProperties: refuse('Setting properties'),
    removeProperties: refuse('Removing properties'),
    createTag: refuse('A tag'),
    createBranch: refuse('A branch'),
    dropRef: refuse('Dropping a ref'),
    expireSnapshots: refuse('Snapshot expiry'),
    compact: refuse('Compaction'),
    removeOrphanFiles: refuse('Orphan file removal'),
  };
}

/** What the engine offers catalogs: Parquet tables read through its connection and external storage. */
export function catalogServices(connection: DuckDBConnection, storage: ExternalStorage): CatalogServices {
  return { parquetTable: (spec) => parquetTable(connection, storage, spec) };
}
