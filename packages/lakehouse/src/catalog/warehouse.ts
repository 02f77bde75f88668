// The warehouse: S3-Tables-shaped catalog (table buckets → namespaces → tables) over a data directory,
// plus the DuckDB session scans run on. A table's version token is its committed metadata version; a
// commit (UpdateTableMetadataLocation) is a compare-and-swap on it.
import { promises as fs } from 'node:fs';
import type {
  CommittedTable,
  CreateTableInput,
  NamespaceInfo,
  ParquetColumn,
  TableBucketInfo,
  TableCommit,
  TableHandle,
  TableSummary,
  Warehouse,
} from '../contract';
import { DuckDbSession, sqlString } from '../duckdb/duckdb-session';
import {
  CommitConflictError,
  InvalidMetadataLocationError,
  LakehouseError,
  NamespaceAlreadyExistsError,
  NamespaceNotEmptyError,
  NoSuchNamespaceError,
  NoSuchTableBucketError,
  NoSuchTableError,
  TableAlreadyExistsError,
  TableBucketAlreadyExistsError,
  TableBucketNotEmptyError,
} from '../errors';
import { createExclusive, readText, toPath, toUri } from '../io/file-io';
import { TableLayout } from '../io/table-layout';
import { newTableMetadata, parseMetadata, serializeMetadata } from '../metadata/table-metadata';
import { parquetCompression } from '../table/parquet-options';
import { IcebergTable } from '../table/table-handle';
import { commitTableChanges } from '../rest/commit-table';
import { CatalogStore, type TableRecord } from './catalog-store';
import {
  checkBucketName,
  checkNamespaceName,
  checkTableName,
  isBucketName,
  isNamespaceName,
  isTableName,
} from './names';
import { isInside } from '../io/stored-paths';
import { checkWarehouseInPlace } from './warehouse-place';

export interface WarehouseOptions {
  /** Region and account used in table bucket ARNs (defaults: us-east-1, 000000000000 as local emulators use). */
  region?: string;
  accountId?: string;
}

export class LocalWarehouse implements Warehouse {
  private readonly store: CatalogStore;

  private constructor(
    readonly dataDir: string,
    private readonly session: DuckDbSession,
    private readonly options: Required<WarehouseOptions>,
  ) {
    this.store = new CatalogStore(dataDir);
  }

  static async open(dataDir: string, options: WarehouseOptions = {}): Promise<LocalWarehouse> {
    await fs.mkdir(dataDir, { recursive: true });
    // Before anything is opened or written: a copied or moved folder would use the original's files.
    await checkWarehouseInPlace(new CatalogStore(dataDir));
    const session = await DuckDbSession.open();
    return new LocalWarehouse(dataDir, session, {
      region: options.region ?? 'us-east-1',
      accountId: options.accountId ?? '000000000000',
    });
  }

  /** The engine's DuckDB session: for the engine's own modules (the SQL front end) and its tests only. */
  get duckdb(): DuckDbSession {
    return this.session;
  }

  private arn(bucket: string): string {
    return `arn:aws:s3tables:${this.options.region}:${this.options.accountId}:bucket/${bucket}`;
  }

  async createTableBucket(name: string): Promise<TableBucketInfo> {
    checkBucketName(name);
    const record = { name, createdAt: new Date().toISOString() };
    if (!(await this.store.createBucket(record))) {
      throw new TableBucketAlreadyExistsError(
        `Table bucket '${name}' already exists; use it or pick another name.`,
        { value: name },
      );
    }
    return { name, arn: this.arn(name), createdAt: new Date(record.createdAt) };
  }

  async getTableBucket(name: string): Promise<TableBucketInfo> {
    // Every lookup checks the name first: a name S3 Tables would refuse names no bucket (and never a path).
    const record = isBucketName(name) ? await this.store.getBucket(name) : null;
    if (!record) {
      throw new NoSuchTableBucketError(
        `Table bucket '${name}' does not exist; create it first (CreateTableBucket).`,
        { value: name },
      );
    }
    return { name, arn: this.arn(name), createdAt: new Date(record.createdAt) };
  }

  async listTableBuckets(): Promise<TableBucketInfo[]> {
    return (await this.store.listBuckets()).map((r) => ({
      name: r.name,
      arn: this.arn(r.name),
      createdAt: new Date(r.createdAt),
    }));
  }

  async deleteTableBucket(name: string): Promise<void> {
    await this.getTableBucket(name);
    const namespaces = await this.store.listNamespaces(name);
    if (namespaces.length > 0) {
      throw new TableBucketNotEmptyError(
        `Table bucket '${name}' still has namespaces (${namespaces.map((n) => n.namespace).join(', ')}); delete their tables and namespaces first.`,
        { value: name },
      );
    }
    await this.store.deleteBucket(name);
  }

