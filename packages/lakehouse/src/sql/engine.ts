// The SQL front end as the contract's SqlEngine: parse one Athena (Trino) statement once (prepare), report what
// Athena reports about it at submission, then run it: dispatch by kind to an executor, through the catalogs
// names resolve to. Statements run one at a time per warehouse: they share its DuckDB connection, settings and
// temp tables.
import { join } from 'node:path';
import { engineSession } from '../catalog/warehouse';
import type {
  ExecuteOptions,
  PreparedStatement,
  QueryContext,
  SqlEngine,
  StatementResult,
  TableAccess,
  Warehouse,
} from '../contract';
import { PositionIndex } from './analyzer/positions';
import { statementKind } from './analyzer/statement-type';
import { tableAccesses } from './analyzer/table-access';
import { propertyText } from './analyzer/table-definition';
import type { CatalogProvider } from './catalog/catalog';
import { CatalogRegistry } from './catalog/registry';
import { s3TablesCatalogs } from './catalog/s3-tables-catalog';
import { throwIfCancelled, type ExecutionContext } from './execution/context';
import { mapDuckdbError } from './execution/duckdb-errors';
import { executeCtas } from './execution/execute-ctas';
import {
  executeAlterAddColumns,
  executeAlterChangeColumn,
  executeAlterDropColumn,
  executeAlterProperties,
  executeCreateTable,
  executeDropTable,
  executeRefused,
} from './execution/execute-ddl';
import { executeDelete, executeInsert, executeUpdate } from './execution/execute-dml';
import { executeMerge } from './execution/execute-merge';
import { executeQuery } from './execution/execute-query';
import {
  executeDescribe,
  executeShowColumns,
  executeShowCreateTable,
  executeShowTables,
  executeShowTblProperties,
} from './execution/execute-show';
import { LocalDirectoryStorage, type ExternalStorage } from './execution/external-storage';
import { catalogServices } from './execution/parquet-table';
import { parseStatement } from './parser/parse-statement';
import type { Statement } from './tree/ast';

export interface AthenaSqlEngineOptions {
  /** Catalog used when neither the statement nor ExecuteOptions name one, e.g. `s3tablescatalog/my-bucket`. */
  defaultCatalog?: string;
  /** Database (namespace) used when neither the statement nor ExecuteOptions name one. */
  defaultDatabase?: string;
  /** Where CTAS with external_location writes and Hive tables are read (default: `<dataDir>/s3/<bucket>/<prefix>`). */
  externalStorage?: ExternalStorage;
  /** Catalogs besides the warehouse's S3 Tables buckets (the local endpoint adds Glue's AwsDataCatalog). */
  catalogs?: CatalogProvider[];
}

/** A statement this engine parsed: the tree it runs, and what Athena reports about it at submission. */
export class AthenaPreparedStatement implements PreparedStatement {
  readonly statementType: PreparedStatement['statementType'];
  readonly substatementType?: string;
  readonly externalLocation?: string;

  constructor(
    readonly sql: string,
    readonly statement: Statement,
  ) {
    const kind = statementKind(statement);
    this.statementType = kind.statementType;
    this.substatementType = kind.substatementType;
    if (statement.k === 'ctas')
      this.externalLocation = propertyText(statement.properties, 'external_location');
  }

  tableAccesses(context: QueryContext): readonly TableAccess[] {
    return tableAccesses(this.statement, context);
  }
}

/** Parses one statement and classifies it as Athena does; throws SqlError for a syntax error. */
export function prepareStatement(sql: string): AthenaPreparedStatement {
  return new AthenaPreparedStatement(sql, parseStatement(sql));
}

/** One statement at a time per warehouse, across engines: they share its connection, settings and temp tables. */
const queues = new WeakMap<Warehouse, Promise<unknown>>();

export class AthenaSqlEngine implements SqlEngine {
  private readonly externalStorage: ExternalStorage;
  private readonly catalogs: CatalogRegistry;

  constructor(
    private readonly warehouse: Warehouse,
    private readonly options: AthenaSqlEngineOptions = {},
  ) {
    this.externalStorage =
      options.externalStorage ?? new LocalDirectoryStorage(join(warehouse.dataDir, 's3'));
    this.catalogs = new CatalogRegistry([s3TablesCatalogs(warehouse), ...(options.catalogs ?? [])]);
  }

  prepare(sql: string): AthenaPreparedStatement {
    return prepareStatement(sql);
  }

  execute(statement: PreparedStatement | string, options: ExecuteOptions = {}): Promise<StatementResult> {
    const run = (queues.get(this.warehouse) ?? Promise.resolve()).then(() =>
      this.executeNow(statement, options),
    );
    queues.set(
      this.warehouse,
      run.catch(() => undefined),
    );
    return run;
  }

  private async executeNow(
    input: PreparedStatement | string,
    options: ExecuteOptions,
  ): Promise<StatementResult> {
    const started = performance.now();
    // A statement prepared elsewhere (another engine, a stand-in) is prepared again from its text.
    const prepared =
      input instanceof AthenaPreparedStatement
        ? input
        : this.prepare(typeof input === 'string' ? input : input.sql);
    const statement = prepared.statement;
    const connection = engineSession(this.warehouse).connection;
    const ctx: ExecutionContext = {
      connection,
      catalogs: this.catalogs,
      services: catalogServices(connection, this.externalStorage),
      session: {
        catalog: options.catalog ?? this.options.defaultCatalog,
        database: options.database ?? this.options.defaultDatabase,
      },
      bytesScannedCutoff: options.bytesScannedCutoff,
      externalStorage: this.externalStorage,
      signal: options.signal,
      positions: new PositionIndex(statement),
    };
    let result: StatementResult;
    try {
      throwIfCancelled(ctx);
      result = await dispatch(ctx, statement);
    } catch (error) {
      throw mapDuckdbError(error, ctx.positions);
    }
    result.stats.engineExecutionTimeInMillis = Math.max(1, Math.round(performance.now() - started));
    return result;
  }
}

function dispatch(ctx: ExecutionContext, statement: Statement): Promise<StatementResult> {
  switch (statement.k) {
    case 'query':
      return executeQuery(ctx, statement);
    case 'create-table':
      return executeCreateTable(ctx, statement);
    case 'ctas':
      return executeCtas(ctx, statement);
    case 'drop-table':
      return executeDropTable(ctx, statement);
    case 'show-tables':
      return executeShowTables(ctx, statement);
    case 'show-columns':
      return executeShowColumns(ctx, statement);
    case 'show-create-table':
      return executeShowCreateTable(ctx, statement);
    case 'show-tblproperties':
      return executeShowTblProperties(ctx, statement);
    case 'describe':
      return executeDescribe(ctx, statement);
    case 'alter-add-columns':
      return executeAlterAddColumns(ctx, statement);
    case 'alter-drop-column':
      return executeAlterDropColumn(ctx, statement);
    case 'alter-change-column':
      return executeAlterChangeColumn(ctx, statement);
    case 'alter-set-properties':
    case 'alter-unset-properties':
      return executeAlterProperties(ctx, statement);
    case 'refused':
      return executeRefused(ctx, statement);
    case 'insert':
      return executeInsert(ctx, statement);
    case 'delete':
      return executeDelete(ctx, statement);
    case 'update':
      return executeUpdate(ctx, statement);
    case 'merge':
      return executeMerge(ctx, statement);
  }
}

/** The SQL front end over a warehouse (the local endpoint's Athena runs statements through this). */
export function createSqlEngine(warehouse: Warehouse, options: AthenaSqlEngineOptions = {}): AthenaSqlEngine {
  return new AthenaSqlEngine(warehouse, options);
}
