// CREATE TABLE AS SELECT: into an S3 Tables catalog as a new Iceberg table (one append), or, with
// `external_location`, as Parquet written through the ExternalStorage and registered as a Hive table by a catalog
// that holds them (Glue's AwsDataCatalog), with Athena's format/partitioned_by/write_compression properties.
import type { ColumnDefinition, IcebergPrimitive, StatementResult } from '../../contract';
import { sqlIdent as ident } from '../../duckdb/duckdb-session';
import { duckdbType as icebergToDuckdb } from '../../metadata/types';
import { requireSchema, resolveName, type ResolvedName } from '../analyzer/name-resolution';
import { icebergProperties, partitionFields, propertyText } from '../analyzer/table-definition';
import { hiveTypeOf } from '../analyzer/hive-types';
import type { HiveColumn } from '../catalog/catalog';
import { GenericUserError, NotSupportedError, SqlTableAlreadyExistsError } from '../errors';
import { partitioningProperty } from '../parser/parse-statement';
import { IPADDRESS_DUCKDB_TYPE } from '../functions/ip-address';
import type { Expr, Statement } from '../tree/ast';
import {
  enforceCutoff,
  newBinder,
  rowsResult,
  throwIfCancelled,
  writeQuery,
  type ExecutionContext,
} from './context';
import { countRows, createTemporaryTable, withTemporaryTable } from './duckdb-run';

type Ctas = Extract<Statement, { k: 'ctas' }>;

/** DuckDB result type → Iceberg column type for CTAS. */
export function icebergTypeOfDuckdb(type: string, column: string): IcebergPrimitive {
  const t = type.toUpperCase();
  const decimal = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(t);
  if (decimal) return `decimal(${Number(decimal[1])},${Number(decimal[2])})`;
  const map: Record<string, IcebergPrimitive> = {
    VARCHAR: 'string',
    INTEGER: 'int',
    SMALLINT: 'int',
    TINYINT: 'int',
    BIGINT: 'long',
    HUGEINT: 'long',
    DOUBLE: 'double',
    FLOAT: 'float',
    BOOLEAN: 'boolean',
    DATE: 'date',
    TIMESTAMP: 'timestamp',
    'TIMESTAMP WITH TIME ZONE': 'timestamptz',
    TIME: 'time',
    BLOB: 'binary',
    UUID: 'uuid',
    TIMESTAMP_MS: 'timestamp',
    TIMESTAMP_S: 'timestamp',
    TIMESTAMP_NS: 'timestamp',
  };
  const found = map[t];
  if (!found)
    throw new NotSupportedError(
      `CTAS column '${column}' of type ${type.toLowerCase()} (Iceberg tables here hold primitive types)`,
    );
  return found;
}

const HIVE_TYPES: [RegExp, string][] = [
  [/^VARCHAR/, 'string'],
  [/^(INTEGER|SMALLINT|TINYINT)$/, 'int'],
  [/^(BIGINT|HUGEINT|UBIGINT)$/, 'bigint'],
  [/^DOUBLE$/, 'double'],
  [/^FLOAT$/, 'float'],
  [/^BOOLEAN$/, 'boolean'],
  [/^DATE$/, 'date'],
  [/^TIMESTAMP/, 'timestamp'],
];

/** DuckDB result type → the Hive type name Glue records for a Parquet column (where the analyzer could not tell). */
function hiveType(duckdb: string): string {
  if (duckdb === IPADDRESS_DUCKDB_TYPE) return hiveTypeOf({ k: 'ipaddress' });
  const decimal = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(duckdb);
  if (decimal) return `decimal(${decimal[1]},${decimal[2]})`;
  return HIVE_TYPES.find(([pattern]) => pattern.test(duckdb))?.[1] ?? 'string';
}

