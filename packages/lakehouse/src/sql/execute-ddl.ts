// DDL and utility statements: CREATE TABLE (Athena's Iceberg form and the S3 Tables form), CTAS into the catalog or
// as Parquet at an external location, DROP TABLE, SHOW TABLES, DESCRIBE, ALTER TABLE ADD COLUMNS.
import type {
  ColumnDefinition,
  IcebergPrimitive,
  PartitionFieldDefinition,
  StatementResult,
  Transform,
} from '../contract';
import type { Expr, PartitionSpecItem, Statement } from './ast';
import { currentSchema, StatementBinder } from './binder';
import { ident } from './duckdb-writer';
import { dropTemporary, runTrinoSql, temporaryName, type PositionIndex } from './duckdb-run';
import type { DdlEnvironment } from './engine';
import {
  ColumnNotFoundError,
  GenericUserError,
  NotSupportedError,
  SchemaNotFoundError,
  SqlTableAlreadyExistsError,
  TableNotFoundError,
} from './errors';
import { enforceCutoff } from './execute-query';
import { isNotFound, loadResolvedTable, resolveName, type ResolvedName } from './name-resolution';
import { icebergToAthena, icebergToDuckdb, icebergType } from './types';

const done = (statementType: StatementResult['statementType']): StatementResult => ({
  statementType,
  columns: [],
  rows: [],
  stats: { dataScannedInBytes: 0, engineExecutionTimeInMillis: 0 },
});

export function rowsResult(count: number, bytes: number): StatementResult {
  return {
    statementType: 'DML',
    columns: [{ name: 'rows', type: 'bigint' }],
    rows: [[String(count)]],
    stats: { dataScannedInBytes: bytes, engineExecutionTimeInMillis: 0, rowsAffected: count },
  };
}

