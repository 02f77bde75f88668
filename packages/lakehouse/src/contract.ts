// The engine's public contract: the local endpoint (packages/local-aws) is written against these types (through
// index.ts), so the table layer can change underneath it. The SQL front end (src/sql/) uses them too, and reaches
// below them where it must (DuckDB sessions, metadata, the warehouse's engine session). Implementations live in
// the layer modules (catalog, metadata, snapshots, manifests, io, expressions).
// Nothing here exposes a DuckDB connection: the engine owns its connections and every table it stages.
/** Iceberg primitive types the engine supports (spec names). `decimal(p,s)` is written out, e.g. `decimal(10,2)`. */
export type IcebergPrimitive =
  | 'boolean'
  | 'int'
  | 'long'
  | 'float'
  | 'double'
  | 'date'
  | 'time'
  | 'timestamp'
  | 'timestamptz'
  | 'string'
  | 'uuid'
  | 'binary'
  | `decimal(${number},${number})`;

export interface SchemaField {
  id: number;
  name: string;
  type: IcebergPrimitive;
  required: boolean;
  doc?: string;
}

export interface Schema {
  'schema-id': number;
  type: 'struct';
  fields: SchemaField[];
}

/** A column as a caller declares it (no id yet): what CreateTable and ADD COLUMNS take. */
export interface ColumnDefinition {
  name: string;
  type: IcebergPrimitive;
  required?: boolean;
  doc?: string;
}

/** One column's update (ALTER TABLE CHANGE COLUMN): every field is optional. */
export interface ColumnChange {
  name?: string;
  /** Only Iceberg's promotions: int → long, float → double, decimal(p,s) → decimal(p',s) with p' > p. */
  type?: IcebergPrimitive;
  doc?: string;
  position?: { first: true } | { after: string };
}

export type Transform =
  'identity' | 'year' | 'month' | 'day' | 'hour' | 'void' | `bucket[${number}]` | `truncate[${number}]`;

/** Partition field by source column name (the engine resolves ids). */
export interface PartitionFieldDefinition {
  sourceColumn: string;
  transform: Transform;
  name?: string;
}

export interface SortFieldDefinition {
  sourceColumn: string;
  direction: 'asc' | 'desc';
  nullOrder: 'nulls-first' | 'nulls-last';
  transform?: Transform;
}

export interface CreateTableInput {
  /** At least one, unless `deferSchema`. */
  columns: ColumnDefinition[];
  /**
   * Create the table with an empty schema (no columns) for its first writer to set (S3 Tables' CreateTable without
   * `metadata`): an Iceberg REST commit adding a schema, UpdateTableMetadataLocation, ALTER TABLE ADD COLUMNS.
   */
  deferSchema?: boolean;
  partitionBy?: PartitionFieldDefinition[];
  sortBy?: SortFieldDefinition[];
  properties?: Record<string, string>;
}

/** Bound-able predicate tree used for pruning and row filtering. Values are JS values of the column's type
 * (number | bigint | string | boolean | Date | null). Anything the SQL layer cannot express here it keeps as
 * a residual DuckDB filter; the engine only uses this for pruning and for DELETE/overwrite by predicate. */
