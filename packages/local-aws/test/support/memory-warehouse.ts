// TEST SUPPORT ONLY: an in-memory stand-in for the engine's Warehouse and SqlEngine, used by the protocol tests
// (wire shapes, errors, buffering) so they do not depend on the engine's progress. The contract suite
// (contract.test.ts) runs on the real engine and the real SQL front end.
// The engine's own error classes, so the endpoint's mapping by class is what these tests exercise.
import {
  applyUpdates,
  checkRequirements,
  newTableMetadata,
  prepareStatement,
} from '@loglake/lakehouse/testing';
import {
  CommitConflictError,
  GenericUserError,
  NamespaceAlreadyExistsError,
  NamespaceNotEmptyError,
  NoSuchNamespaceError,
  NoSuchTableBucketError,
  NoSuchTableError,
  TableAlreadyExistsError,
  TableBucketAlreadyExistsError,
  ScanCutoffError,
  type CommitOptions,
  type CommitResult,
  type CommittedTable,
  type CreateTableInput,
  type NamespaceInfo,
  type NdjsonSource,
  type PendingAppend,
  type PreparedStatement,
  type RowSource,
  type SqlEngine,
  type StatementResult,
  type TableBucketInfo,
  type TableCommit,
  type TableHandle,
  type TableSummary,
  type Warehouse,
} from '@loglake/lakehouse';
import type { Schema, TableMetadata } from '@loglake/lakehouse/iceberg';

interface MemoryTable {
  summary: TableSummary;
  metadata: TableMetadata;
  rows: Record<string, unknown>[];
  commits: number;
}

export class MemoryWarehouse implements Warehouse {
  readonly dataDir = ':memory:';
  readonly buckets = new Map<string, TableBucketInfo>();
  readonly namespaces = new Map<string, NamespaceInfo>();
  readonly tables = new Map<string, MemoryTable>();
  appendCalls = 0;
  closed = false;