  async createNamespace(bucket: string, namespace: string): Promise<NamespaceInfo> {
    await this.getTableBucket(bucket);
    checkNamespaceName(namespace);
    const record = { bucket, namespace, createdAt: new Date().toISOString() };
    if (!(await this.store.createNamespace(record))) {
      throw new NamespaceAlreadyExistsError(
        `Namespace '${namespace}' already exists in table bucket '${bucket}'.`,
        { value: namespace },
      );
    }
    return { bucket, namespace, createdAt: new Date(record.createdAt) };
  }

  async getNamespace(bucket: string, namespace: string): Promise<NamespaceInfo> {
    await this.getTableBucket(bucket);
    const record = isNamespaceName(namespace) ? await this.store.getNamespace(bucket, namespace) : null;
    if (!record) {
      throw new NoSuchNamespaceError(
        `Namespace '${namespace}' does not exist in table bucket '${bucket}'; create it first.`,
        {
          value: namespace,
        },
      );
    }
    return { bucket, namespace, createdAt: new Date(record.createdAt) };
  }

  async listNamespaces(bucket: string): Promise<NamespaceInfo[]> {
    await this.getTableBucket(bucket);
    return (await this.store.listNamespaces(bucket)).map((r) => ({
      bucket,
      namespace: r.namespace,
      createdAt: new Date(r.createdAt),
    }));
  }

  async deleteNamespace(bucket: string, namespace: string): Promise<void> {
    await this.getNamespace(bucket, namespace);
    const tables = await this.store.listTables(bucket, namespace);
    if (tables.length > 0) {
      throw new NamespaceNotEmptyError(
        `Namespace '${namespace}' in '${bucket}' still has tables (${tables.map((t) => t.name).join(', ')}); drop them first.`,
        { value: namespace },
      );
    }
    await this.store.deleteNamespace(bucket, namespace);
  }

  async createTable(
    bucket: string,
    namespace: string,
    name: string,
    input: CreateTableInput,
  ): Promise<TableHandle> {
    await this.getNamespace(bucket, namespace);
    checkTableName(name);
    if (await this.store.getTable(bucket, namespace, name)) throw alreadyExists(namespace, name);
    const path = this.store.newTableLocation(bucket, namespace, name);
    const layout = new TableLayout(toUri(path));
    const metadata = newTableMetadata(layout.location, input, `table ${namespace}.${name}`);
    parquetCompression(metadata.properties, `table ${namespace}.${name}`);
    await fs.mkdir(layout.metadataDir, { recursive: true });
    await createExclusive(layout.metadataFile(1), serializeMetadata(metadata));
    await layout.writeVersionHint(1);
    const record: TableRecord = {
      bucket,
      namespace,
      name,
      location: layout.location,
      createdAt: new Date().toISOString(),
    };
    if (!(await this.store.createTable(record))) {
      await fs.rm(path, { recursive: true, force: true });
      throw alreadyExists(namespace, name);
    }
    return this.handle(record);
  }

  private handle(record: TableRecord): IcebergTable {
    return new IcebergTable({
      session: this.session,
      bucket: record.bucket,
      namespace: record.namespace,
      name: record.name,
      location: record.location,
      tempDir: this.store.tempDir,
    });
  }

  private async record(bucket: string, namespace: string, name: string): Promise<TableRecord> {
    await this.getNamespace(bucket, namespace);
    const record = isTableName(name) ? await this.store.getTable(bucket, namespace, name) : null;
    if (!record) {
      throw new NoSuchTableError(
        `Table ${namespace}.${name} does not exist in table bucket '${bucket}'; check the name or create it.`,
        {
          value: `${namespace}.${name}`,
        },
      );
    }
    return record;
  }

  async loadTable(bucket: string, namespace: string, name: string): Promise<IcebergTable> {
    return this.handle(await this.record(bucket, namespace, name));
  }

  private async summary(record: TableRecord): Promise<TableSummary> {
    const layout = new TableLayout(record.location);
    const version = await layout.latestVersion();
    const file = layout.metadataFile(version);
    const stat = await fs.stat(file);
    return {
      bucket: record.bucket,
      namespace: record.namespace,
      name: record.name,
      metadataLocation: toUri(file),
      versionToken: String(version),
      createdAt: new Date(record.createdAt),
      // The metadata file's time can read a little before the record's (the file system's coarse clock): a table is
      // never modified before it was created.
      modifiedAt: new Date(Math.max(stat.mtime.getTime(), Date.parse(record.createdAt))),
    };
  }

  async listTables(bucket: string, namespace?: string): Promise<TableSummary[]> {
    await this.getTableBucket(bucket);
    const namespaces =
      namespace === undefined
        ? (await this.store.listNamespaces(bucket)).map((n) => n.namespace)
        : [namespace];
    const summaries: TableSummary[] = [];
    for (const ns of namespaces) {
      if (namespace !== undefined) await this.getNamespace(bucket, ns);
      for (const record of await this.store.listTables(bucket, ns))
        summaries.push(await this.summary(record));
    }
    return summaries;
  }

  async getTable(bucket: string, namespace: string, name: string): Promise<TableSummary> {
    return this.summary(await this.record(bucket, namespace, name));
  }

