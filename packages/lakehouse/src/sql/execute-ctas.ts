// CREATE TABLE AS SELECT: into the S3 Tables catalog as a new Iceberg table (one append), or as Parquet at an
// external location (Athena's Hive CTAS with format/external_location/partitioned_by/write_compression).
import type { ColumnDefinition, IcebergPrimitive, StatementResult } from '../contract';
import { sqlIdent as ident } from '../duckdb/duckdb-session';
import type { Expr, Statement } from './ast';
import { StatementBinder } from './binder';
import { countRows, createTemporaryTable, withTemporaryTable, type PositionIndex } from './duckdb-run';
import type { DdlEnvironment } from './engine';
import { GenericUserError, NotSupportedError, SqlTableAlreadyExistsError } from './errors';
import {
  checkTableType,
  partitionFields,
  propertyText,
  requireNamespace,
  rowsResult,
  tableExists,
} from './execute-ddl';
import { enforceCutoff, throwIfCancelled } from './execute-query';
import { resolveName } from './name-resolution';
import { partitioningProperty } from './parse-statement';
import { icebergToDuckdb } from './types';

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

export async function executeCtas(
  env: DdlEnvironment,
  s: Extract<Statement, { k: 'ctas' }>,
  positions: PositionIndex,
): Promise<StatementResult> {
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
  const binder = new StatementBinder(env);
  const sql = await binder.bindQuery(s.query);
  enforceCutoff(binder.bytesScanned, env.bytesScannedCutoff);
  return withTemporaryTable(env.connection, 'ctas', async (temp) => {
    const described = await createTemporaryTable(env.connection, temp, sql, positions);
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
    const count = s.withData ? await countRows(env.connection, temp) : 0;
    const rowsSql = `SELECT ${projection} FROM ${ident(temp)}${s.withData ? '' : ' WHERE false'}`;

    if (external !== undefined) {
      const tableType = propertyText(s.properties, 'table_type');
      if (tableType && tableType.toLowerCase() === 'iceberg')
        throw new NotSupportedError(
          'An Iceberg CTAS with external_location',
          s.properties['external_location']?.pos,
        );
      const partitionedBy = partitionedByList(s.properties['partitioned_by']);
      const tail = names.slice(names.length - partitionedBy.length);
      if (partitionedBy.length && tail.join(',') !== partitionedBy.join(',')) {
        throw new GenericUserError(
          'HIVE_COLUMN_ORDER_MISMATCH',
          `Partition keys must be the last columns in the table and in the same order as the table properties: [${partitionedBy.join(', ')}]`,
          { position: s.properties['partitioned_by']?.pos },
        );
      }
      if (!(await env.externalStorage.isEmpty(external))) {
        const target = s.name.parts.map((p) => p.name).join('.');
        throw new GenericUserError(
          'HIVE_PATH_ALREADY_EXISTS',
          `Target directory for table '${target}' already exists: ${external}`,
          { value: external },
        );
      }
      throwIfCancelled(env);
      await env.externalStorage.writeParquetFromSql(env.connection, rowsSql, external, {
        partitionedBy,
        compression: propertyText(s.properties, 'write_compression'),
      });
      return rowsResult(count, binder.bytesScanned);
    }

    const name = resolveName(s.name, env.context);
    const properties = checkTableType(s.properties);
    await requireNamespace(env, name, s.pos);
    if (await tableExists(env, name)) {
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
    throwIfCancelled(env);
    const table = await env.warehouse.createTable(name.bucket, name.namespace, name.table, {
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
        await env.warehouse
          .dropTable(name.bucket, name.namespace, name.table, { purge: true })
          .catch(() => undefined);
        throw error;
      }
    }
    return rowsResult(count, binder.bytesScanned);
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