export type Expression =
  | { op: 'true' }
  | { op: 'false' }
  | { op: 'and' | 'or'; args: Expression[] }
  | { op: 'not'; arg: Expression }
  | { op: 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte'; column: string; value: unknown }
  | { op: 'in' | 'not-in'; column: string; values: unknown[] }
  | { op: 'is-null' | 'not-null'; column: string };

export interface SnapshotSummary {
  operation: 'append' | 'overwrite' | 'delete' | 'replace';
  [key: string]: string;
}

export interface Snapshot {
  'snapshot-id': number;
  'parent-snapshot-id'?: number;
  'sequence-number': number;
  'timestamp-ms': number;
  'manifest-list': string;
  summary: SnapshotSummary;
  'schema-id': number;
}

export interface SnapshotRef {
  'snapshot-id': number;
  type: 'branch' | 'tag';
  'max-ref-age-ms'?: number;
  'max-snapshot-age-ms'?: number;
  'min-snapshots-to-keep'?: number;
}

/** Which version of a table to read. Exactly one field may be set; none = current snapshot of main. */
export interface VersionSelector {
  snapshotId?: number;
  /** Latest snapshot committed at or before this instant (Athena's FOR TIMESTAMP AS OF). */
  asOf?: Date;
  /** Tag or branch name. */
  ref?: string;
}

export interface ScanOptions extends VersionSelector {
  /** Columns the reader needs (for bytes-scanned accounting and projection); undefined = all columns. */
  columns?: string[];
  /** Pruning predicate (partition values and column bounds). Rows are NOT filtered by it: the caller filters. */
  filter?: Expression;
  /** Add the hidden columns `file_path` (string) and `pos` (bigint) that identify each row (for row-level DML). */
  withRowIds?: boolean;
}

/** Statistics as Athena reports them. bytesScanned = compressed bytes of the column chunks of the projected
 * columns in the files that survived pruning (see README "How bytes scanned is computed"). */
export interface ScanStats {
  bytesScanned: number;
  filesScanned: number;
  filesSkipped: number;
  deleteFilesScanned: number;
}

export interface ScanPlan {
  snapshotId: number | null;
  schema: Schema;
  /** A parenthesised DuckDB relation, e.g. `(SELECT ... FROM read_parquet([...]) ...)`, with the table's
   * current column names (renames applied, added columns NULL in old files) and position deletes applied.
   * Usable as `FROM <relation> AS alias` on the engine's DuckDB connection. */
  relationSql: string;
  stats: ScanStats;
  /** When the answer to `count(*)` with no filter is known from metadata (no deletes to apply). */
  metadataRowCount: number | null;
}

export interface CommitResult {
  /** null when nothing was committed (a no-op: e.g. a delete that matched no row, compaction with nothing to do). */
  snapshot: Snapshot | null;
  addedRows: number;
  deletedRows: number;
  addedFiles: number;
  addedDeleteFiles: number;
  rewrittenFiles: number;
  /** Commit attempts an append made (1 = it won the first race; each lost race is one more). */
  attempts?: number;
}

/**
 * Newline-delimited JSON rows: one JSON object per line (no newline inside a line), keys are column names
 * (exact), values of the column's JSON kind (numbers for numeric columns, text for date, time, uuid, decimal and
 * base64 binary); keys that are not columns are ignored, missing columns are NULL. Timestamps follow the rule of
 * Firehose's Iceberg destination: a JSON integer is epoch MICROseconds, text is ISO-8601 — one form per column
 * in a source, the integer ones listed in `microsColumns`.
 */
export interface NdjsonSource {
  ndjson: readonly Buffer[];
  /** Timestamp columns whose values are epoch microseconds (JSON integers) in these lines. */
  microsColumns?: readonly string[];
}

/**
 * What rows to append: plain JS rows (validated against the schema), NDJSON lines, or a DuckDB query the engine
 * runs on its own connection (SQL that reads files or values; the engine's staged tables are not named here).
 */
export type RowSource =
  | { rows: Record<string, unknown>[] }
  | NdjsonSource
  | {
      sql: string;
      /** The names the query's columns have, when the caller knows them: the engine then skips asking DuckDB. */
      columns?: string[];
    };

export interface CommitOptions {
  /**
   * Properties added to the new snapshot's summary, as Iceberg writers record their own bookkeeping there
   * (Flink's `flink.max-committed-checkpoint-id`): e.g. which part of a source log the commit covers. They cannot
   * replace the engine's own keys (operation, counts, totals).
   */
  summary?: Record<string, string>;
  /**
   * Fault injection (reliability tests): a commit attempt for which this returns true loses its race as if another
   * writer had committed first, and is retried like one (see table/commit.ts).
   */
  simulateConflict?: (attempt: number) => boolean;
}

/**
 * An append built part by part, in the spirit of Iceberg's `AppendFiles`: each part is read into a table the engine
 * stages in the background (DuckDB parses it in its own threads while the caller keeps working), and `commit`
 * writes the data files and commits ONE snapshot. Columns are the schema given to `newAppend`.
 */
export interface PendingAppend {
  readonly schema: Schema;
  /** Queues one part; it is staged in the background, in the order parts were added. */
  add(part: NdjsonSource): void;
  /** Rows staged so far (after every queued part is read); a part DuckDB cannot read fails here, naming it. */
  commit(options?: CommitOptions): Promise<CommitResult>;
  /** Drops what was staged without committing. */
  discard(): Promise<void>;
}

/** A column of Parquet files read through the engine (Glue/Hive tables outside the warehouse). */
export interface ParquetColumn {
  name: string;
  /** The DuckDB type the engine reads it as (e.g. VARCHAR, BIGINT, DECIMAL(10,2)). */
  duckdbType: string;
  /** Compressed bytes of this column's chunks over all the files (what a scan of it reads). */
  compressedBytes: number;
}

export interface RowDelta {
  /** A DuckDB query returning (file_path VARCHAR, pos BIGINT) of live rows to delete. */
  deletesSql?: string;
  /** Rows to add in the same commit. */
  appends?: RowSource;
  /** Snapshot the row ids were read from; the commit fails with CommitConflictError if those files are gone. */
  readSnapshotId?: number | null;
}

export interface CompactionOptions {
  targetFileSizeBytes?: number;
  /** S3 Tables' strategies: `sort` (default) writes in the table's declared sort order, `binpack` ignores it. */
  strategy?: 'binpack' | 'sort';
}

export interface CompactionReport {
  rewrittenDataFiles: number;
  rewrittenDeleteFiles: number;
  addedDataFiles: number;
  rewrittenBytes: number;
  snapshot: Snapshot | null;
  message: string;
}

export interface ExpireOptions {
  /** S3 Tables snapshot management: keep at least this many snapshots of main's history. */
  minSnapshotsToKeep: number;
  /** ...and expire those older than this (ms), unless needed by the count above or by a ref. */
  maxSnapshotAgeMs: number;
  now?: Date;
  /** Plan and measure only: report what would be expired and deleted, commit and delete nothing. */
  dryRun?: boolean;
  /** Plan as if these refs did not exist (to measure what a ref holds back). */
  ignoreRefs?: string[];
}

export interface ExpireReport {
  expiredSnapshotIds: number[];
  deletedFiles: number;
  deletedBytes: number;
}

export interface TableHandle {
  readonly bucket: string;
  readonly namespace: string;
  readonly name: string;
  /** Current metadata (re-read from the catalog on each call: other writers may have committed). */
  metadata(): Promise<TableMetadata>;
  scan(options?: ScanOptions): Promise<ScanPlan>;
  append(source: RowSource, options?: CommitOptions): Promise<CommitResult>;
  /** Starts an append whose rows are staged part by part (mapped with `schema`, normally the current one). */
  newAppend(schema: Schema): PendingAppend;
  deleteWhere(filter: Expression): Promise<CommitResult>;
  rowDelta(delta: RowDelta): Promise<CommitResult>;
  overwriteWhere(filter: Expression, source: RowSource): Promise<CommitResult>;
  addColumns(columns: ColumnDefinition[]): Promise<void>;
  renameColumn(from: string, to: string): Promise<void>;
  /** Removes a column from the current schema (its id is never reused; old files keep their data). */
  dropColumn(name: string): Promise<void>;
  /** Iceberg's column update: rename, widen the type, change the doc or move the column. */
  changeColumn(name: string, change: ColumnChange): Promise<void>;
  setSortOrder(fields: SortFieldDefinition[]): Promise<void>;
  setProperties(properties: Record<string, string>): Promise<void>;
  removeProperties(keys: string[]): Promise<void>;
  createTag(name: string, snapshotId?: number, maxRefAgeMs?: number): Promise<void>;
  createBranch(name: string, snapshotId?: number, maxRefAgeMs?: number): Promise<void>;
  dropRef(name: string): Promise<void>;
  expireSnapshots(options: ExpireOptions): Promise<ExpireReport>;
  compact(options?: CompactionOptions): Promise<CompactionReport>;
  /** Remove files under the table location that no metadata references (orphans of failed commits). */
  removeOrphanFiles(olderThanMs?: number): Promise<{ deletedFiles: number; deletedBytes: number }>;
}

/** The parts of Iceberg v2 table metadata callers read; the full document is what is written to disk. */
export interface TableMetadata {
  'format-version': 2;
  'table-uuid': string;
  location: string;
  'last-sequence-number': number;
  'last-updated-ms': number;
  'last-column-id': number;
  'current-schema-id': number;
  schemas: Schema[];
  'default-spec-id': number;
  'partition-specs': {
    'spec-id': number;
    fields: { 'source-id': number; 'field-id': number; name: string; transform: string }[];
  }[];
  'last-partition-id': number;
  'default-sort-order-id': number;
  'sort-orders': {
    'order-id': number;
    fields: { 'source-id': number; transform: string; direction: string; 'null-order': string }[];
  }[];
  properties: Record<string, string>;
  'current-snapshot-id'?: number | null;
  snapshots: Snapshot[];
  'snapshot-log': { 'snapshot-id': number; 'timestamp-ms': number }[];
  'metadata-log': { 'metadata-file': string; 'timestamp-ms': number }[];
  refs: Record<string, SnapshotRef>;
}

export interface TableSummary {
  bucket: string;
  namespace: string;
  name: string;
  metadataLocation: string;
  versionToken: string;
  createdAt: Date;
  modifiedAt: Date;
}

export interface TableBucketInfo {
  name: string;
  arn: string;
  createdAt: Date;
}

export interface NamespaceInfo {
  bucket: string;
  namespace: string;
  createdAt: Date;
}

/** The catalog: S3 Tables' shape (table buckets → namespaces → tables), persistent in a data directory. */
export interface Warehouse {
  readonly dataDir: string;
  createTableBucket(name: string): Promise<TableBucketInfo>;
  getTableBucket(name: string): Promise<TableBucketInfo>;
  listTableBuckets(): Promise<TableBucketInfo[]>;
  deleteTableBucket(name: string): Promise<void>;
  createNamespace(bucket: string, namespace: string): Promise<NamespaceInfo>;
  getNamespace(bucket: string, namespace: string): Promise<NamespaceInfo>;
  listNamespaces(bucket: string): Promise<NamespaceInfo[]>;
  deleteNamespace(bucket: string, namespace: string): Promise<void>;
  createTable(bucket: string, namespace: string, name: string, input: CreateTableInput): Promise<TableHandle>;
  loadTable(bucket: string, namespace: string, name: string): Promise<TableHandle>;
  listTables(bucket: string, namespace?: string): Promise<TableSummary[]>;
  getTable(bucket: string, namespace: string, name: string): Promise<TableSummary>;
  dropTable(bucket: string, namespace: string, name: string, options?: { purge?: boolean }): Promise<void>;
  /** S3 Tables' RenameTable: the table (its files, metadata and UUID) under a new namespace and/or name. */
  renameTable(
    bucket: string,
    namespace: string,
    name: string,
    to: { namespace: string; name: string },
  ): Promise<TableSummary>;
  /** S3 Tables' UpdateTableMetadataLocation: compare-and-swap on the version token. */
  updateMetadataLocation(
    bucket: string,
    namespace: string,
    name: string,
    versionToken: string,
    metadataLocation: string,
  ): Promise<TableSummary>;
  /** An Iceberg REST commit: requirements checked and updates applied in order on the latest metadata, atomically. */
  commitTable(bucket: string, namespace: string, name: string, commit: TableCommit): Promise<CommittedTable>;
  /**
   * The columns of Parquet files (paths or globs) as the engine reads them (by name, across every file), with the
   * compressed bytes of each top-level column over all the files.
   */
  describeParquet(paths: readonly string[]): Promise<ParquetColumn[]>;
  close(): Promise<void>;
}

// ---- SQL front end (src/sql/), consumed by the local endpoint's Athena ----

export interface QueryContext {
  /** `s3tablescatalog/<bucket>` (as Athena's QueryExecutionContext.Catalog), or undefined. */
  catalog?: string;
  database?: string;
}

export interface ExecuteOptions extends QueryContext {
  /** Workgroup BytesScannedCutoffPerQuery: the statement fails with Athena's reason before returning rows. */
  bytesScannedCutoff?: number;
  signal?: AbortSignal;
}

/** Athena's column metadata: type names as Athena reports them (varchar, bigint, integer, double, boolean,
 * timestamp(3), timestamp(6) with time zone, date, decimal(p,s), varbinary, array(varchar), ...). */
export interface ResultColumn {
  name: string;
  type: string;
}

export interface StatementResult {
  statementType: 'DDL' | 'DML' | 'DQL' | 'UTILITY';
  columns: ResultColumn[];
  /** Values in Athena's string encoding (what GetQueryResults returns as VarCharValue); null = SQL NULL. */
  rows: (string | null)[][];
  stats: { dataScannedInBytes: number; engineExecutionTimeInMillis: number; rowsAffected?: number };
}

export type TableAccessKind =
  | 'read'
  | 'insert'
  | 'delete'
  | 'update'
  | 'create'
  | 'drop'
  | 'alter'
  | 'describe'
  /** SHOW TABLES: the schema's tables are listed (no table). */
  | 'list';

/** What a statement does to one table (or, for `list`, one schema). */
export interface TableAccess {
  readonly kind: TableAccessKind;
  /** The catalog as named or defaulted, lower case (`s3tablescatalog/<bucket>`, `awsdatacatalog`). */
  readonly catalog: string;
  readonly schema: string;
  /** Absent for `list`. */
  readonly table?: string;
  /** `snapshots` for `t$snapshots` (the access is to `t`). */
  readonly metadataTable?: string;
}

/** One statement parsed by the engine, with what Athena reports about it at submission. */
export interface PreparedStatement {
  readonly sql: string;
  /** Athena's StatementType: DML for queries and data changes, DDL for table definitions, UTILITY for SHOW. */
  readonly statementType: 'DDL' | 'DML' | 'UTILITY';
  /** Athena's SubstatementType where it is known (SELECT, INSERT, CREATE_TABLE_AS_SELECT, ...). */
  readonly substatementType?: string;
  /** The `external_location` of a CTAS (a workgroup that enforces its configuration refuses it). */
  readonly externalLocation?: string;
  /**
   * The tables the statement reads, writes, creates, drops, alters or describes, with the query context's defaults
   * for unqualified names (what an authorization check asks permissions for). Throws SqlError for a name that
   * cannot be qualified (the statement fails the same way when it runs).
   */
  tableAccesses?(context: QueryContext): readonly TableAccess[];
}

export interface SqlEngine {
  /** Parses one statement: the only time its text is read. Throws SqlError for a syntax error. */
  prepare(sql: string): PreparedStatement;
  /** Runs one statement (prepared by this engine, or text to prepare). Failures throw SqlError whose message is
   * Athena's StateChangeReason text and whose fields carry Athena's error category and type. */
  execute(statement: PreparedStatement | string, options?: ExecuteOptions): Promise<StatementResult>;
}

// The Iceberg REST catalog's commit shapes (apache/iceberg open-api/rest-catalog-open-api.yaml: CommitTableRequest,
// TableRequirement, TableUpdate), as the engine applies them to table metadata (rest/). They live here, on the
// ground floor, because Warehouse.commitTable takes them. Only the members the engine reads are typed; an update or
// requirement of another kind is refused by name.

export type PartitionSpecInput = {
  'spec-id'?: number;
  fields: { 'source-id': number; 'field-id'?: number; name: string; transform: string }[];
};

export type SortOrderInput = {
  'order-id'?: number;
  fields: { 'source-id': number; transform: string; direction: string; 'null-order': string }[];
};

export type TableRequirement =
  | { type: 'assert-create' }
  | { type: 'assert-table-uuid'; uuid: string }
  | { type: 'assert-ref-snapshot-id'; ref: string; 'snapshot-id': number | null }
  | { type: 'assert-last-assigned-field-id'; 'last-assigned-field-id': number }
  | { type: 'assert-current-schema-id'; 'current-schema-id': number }
  | { type: 'assert-last-assigned-partition-id'; 'last-assigned-partition-id': number }
  | { type: 'assert-default-spec-id'; 'default-spec-id': number }
  | { type: 'assert-default-sort-order-id'; 'default-sort-order-id': number };

export type TableUpdate =
  | { action: 'assign-uuid'; uuid: string }
  | { action: 'upgrade-format-version'; 'format-version': number }
  | {
      action: 'add-schema';
      schema: Omit<Schema, 'schema-id'> & { 'schema-id'?: number };
      'last-column-id'?: number;
    }
  | { action: 'set-current-schema'; 'schema-id': number }
  | { action: 'add-spec'; spec: PartitionSpecInput }
  | { action: 'set-default-spec'; 'spec-id': number }
  | { action: 'add-sort-order'; 'sort-order': SortOrderInput }
  | { action: 'set-default-sort-order'; 'sort-order-id': number }
  | { action: 'add-snapshot'; snapshot: Snapshot }
  | ({ action: 'set-snapshot-ref'; 'ref-name': string } & SnapshotRef)
  | { action: 'remove-snapshot-ref'; 'ref-name': string }
  | { action: 'remove-snapshots'; 'snapshot-ids': number[] }
  | { action: 'set-properties'; updates: Record<string, string> }
  | { action: 'remove-properties'; removals: string[] };

export interface TableCommit {
  requirements: readonly TableRequirement[];
  updates: readonly TableUpdate[];
}

export interface CommittedTable {
  metadata: TableMetadata;
  /** The metadata file this commit published (the table's new metadata location). */
  metadataLocation: string;
}