function propertyText(properties: Record<string, Expr>, key: string): string | undefined {
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

function transformOf(item: PartitionSpecItem): Transform {
  if (item.transform === 'bucket') return `bucket[${item.param ?? 0}]`;
  if (item.transform === 'truncate') return `truncate[${item.param ?? 0}]`;
  return item.transform;
}

function partitionFields(items: PartitionSpecItem[], columns: string[]): PartitionFieldDefinition[] {
  return items.map((item) => {
    if (!columns.includes(item.column)) throw new ColumnNotFoundError(item.column, item.pos);
    return { sourceColumn: item.column, transform: transformOf(item) };
  });
}

async function tableExists(env: DdlEnvironment, name: ResolvedName): Promise<boolean> {
  try {
    await env.warehouse.getTable(name.bucket, name.namespace, name.table);
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

async function requireNamespace(
  env: DdlEnvironment,
  name: ResolvedName,
  pos: Statement['pos'],
): Promise<void> {
  try {
    await env.warehouse.getNamespace(name.bucket, name.namespace);
  } catch (error) {
    if (isNotFound(error)) throw new SchemaNotFoundError(`${name.catalog}.${name.namespace}`, pos, error);
    throw error;
  }
}

function checkTableType(properties: Record<string, Expr>): Record<string, string> {
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

export async function executeCreateTable(
  env: DdlEnvironment,
  s: Extract<Statement, { k: 'create-table' }>,
): Promise<StatementResult> {
  const name = resolveName(s.name, env.context);
  const properties = checkTableType(s.properties);
  const seen = new Set<string>();
  const columns: ColumnDefinition[] = s.columns.map((c) => {
    if (seen.has(c.name.name))
      throw new GenericUserError(
        'DUPLICATE_COLUMN_NAME',
        `Column name '${c.name.name}' specified more than once`,
        { position: c.name.pos, value: c.name.name },
      );
    seen.add(c.name.name);
    return {
      name: c.name.name,
      type: icebergType(c.type),
      required: c.notNull,
      ...(c.comment ? { doc: c.comment } : {}),
    };
  });
  const partitionBy = partitionFields(s.partitioning, [...seen]);
  await requireNamespace(env, name, s.pos);
  if (await tableExists(env, name)) {
    if (s.ifNotExists) return done('DDL');
    throw new SqlTableAlreadyExistsError(name.display, s.name.pos);
  }
  if (s.comment) properties['comment'] = s.comment;
  await env.warehouse.createTable(name.bucket, name.namespace, name.table, {
    columns,
    partitionBy,
    properties,
  });
  return done('DDL');
}

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
  const temp = temporaryName('ctas');
  try {
    await runTrinoSql(env.connection, `CREATE TEMP TABLE ${ident(temp)} AS ${sql}`, positions);
    const described = (await env.connection.runAndReadAll(`DESCRIBE ${ident(temp)}`)).getRowObjectsJS();
    const sourceNames = described.map((r) => String(r['column_name']));
    const names = s.columnAliases ? s.columnAliases.map((c) => c.name) : sourceNames;
    if (names.length !== sourceNames.length) {
      throw new GenericUserError(
        'MISMATCHED_COLUMN_ALIASES',
        'Column alias list has a different number of entries than the query',
        { position: s.pos },
      );
    }
    const projection = sourceNames.map((n, i) => `${ident(n)} AS ${ident(names[i] as string)}`).join(', ');
    const countRow = (
      await env.connection.runAndReadAll(`SELECT count(*) FROM ${ident(temp)}`)
    ).getRowsJS()[0];
    const count = s.withData ? Number(countRow?.[0] ?? 0) : 0;
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
    const columns: ColumnDefinition[] = described.map((r, i) => ({
      name: names[i] as string,
      type: icebergTypeOfDuckdb(String(r['column_type']), names[i] as string),
      required: false,
    }));
    const partitioningExpr = s.properties['partitioning'];
    const items = partitioningExpr ? partitioningItems(partitioningExpr) : [];
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
  } finally {
    await dropTemporary(env.connection, temp);
  }
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

function partitioningItems(e: Expr): PartitionSpecItem[] {
  if (e.k !== 'array')
    throw new GenericUserError('INVALID_TABLE_PROPERTY', "partitioning must be ARRAY['hour(column)', ...]", {
      position: e.pos,
    });
  return e.items.map((item) => {
    if (item.k !== 'string')
      throw new GenericUserError('INVALID_TABLE_PROPERTY', 'partitioning entries must be strings', {
        position: item.pos,
      });
    const m =
      /^\s*(?:(year|month|day|hour|years|months|days|hours|bucket|truncate)\s*\(\s*(?:(\d+)\s*,\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*(?:,\s*(\d+)\s*)?\)|([A-Za-z_][A-Za-z0-9_]*))\s*$/i.exec(
        item.value,
      );
    if (!m)
      throw new GenericUserError(
        'INVALID_TABLE_PROPERTY',
        `Unable to parse partitioning value: ${item.value}`,
        { position: item.pos, value: item.value },
      );
    if (m[5]) return { transform: 'identity', column: m[5].toLowerCase(), pos: item.pos };
    const transform = (m[1] as string).toLowerCase().replace(/s$/, '') as PartitionSpecItem['transform'];
    const param = m[2] ?? m[4];
    return {
      transform,
      column: (m[3] as string).toLowerCase(),
      param: param ? Number(param) : undefined,
      pos: item.pos,
    };
  });
}

export async function executeDropTable(
  env: DdlEnvironment,
  s: Extract<Statement, { k: 'drop-table' }>,
): Promise<StatementResult> {
  const name = resolveName(s.name, env.context);
  try {
    await env.warehouse.dropTable(name.bucket, name.namespace, name.table, { purge: true });
  } catch (error) {
    if (!isNotFound(error)) throw error;
    if (!s.ifExists) throw new TableNotFoundError(name.display, s.name.pos, error);
  }
  return done('DDL');
}

export async function executeShowTables(
  env: DdlEnvironment,
  s: Extract<Statement, { k: 'show-tables' }>,
): Promise<StatementResult> {
  const parts = s.schema?.parts.map((p) => p.name) ?? [];
  const catalog = parts.length === 2 ? (parts[0] as string) : env.context.catalog;
  const database = parts.length >= 1 ? (parts[parts.length - 1] as string) : env.context.database;
  const name = resolveName(
    {
      parts: [
        { name: catalog ?? 'awsdatacatalog', quoted: true, pos: s.pos },
        { name: database ?? '', quoted: true, pos: s.pos },
        { name: '_', quoted: true, pos: s.pos },
      ],
      pos: s.pos,
    },
    {},
  );
  await requireNamespace(env, name, s.schema?.pos ?? s.pos);
  const tables = await env.warehouse.listTables(name.bucket, name.namespace);
  let names = tables.map((t) => t.name).sort();
  if (s.like !== undefined) {
    // Athena's Hive form takes a regex with * and |; SHOW TABLES LIKE takes SQL LIKE wildcards.
    const source =
      s.like.includes('%') || s.like.includes('_')
        ? s.like
            .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
            .replace(/%/g, '.*')
            .replace(/_/g, '.')
        : s.like.replace(/[.+?^${}()[\]\\]/g, '\\$&').replace(/\*/g, '.*');
    const pattern = new RegExp(`^(?:${source})$`, 'i');
    names = names.filter((n) => pattern.test(n));
  }
  return {
    ...done('UTILITY'),
    columns: [{ name: 'tab_name', type: 'varchar' }],
    rows: names.map((n) => [n]),
  };
}

export async function executeDescribe(
  env: DdlEnvironment,
  s: Extract<Statement, { k: 'describe' }>,
): Promise<StatementResult> {
  const name = resolveName(s.name, env.context);
  const table = await loadResolvedTable(env.warehouse, name, s.name.pos);
  const metadata = await table.metadata();
  const schema = currentSchema(metadata);
  const rows: (string | null)[][] = schema.fields.map((f) => [f.name, icebergToAthena(f.type), f.doc ?? '']);
  const spec = metadata['partition-specs'].find((p) => p['spec-id'] === metadata['default-spec-id']);
  if (spec && spec.fields.length) {
    rows.push(['', '', ''], ['# Partition Transforms', '', ''], ['# col_name', 'transform', '']);
    for (const field of spec.fields) {
      const source = schema.fields.find((f) => f.id === field['source-id']);
      rows.push([source?.name ?? field.name, field.transform, '']);
    }
  }
  return {
    ...done('UTILITY'),
    columns: [
      { name: 'col_name', type: 'varchar' },
      { name: 'data_type', type: 'varchar' },
      { name: 'comment', type: 'varchar' },
    ],
    rows,
  };
}

export async function executeAlterAddColumns(
  env: DdlEnvironment,
  s: Extract<Statement, { k: 'alter-add-columns' }>,
): Promise<StatementResult> {
  const name = resolveName(s.name, env.context);
  const table = await loadResolvedTable(env.warehouse, name, s.name.pos);
  const existing = new Set(currentSchema(await table.metadata()).fields.map((f) => f.name.toLowerCase()));
  const columns: ColumnDefinition[] = s.columns.map((c) => {
    if (existing.has(c.name.name)) {
      throw new GenericUserError('COLUMN_ALREADY_EXISTS', `Column '${c.name.name}' already exists`, {
        position: c.name.pos,
        value: c.name.name,
      });
    }
    existing.add(c.name.name);
    return {
      name: c.name.name,
      type: icebergType(c.type),
      required: false,
      ...(c.comment ? { doc: c.comment } : {}),
    };
  });
  await table.addColumns(columns);
  return done('DDL');
}
