// Lets the SQL front end see the Glue Data Catalog's default catalog (AwsDataCatalog) the way Athena does:
//  - a table named `db.table` with no S3 Tables catalog resolves to the Glue table, read from its current
//    location as Parquet (hive-table.ts). The engine only knows S3 Tables catalogs, so AwsDataCatalog is presented
//    to it as a virtual table bucket (`s3tablescatalog/awsdatacatalog`) whose tables come from Glue;
//  - CTAS with external_location writes Parquet into the local S3 store (the snapshot bucket's files) and, as on
//    Athena, registers the new table in the Glue database;
//  - DROP TABLE of a Glue table removes the catalog entry and keeps the data (Hive external-table semantics).
import type { SqlEngine, StatementResult, Warehouse, ExecuteOptions } from '@loglake/lakehouse';
import { GenericUserError, LocalDirectoryStorage, parseStatement, type Statement } from '@loglake/lakehouse';
import type { EngineFactories } from '../engine';
import type { LocalObjectStore } from '../s3/objects';
import type { GlueColumn, LocalGlueCatalog } from './catalog';
import { hiveTableHandle } from './hive-table';

/** The virtual table bucket standing for AwsDataCatalog inside the engine. */
export const GLUE_VIRTUAL_BUCKET = 'awsdatacatalog';
const VIRTUAL_CATALOG = `s3tablescatalog/${GLUE_VIRTUAL_BUCKET}`;

export interface GlueBridgeDeps {
  catalog: LocalGlueCatalog;
  objects: LocalObjectStore;
}

class NoSuchTableError extends Error {
  override name = 'NoSuchTableError';
}

function isDefaultCatalog(catalog: string | undefined): boolean {
  return !catalog || catalog.toLowerCase() === 'awsdatacatalog';
}