export async function executeCtas(ctx: ExecutionContext, s: Ctas): Promise<StatementResult> {
  for (const key of [
    'bucketed_by',
    'bucket_count',
    'field_delimiter',
    'orc_compression',
    'parquet_compression',
  ]) {
    if (s.properties[key]) throw new NotSupportedError(`CTAS property ${key}`, s.properties[key]?.pos);
  }
  const external = propertyText(s.properties, 'external_location');
  const format = propertyText(s.properties, 'format');
  if (format && format.toUpperCase() !== 'PARQUET')
    throw new NotSupportedError(`CTAS format '${format}'`, s.properties['format']?.pos);
  const name = resolveName(s.name, ctx.session, ctx.catalogs);
  if (external !== undefined) await checkHiveTarget(name, s);
  const binder = newBinder(ctx);
  await binder.bindQuery(s.query);
  const { sql, outputTypes } = writeQuery(binder, s.query);
  enforceCutoff(binder.bytesScanned, ctx.bytesScannedCutoff);
  return withTemporaryTable(ctx.connection, 'ctas', async (temp) => {
    const described = await createTemporaryTable(ctx.connection, temp, sql, ctx.positions);
    const sourceNames = described.map((c) => c.name);
    const names = s.columnAliases ? s.columnAliases.map((c) => c.name) : sourceNames;
    if (names.length !== sourceNames.length) {
      throw new GenericUserError(
        'MISMATCHED_COLUMN_ALIASES',
        'Column alias list has a different number of entries than the query',
        { position: s.pos },
      );
    }
    const projection = sourceNames.map((n, i) => `${ident(n)} AS ${ident(names[i] as string)}`).join(', ');
    const count = s.withData ? await countRows(ctx.connection, temp) : 0;
    const rowsSql = `SELECT ${projection} FROM ${ident(temp)}${s.withData ? '' : ' WHERE false'}`;

    if (external !== undefined) {
      // Trino's types where the analyzer knows them (tinyint, array(varchar), varchar(3)...), else DuckDB's.
      const columns: HiveColumn[] = described.map((c, i) => {
        const known = outputTypes[i];
        return {
          name: names[i] as string,
          type: known && known.k !== 'unknown' ? hiveTypeOf(known) : hiveType(c.type),
        };
      });
      // A Hive timestamp holds milliseconds: the values are rounded to them as Trino's cast rounds.
      const written = columns
        .map((c) =>
          c.type === 'timestamp'
            ? `CAST(${ident(c.name)} AS TIMESTAMP_MS) AS ${ident(c.name)}`
            : ident(c.name),
        )
        .join(', ');
      await writeHiveTable(ctx, s, name, external, `SELECT ${written} FROM (${rowsSql})`, columns);
      return rowsResult(count, binder.bytesScanned);
    }

    const properties = icebergProperties(s.properties);
    await requireSchema(name, s.pos);
    if (await name.catalog.tableExists(name.schema, name.table)) {
      if (s.ifNotExists) return rowsResult(0, binder.bytesScanned);
      throw new SqlTableAlreadyExistsError(name.display, s.name.pos);
    }
    const columns: ColumnDefinition[] = described.map((c, i) => ({
      name: names[i] as string,
      type: icebergTypeOfDuckdb(c.type, names[i] as string),
      required: false,
    }));
    const partitioningExpr = s.properties['partitioning'];
    const items = partitioningExpr ? partitioningProperty(partitioningExpr) : [];
    throwIfCancelled(ctx);
    const table = await name.catalog.createTable(name.schema, name.table, {
      columns,
      partitionBy: partitionFields(items, names),
      properties,
    });
    if (count > 0) {
      const cast = columns
        .map((c) => `CAST(${ident(c.name)} AS ${icebergToDuckdb(c.type)}) AS ${ident(c.name)}`)
        .join(', ');
      try {
        await table.append({ sql: `SELECT ${cast} FROM (${rowsSql})` });
      } catch (error) {
        // CTAS is one statement: do not leave an empty table behind when the data could not be written.
        await name.catalog.dropTable(name.schema, name.table).catch(() => undefined);
        throw error;
      }
    }
    return rowsResult(count, binder.bytesScanned);
  });
}

/** Before anything runs: the target catalog holds Hive tables, its schema exists and the table does not. */
async function checkHiveTarget(name: ResolvedName, s: Ctas): Promise<void> {
  if (!name.catalog.registerParquetTable) {
    throw new NotSupportedError(
      `CTAS with external_location into ${name.catalog.name} (a table at an external location is a Hive table: create it in awsdatacatalog)`,
      s.properties['external_location']?.pos,
    );
  }
  const tableType = propertyText(s.properties, 'table_type');
  if (tableType && tableType.toLowerCase() === 'iceberg')
    throw new NotSupportedError(
      'An Iceberg CTAS with external_location',
      s.properties['external_location']?.pos,
    );
  await requireSchema(name, s.name.pos);
  if (await name.catalog.tableExists(name.schema, name.table))
    throw new SqlTableAlreadyExistsError(name.display, s.name.pos);
}

async function writeHiveTable(
  ctx: ExecutionContext,
  s: Ctas,
  name: ResolvedName,
  external: string,
  rowsSql: string,
  columns: HiveColumn[],
): Promise<void> {
  const partitionedBy = partitionedByList(s.properties['partitioned_by']);
  const names = columns.map((c) => c.name);
  const tail = names.slice(names.length - partitionedBy.length);
  if (partitionedBy.length && tail.join(',') !== partitionedBy.join(',')) {
    throw new GenericUserError(
      'HIVE_COLUMN_ORDER_MISMATCH',
      `Partition keys must be the last columns in the table and in the same order as the table properties: [${partitionedBy.join(', ')}]`,
      { position: s.properties['partitioned_by']?.pos },
    );
  }
  if (!(await ctx.externalStorage.isEmpty(external))) {
    const target = s.name.parts.map((p) => p.name).join('.');
    throw new GenericUserError(
      'HIVE_PATH_ALREADY_EXISTS',
      `Target directory for table '${target}' already exists: ${external}`,
      { value: external },
    );
  }
  throwIfCancelled(ctx);
  const compression = propertyText(s.properties, 'write_compression');
  await ctx.externalStorage.writeParquetFromSql(ctx.connection, rowsSql, external, {
    partitionedBy,
    compression,
  });
  await name.catalog.registerParquetTable?.(name.schema, name.table, {
    location: external,
    columns,
    compression: (compression ?? 'SNAPPY').toUpperCase(),
  });
}

function partitionedByList(e: Expr | undefined): string[] {
  if (!e) return [];
  if (e.k !== 'array' || e.items.some((i) => i.k !== 'string')) {
    throw new GenericUserError('INVALID_TABLE_PROPERTY', "partitioned_by must be ARRAY['column', ...]", {
      position: e.pos,
    });
  }
  return e.items.map((i) => (i as { value: string }).value.toLowerCase());
}