  async createTableBucket(name: string) {
    if (this.buckets.has(name))
      throw new TableBucketAlreadyExistsError(`Table bucket ${name} already exists.`);
    const info = {
      name,
      arn: `arn:aws:s3tables:us-east-1:123456789012:bucket/${name}`,
      createdAt: new Date(),
    };
    this.buckets.set(name, info);
    return info;
  }
  async getTableBucket(name: string) {
    const info = this.buckets.get(name);
    if (!info) throw new NoSuchTableBucketError(`The specified bucket does not exist: ${name}`);
    return info;
  }
  async listTableBuckets() {
    return [...this.buckets.values()];
  }
  async deleteTableBucket(name: string) {
    await this.getTableBucket(name);
    this.buckets.delete(name);
  }
  async createNamespace(bucket: string, namespace: string) {
    await this.getTableBucket(bucket);
    const key = `${bucket}/${namespace}`;
    if (this.namespaces.has(key))
      throw new NamespaceAlreadyExistsError(`Namespace ${namespace} already exists.`);
    const info = { bucket, namespace, createdAt: new Date() };
    this.namespaces.set(key, info);
    return info;
  }
  async getNamespace(bucket: string, namespace: string) {
    const info = this.namespaces.get(`${bucket}/${namespace}`);
    if (!info) throw new NoSuchNamespaceError(`The specified namespace does not exist: ${namespace}`);
    return info;
  }
  async listNamespaces(bucket: string) {
    return [...this.namespaces.values()].filter((n) => n.bucket === bucket);
  }
  async deleteNamespace(bucket: string, namespace: string) {
    await this.getNamespace(bucket, namespace);
    // As the engine's warehouse: a namespace with tables is not deleted.
    if ([...this.tables.keys()].some((key) => key.startsWith(`${bucket}/${namespace}/`)))
      throw new NamespaceNotEmptyError(`Namespace '${namespace}' in '${bucket}' still has tables.`);
    this.namespaces.delete(`${bucket}/${namespace}`);
  }
  async createTable(bucket: string, namespace: string, name: string, input: CreateTableInput) {
    await this.getNamespace(bucket, namespace);
    const key = `${bucket}/${namespace}/${name}`;
    if (this.tables.has(key)) throw new TableAlreadyExistsError(`Table ${namespace}.${name} already exists.`);
    const location = `file:///memory/${bucket}/${namespace}/${name}`;
    const metadata = newTableMetadata(location, input, `${namespace}.${name}`);
    const now = new Date();
    this.tables.set(key, {
      summary: {
        bucket,
        namespace,
        name,
        metadataLocation: `${location}/metadata/v1.metadata.json`,
        versionToken: 'v1',
        createdAt: now,
        modifiedAt: now,
      },
      metadata,
      rows: [],
      commits: 0,
    });
    return this.handle(key);
  }
  async loadTable(bucket: string, namespace: string, name: string) {
    const key = `${bucket}/${namespace}/${name}`;
    if (!this.tables.has(key))
      throw new NoSuchTableError(`The specified table does not exist: ${namespace}.${name}`);
    return this.handle(key);
  }
  async listTables(bucket: string, namespace?: string) {
    return [...this.tables.values()]
      .map((t) => t.summary)
      .filter((s) => s.bucket === bucket && (!namespace || s.namespace === namespace));
  }
  async getTable(bucket: string, namespace: string, name: string) {
    return (await this.table(bucket, namespace, name)).summary;
  }
  async dropTable(bucket: string, namespace: string, name: string) {
    await this.table(bucket, namespace, name);
    this.tables.delete(`${bucket}/${namespace}/${name}`);
  }
  async renameTable(
    bucket: string,
    namespace: string,
    name: string,
    to: { namespace: string; name: string },
  ) {
    const table = await this.table(bucket, namespace, name);
    await this.getNamespace(bucket, to.namespace);
    const key = `${bucket}/${to.namespace}/${to.name}`;
    if (this.tables.has(key))
      throw new TableAlreadyExistsError(`Table ${to.namespace}.${to.name} already exists.`);
    this.tables.delete(`${bucket}/${namespace}/${name}`);
    table.summary = { ...table.summary, namespace: to.namespace, name: to.name };
    this.tables.set(key, table);
    return table.summary;
  }
  async updateMetadataLocation(
    bucket: string,
    namespace: string,
    name: string,
    versionToken: string,
    metadataLocation: string,
  ) {
    const table = await this.table(bucket, namespace, name);
    if (table.summary.versionToken !== versionToken) throw new CommitConflictError('version token mismatch');
    const version = Number(versionToken.slice(1)) + 1;
    table.summary = {
      ...table.summary,
      metadataLocation,
      versionToken: `v${version}`,
      modifiedAt: new Date(),
    };
    return table.summary;
  }
  /** The engine's own requirement checks and updates, on the in-memory metadata. */
  async commitTable(
    bucket: string,
    namespace: string,
    name: string,
    commit: TableCommit,
  ): Promise<CommittedTable> {
    const table = await this.table(bucket, namespace, name);
    const label = `${namespace}.${name}`;
    checkRequirements(table.metadata, commit.requirements, label);
    table.metadata = applyUpdates(table.metadata, commit.updates, label);
    const version = Number(table.summary.versionToken.slice(1)) + 1;
    const metadataLocation = `memory://${bucket}/${label}/v${version}.metadata.json`;
    table.summary = {
      ...table.summary,
      metadataLocation,
      versionToken: `v${version}`,
      modifiedAt: new Date(),
    };
    return { metadata: table.metadata, metadataLocation };
  }
  async describeParquet(): Promise<never> {
    throw new Error('MemoryWarehouse reads no Parquet files');
  }
  async close() {
    this.closed = true;
  }

  rowsOf(bucket: string, namespace: string, name: string): Record<string, unknown>[] {
    return this.tables.get(`${bucket}/${namespace}/${name}`)?.rows ?? [];
  }

  private async table(bucket: string, namespace: string, name: string): Promise<MemoryTable> {
    const table = this.tables.get(`${bucket}/${namespace}/${name}`);
    if (!table) throw new NoSuchTableError(`The specified table does not exist: ${namespace}.${name}`);
    return table;
  }