/** The warehouse as the engine sees it: table bucket `awsdatacatalog` answers from Glue. */
function withGlueTables(warehouse: Warehouse, deps: GlueBridgeDeps): Warehouse {
  return new Proxy(warehouse, {
    get(target, property, receiver) {
      if (property === 'loadTable') {
        return async (bucket: string, namespace: string, name: string) => {
          if (bucket !== GLUE_VIRTUAL_BUCKET) return target.loadTable(bucket, namespace, name);
          const table = deps.catalog.findTable(namespace, name);
          if (!table)
            throw new NoSuchTableError(`Table ${namespace}.${name} does not exist in AwsDataCatalog`);
          return hiveTableHandle(bucket, table, {
            warehouse: target,
            localPath: (uri) => deps.objects.localPath(uri),
          });
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const DUCKDB_TO_GLUE: [RegExp, string][] = [
  [/^VARCHAR/, 'string'],
  [/^(INTEGER|SMALLINT|TINYINT)$/, 'int'],
  [/^(BIGINT|HUGEINT|UBIGINT)$/, 'bigint'],
  [/^DOUBLE$/, 'double'],
  [/^FLOAT$/, 'float'],
  [/^BOOLEAN$/, 'boolean'],
  [/^DATE$/, 'date'],
  [/^TIMESTAMP/, 'timestamp'],
];

function glueType(duckdb: string): string {
  const decimal = /^DECIMAL\((\d+),(\d+)\)$/.exec(duckdb);
  if (decimal) return `decimal(${decimal[1]},${decimal[2]})`;
  return DUCKDB_TO_GLUE.find(([pattern]) => pattern.test(duckdb))?.[1] ?? 'string';
}

function stringProperty(statement: Extract<Statement, { k: 'ctas' }>, key: string): string | undefined {
  const expr = statement.properties[key] as { k: string; value?: unknown } | undefined;
  return expr?.k === 'string' && typeof expr.value === 'string' ? expr.value : undefined;
}

/** `[catalog.]db.table` of a statement target in AwsDataCatalog, or null when it names an S3 Tables catalog. */
function glueTarget(parts: string[], options: ExecuteOptions): { db: string; table: string } | null {
  if (parts.length === 3)
    return isDefaultCatalog(parts[0]) ? { db: parts[1] as string, table: parts[2] as string } : null;
  if (!isDefaultCatalog(options.catalog)) return null;
  const db = parts.length === 2 ? parts[0] : options.database;
  return db ? { db: db.toLowerCase(), table: (parts[parts.length - 1] as string).toLowerCase() } : null;
}

class GlueAwareSqlEngine implements SqlEngine {
  constructor(
    private readonly inner: SqlEngine,
    private readonly warehouse: Warehouse,
    private readonly deps: GlueBridgeDeps,
  ) {}

  async execute(sql: string, options: ExecuteOptions = {}): Promise<StatementResult> {
    let statement: Statement | undefined;
    try {
      statement = parseStatement(sql);
    } catch {
      statement = undefined; // the engine reports the syntax error itself
    }
    const mapped: ExecuteOptions = isDefaultCatalog(options.catalog)
      ? { ...options, catalog: VIRTUAL_CATALOG }
      : options;

    if (statement?.k === 'drop-table') {
      const target = glueTarget(
        statement.name.parts.map((p) => p.name),
        options,
      );
      if (target && this.deps.catalog.findTable(target.db, target.table)) {
        this.deps.catalog.deleteTable(target.db, target.table);
        return {
          statementType: 'DDL',
          columns: [],
          rows: [],
          stats: { dataScannedInBytes: 0, engineExecutionTimeInMillis: 1 },
        };
      }
    }

    let glueCtas: { db: string; table: string; location: string } | null = null;
    if (statement?.k === 'ctas') {
      const location = stringProperty(statement, 'external_location');
      const target = glueTarget(
        statement.name.parts.map((p) => p.name),
        options,
      );
      if (location && target) {
        try {
          this.deps.catalog.getDatabase(target.db);
        } catch {
          throw new GenericUserError('SCHEMA_NOT_FOUND', `Schema ${target.db} does not exist`, {
            value: target.db,
          });
        }
        if (this.deps.catalog.findTable(target.db, target.table)) {
          throw new GenericUserError(
            'ALREADY_EXISTS',
            `Table awsdatacatalog.${target.db}.${target.table} already exists`,
            {
              value: target.table,
            },
          );
        }
        glueCtas = { ...target, location };
      }
    }

    let result: StatementResult;
    try {
      result = await this.inner.execute(sql, mapped);
    } catch (error) {
      if (error instanceof Error) error.message = error.message.replaceAll(VIRTUAL_CATALOG, 'awsdatacatalog');
      throw error;
    }
    if (glueCtas) await this.register(glueCtas, statement as Extract<Statement, { k: 'ctas' }>);
    return result;
  }

  private async register(
    target: { db: string; table: string; location: string },
    statement: Extract<Statement, { k: 'ctas' }>,
  ) {
    const dir = this.deps.objects.localPath(target.location);
    const described = await this.warehouse.describeParquet([`${dir}/**/*.parquet`]);
    const columns: GlueColumn[] = described.map((column) => ({
      Name: column.name,
      Type: glueType(column.duckdbType),
    }));
    const compression = (stringProperty(statement, 'write_compression') ?? 'SNAPPY').toUpperCase();
    this.deps.catalog.createTable(target.db, {
      Name: target.table,
      TableType: 'EXTERNAL_TABLE',
      Parameters: { classification: 'parquet', 'parquet.compression': compression, EXTERNAL: 'TRUE' },
      StorageDescriptor: {
        Columns: columns,
        Location: target.location,
        InputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat',
        OutputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat',
        SerdeInfo: { SerializationLibrary: 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe' },
      },
    });
  }
}

/** Wraps the engine factories so the SQL engine reads and writes Glue tables (see the header comment). */
export function withGlueCatalog(factories: EngineFactories, deps: GlueBridgeDeps): EngineFactories {
  const create = factories.createSqlEngine;
  if (!create) return factories;
  return {
    ...factories,
    createSqlEngine: async (warehouse) => {
      const decorated = withGlueTables(warehouse, deps);
      // CTAS external_location writes where the S3 service serves the snapshot bucket from.
      const inner = await create(decorated, {
        externalStorage: new LocalDirectoryStorage(deps.objects.root),
      });
      return new GlueAwareSqlEngine(inner, warehouse, deps);
    },
  };
}
