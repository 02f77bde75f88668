// The SQL front end as the contract's SqlEngine: parse one Athena (Trino) statement, dispatch by kind, time it.
// Statements run one at a time per warehouse: they share its DuckDB connection, settings and temp tables.
import { join } from 'node:path';
import { engineSession } from '../catalog/warehouse';
import type { ExecuteOptions, SqlEngine, StatementResult, Warehouse } from '../contract';
import { PositionIndex, mapDuckdbError } from './duckdb-run';
import {
  executeCreateTable,
  executeDescribe,
  executeDropTable,
  executeShowTables,
  executeAlterAddColumns,
} from './execute-ddl';
import { executeCtas } from './execute-ctas';
import { executeDelete, executeInsert, executeUpdate } from './execute-dml';
import { executeMerge } from './execute-merge';
import { executeQuery, throwIfCancelled, type ExecutionEnvironment } from './execute-query';
import { LocalDirectoryStorage, type ExternalStorage } from './external-storage';
import { parseStatement } from './parse-statement';

export interface AthenaSqlEngineOptions {
  /** Catalog used when neither the statement nor ExecuteOptions name one, e.g. `s3tablescatalog/my-bucket`. */
  defaultCatalog?: string;
  /** Database (namespace) used when neither the statement nor ExecuteOptions name one. */
  defaultDatabase?: string;
  /** Where CTAS with external_location writes (default: `<dataDir>/s3/<bucket>/<prefix>`). */
  externalStorage?: ExternalStorage;
}

export interface DdlEnvironment extends ExecutionEnvironment {
  externalStorage: ExternalStorage;
}

/** One statement at a time per warehouse, across engines: they share its connection, settings and temp tables. */
const queues = new WeakMap<Warehouse, Promise<unknown>>();

export class AthenaSqlEngine implements SqlEngine {
  private readonly externalStorage: ExternalStorage;

  constructor(
    private readonly warehouse: Warehouse,
    private readonly options: AthenaSqlEngineOptions = {},
  ) {
    this.externalStorage =
      options.externalStorage ?? new LocalDirectoryStorage(join(warehouse.dataDir, 's3'));
  }

  execute(sql: string, options: ExecuteOptions = {}): Promise<StatementResult> {
    const run = (queues.get(this.warehouse) ?? Promise.resolve()).then(() => this.executeNow(sql, options));
    queues.set(
      this.warehouse,
      run.catch(() => undefined),
    );
    return run;
  }

  private async executeNow(sql: string, options: ExecuteOptions): Promise<StatementResult> {
    const started = performance.now();
    const statement = parseStatement(sql);
    const positions = new PositionIndex(statement);
    const env: DdlEnvironment = {
      warehouse: this.warehouse,
      connection: engineSession(this.warehouse).connection,
      context: {
        catalog: options.catalog ?? this.options.defaultCatalog,
        database: options.database ?? this.options.defaultDatabase,
      },
      bytesScannedCutoff: options.bytesScannedCutoff,
      externalStorage: this.externalStorage,
      signal: options.signal,
    };
    let result: StatementResult;
    try {
      throwIfCancelled(env);
      switch (statement.k) {
        case 'query':
          result = await executeQuery(env, statement, positions);
          break;
        case 'create-table':
          result = await executeCreateTable(env, statement);
          break;
        case 'ctas':
          result = await executeCtas(env, statement, positions);
          break;
        case 'drop-table':
          result = await executeDropTable(env, statement);
          break;
        case 'show-tables':
          result = await executeShowTables(env, statement);
          break;
        case 'describe':
          result = await executeDescribe(env, statement);
          break;
        case 'alter-add-columns':
          result = await executeAlterAddColumns(env, statement);
          break;
        case 'insert':
          result = await executeInsert(env, statement, positions);
          break;
        case 'delete':
          result = await executeDelete(env, statement, positions);
          break;
        case 'update':
          result = await executeUpdate(env, statement, positions);
          break;
        case 'merge':
          result = await executeMerge(env, statement, positions);
          break;
      }
    } catch (error) {
      throw mapDuckdbError(error, positions);
    }
    result.stats.engineExecutionTimeInMillis = Math.max(1, Math.round(performance.now() - started));
    return result;
  }
}

/** The SQL front end over a warehouse (the local endpoint's Athena runs statements through this). */
export function createSqlEngine(warehouse: Warehouse, options: AthenaSqlEngineOptions = {}): AthenaSqlEngine {
  return new AthenaSqlEngine(warehouse, options);
}