  private handle(key: string): TableHandle {
    const table = this.tables.get(key) as MemoryTable;
    const unsupported = async (): Promise<never> => {
      throw new Error('not implemented by the test fake');
    };
    const commit = (added: number): CommitResult => ({
      snapshot: {
        'snapshot-id': ++table.commits,
        'sequence-number': table.commits,
        'timestamp-ms': Date.now(),
        'manifest-list': '',
        summary: { operation: 'append' },
        'schema-id': 0,
      },
      addedRows: added,
      deletedRows: 0,
      addedFiles: 1,
      addedDeleteFiles: 0,
      rewrittenFiles: 0,
    });
    // Lost races as the engine's one commit loop takes them (up to its 25 attempts), then its error type.
    const append = async (rows: Record<string, unknown>[], options: CommitOptions = {}) => {
      let attempt = 1;
      while (options.simulateConflict?.(attempt)) {
        if (++attempt > 25) throw new CommitConflictError('25 attempts lost to concurrent writers');
      }
      this.appendCalls++;
      table.rows.push(...rows);
      return { ...commit(rows.length), attempts: attempt };
    };
    const parse = (source: NdjsonSource) =>
      source.ndjson.map((line) => JSON.parse(line.toString('utf8')) as Record<string, unknown>);
    return {
      bucket: table.summary.bucket,
      namespace: table.summary.namespace,
      name: table.summary.name,
      metadata: async () => table.metadata,
      scan: unsupported,
      append: async (source: RowSource, options?: CommitOptions) => {
        if ('sql' in source) throw new Error('fake supports rows and NDJSON only');
        return append('rows' in source ? source.rows : parse(source), options);
      },
      newAppend: (schema: Schema): PendingAppend => {
        const rows: Record<string, unknown>[] = [];
        return {
          schema,
          add: (part) => void rows.push(...parse(part)),
          commit: (options) => append(rows, options),
          discard: async () => undefined,
        };
      },
      deleteWhere: unsupported,
      rowDelta: unsupported,
      overwriteWhere: unsupported,
      addColumns: unsupported,
      renameColumn: unsupported,
      dropColumn: unsupported,
      changeColumn: unsupported,
      setSortOrder: unsupported,
      setProperties: unsupported,
      removeProperties: unsupported,
      createTag: unsupported,
      createBranch: unsupported,
      dropRef: unsupported,
      expireSnapshots: async () => ({ expiredSnapshotIds: [], deletedFiles: 0, deletedBytes: 0 }),
      compact: async () => ({
        rewrittenDataFiles: 0,
        rewrittenDeleteFiles: 0,
        addedDataFiles: 0,
        rewrittenBytes: 0,
        snapshot: null,
        message: 'nothing to compact',
      }),
      removeOrphanFiles: async () => ({ deletedFiles: 0, deletedBytes: 0 }),
    };
  }
}

/** Answers `SELECT count(*) FROM <ns>.<table>` from a MemoryWarehouse, `SLOW` after a delay, `FAIL` with a
 * SqlError, `HUGE` over any cutoff (cancelled, as the engine cancels it) and `SELECT BIG` as a 2,500-row result:
 * enough to exercise Athena's protocol layer. Statements are prepared by the real parser where they parse. */
export class FakeSqlEngine implements SqlEngine {
  readonly calls: { sql: string; bytesScannedCutoff?: number; catalog?: string; database?: string }[] = [];

  constructor(private readonly warehouse: MemoryWarehouse) {}

  prepare(sql: string): PreparedStatement {
    try {
      return prepareStatement(sql);
    } catch {
      return { sql, statementType: 'DML', substatementType: 'SELECT' };
    }
  }

  async execute(
    statement: PreparedStatement | string,
    options: { bytesScannedCutoff?: number; catalog?: string; database?: string; signal?: AbortSignal } = {},
  ): Promise<StatementResult> {
    const sql = typeof statement === 'string' ? statement : statement.sql;
    this.calls.push({
      sql,
      bytesScannedCutoff: options.bytesScannedCutoff,
      catalog: options.catalog,
      database: options.database,
    });
    const stats = { dataScannedInBytes: 1234, engineExecutionTimeInMillis: 5 };
    if (sql === 'SLOW') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 5000);
        options.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      return { statementType: 'DQL', columns: [{ name: 'x', type: 'integer' }], rows: [['1']], stats };
    }
    if (sql === 'FAIL')
      throw new GenericUserError('COLUMN_NOT_FOUND', "Column 'nope' cannot be resolved", {
        position: { line: 1, column: 8 },
      });
    if (sql === 'HUGE') {
      if (options.bytesScannedCutoff !== undefined && options.bytesScannedCutoff < 50_000_000)
        throw new ScanCutoffError(50_000_000, options.bytesScannedCutoff);
      return {
        statementType: 'DQL',
        columns: [{ name: 'x', type: 'integer' }],
        rows: [['1']],
        stats: { ...stats, dataScannedInBytes: 50_000_000 },
      };
    }
    if (sql === 'SELECT BIG') {
      return {
        statementType: 'DQL',
        columns: [
          { name: 'n', type: 'bigint' },
          { name: 'label', type: 'varchar' },
        ],
        rows: Array.from({ length: 2500 }, (_, i) => [String(i), i % 2 ? null : `row-${i}`]),
        stats,
      };
    }
    const match = /^SELECT count\(\*\) FROM (\w+)\.(\w+)$/i.exec(sql);
    if (match) {
      const bucket = options.catalog?.split('/')[1] ?? '';
      const rows = this.warehouse.rowsOf(bucket, match[1] as string, match[2] as string);
      return {
        statementType: 'DQL',
        columns: [{ name: '_col0', type: 'bigint' }],
        rows: [[String(rows.length)]],
        stats,
      };
    }
    if (/^CREATE/i.test(sql)) return { statementType: 'DDL', columns: [], rows: [], stats };
    throw new GenericUserError('NOT_SUPPORTED', `FakeSqlEngine cannot run: ${sql}`);
  }
}