  async renameTable(
    bucket: string,
    namespace: string,
    name: string,
    to: { namespace: string; name: string },
  ): Promise<TableSummary> {
    const record = await this.record(bucket, namespace, name);
    await this.getNamespace(bucket, to.namespace);
    checkTableName(to.name);
    // The table keeps its files and metadata (and so its UUID and ARN): only the catalog entry moves.
    const renamed: TableRecord = { ...record, namespace: to.namespace, name: to.name };
    if (!(await this.store.renameTable(record, renamed))) throw alreadyExists(to.namespace, to.name);
    return this.summary(renamed);
  }

  async dropTable(
    bucket: string,
    namespace: string,
    name: string,
    options: { purge?: boolean } = {},
  ): Promise<void> {
    const record = await this.record(bucket, namespace, name);
    if (!(await this.store.deleteTable(bucket, namespace, name))) {
      throw new NoSuchTableError(`Table ${namespace}.${name} was dropped concurrently.`, {
        value: `${namespace}.${name}`,
      });
    }
    // S3 Tables deletes a table's data with it; purge: false keeps the files (e.g. to inspect them).
    if (options.purge ?? true) await fs.rm(toPath(record.location), { recursive: true, force: true });
  }

  async updateMetadataLocation(
    bucket: string,
    namespace: string,
    name: string,
    versionToken: string,
    metadataLocation: string,
  ): Promise<TableSummary> {
    const record = await this.record(bucket, namespace, name);
    const layout = new TableLayout(record.location);
    const version = await layout.latestVersion();
    if (String(version) !== versionToken) {
      throw new CommitConflictError(
        `Version token '${versionToken}' of ${namespace}.${name} is stale (current: '${version}'); reload the table and retry.`,
        { value: versionToken },
      );
    }
    // The new metadata must be one of this table's own files (S3 Tables keeps a table's files in its own
    // storage): a location elsewhere would hand the table another table's data, or any file on the machine.
    if (!isInside(layout.metadataDir, toPath(metadataLocation))) {
      throw new InvalidMetadataLocationError(
        `Metadata location ${metadataLocation} is not in ${namespace}.${name}'s own metadata folder (${toUri(layout.metadataDir)}/); write the metadata file there first.`,
        { value: metadataLocation },
      );
    }
    const text = await readText(toPath(metadataLocation));
    if (text === null) {
      throw new NoSuchTableError(
        `Metadata file ${metadataLocation} does not exist; write it before pointing the table at it.`,
        {
          value: metadataLocation,
        },
      );
    }
    parseMetadata(text, metadataLocation);
    if (!(await createExclusive(layout.metadataFile(version + 1), text))) {
      throw new CommitConflictError(
        `Another writer committed ${namespace}.${name} first; reload the table and retry.`,
        {
          value: versionToken,
        },
      );
    }
    await layout.writeVersionHint(version + 1);
    return this.summary(record);
  }

  async commitTable(
    bucket: string,
    namespace: string,
    name: string,
    commit: TableCommit,
  ): Promise<CommittedTable> {
    const record = await this.record(bucket, namespace, name);
    return commitTableChanges(new TableLayout(record.location), `table ${namespace}.${name}`, commit);
  }

  async describeParquet(paths: readonly string[]): Promise<ParquetColumn[]> {
    const list = `[${paths.map(sqlString).join(', ')}]`;
    const described = await this.session.describe(
      `SELECT * FROM read_parquet(${list}, hive_partitioning = false, union_by_name = true)`,
    );
    const sizes = await this.session.all(
      `SELECT lower(path_in_schema) AS name, sum(total_compressed_size) AS bytes FROM parquet_metadata(${list}) GROUP BY ALL`,
    );
    const bytes = new Map(sizes.map((row) => [String(row['name']), Number(row['bytes'])]));
    return described.map((c) => ({
      name: c.name,
      duckdbType: c.type,
      compressedBytes: bytes.get(c.name.toLowerCase()) ?? 0,
    }));
  }

  async close(): Promise<void> {
    this.session.close();
  }
}

/**
 * The DuckDB session of the engine's own warehouse, for the SQL front end (which runs inside the engine). A
 * warehouse from elsewhere (a test stand-in) has none: it cannot run SQL, and says so.
 */
export function engineSession(warehouse: Warehouse): DuckDbSession {
  if (warehouse instanceof LocalWarehouse) return warehouse.duckdb;
  throw new LakehouseError(
    "This warehouse is not the embedded engine's (no DuckDB session): open it with openWarehouse() to run SQL on it.",
    { value: warehouse.dataDir },
  );
}

function alreadyExists(namespace: string, name: string): TableAlreadyExistsError {
  return new TableAlreadyExistsError(
    `Table ${namespace}.${name} already exists; drop it first or pick another name.`,
    {
      value: `${namespace}.${name}`,
    },
  );
}

/** Opens (or creates) the warehouse persisted in `dataDir`. */
export function openWarehouse(dataDir: string, options: WarehouseOptions = {}): Promise<LocalWarehouse> {
  return LocalWarehouse.open(dataDir, options);
}
