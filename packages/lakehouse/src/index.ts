// @loglake/lakehouse: the embedded engine — Iceberg tables on local disk, DuckDB underneath. This face is what other
// packages use: the warehouse contract and its errors, openWarehouse, createSqlEngine (Athena's SQL) and the catalog
// and storage types. Iceberg's own value and metadata helpers are in ./iceberg; test support in ./testing.
export { isNamespaceName, isTableName } from './catalog/names';
export { openWarehouse } from './catalog/warehouse';
export type {
  ColumnDefinition,
  CommitOptions,
  CommitResult,
  CommittedTable,
  CompactionReport,
  CreateTableInput,
  ExpireReport,
  NamespaceInfo,
  NdjsonSource,
  PendingAppend,
  PreparedStatement,
  QueryContext,
  ResultColumn,
  RowSource,
  SqlEngine,
  StatementResult,
  TableAccess,
  TableAccessKind,
  TableBucketInfo,
  TableCommit,
  TableHandle,
  TableSummary,
  Warehouse,
} from './contract';
export { sqlString } from './duckdb/duckdb-session';
// The engine's errors, every one: local-aws answers each with its own wire error, by class (engine-errors.ts).
export {
  CommitConflictError,
  CommitRequirementFailedError,
  InvalidExpressionError,
  InvalidMetadataLocationError,
  InvalidNameError,
  InvalidPropertyError,
  InvalidSchemaError,
  InvalidTransformError,
  InvalidUpdateError,
  NamespaceAlreadyExistsError,
  NamespaceNotEmptyError,
  NoSuchNamespaceError,
  NoSuchRefError,
  NoSuchSnapshotError,
  NoSuchTableBucketError,
  NoSuchTableError,
  RefAlreadyExistsError,
  SchemaMismatchError,
  TableAlreadyExistsError,
  TableBucketAlreadyExistsError,
  TableBucketNotEmptyError,
  UnreadableRowsError,
  UnsupportedUpdateError,
} from './errors';
export { WarehouseNotInPlaceError, type OutsideTable } from './catalog/warehouse-place';
export { toPath } from './io/file-io';
export {
  compareKeys,
  decodeName,
  listNames,
  namedPath,
  objectPath,
  objectsUnder,
  StoredNameError,
} from './io/stored-paths';
export { S3_TABLES_MAINTENANCE_DEFAULTS } from './maintenance';
export type {
  CatalogProvider,
  CatalogServices,
  HiveColumn,
  ParquetTableRegistration,
  SqlCatalog,
} from './sql/catalog/catalog';
export { DEFAULT_CATALOG } from './sql/catalog/registry';
export { type AthenaSqlEngineOptions, createSqlEngine } from './sql/engine';
export {
  CatalogNotFoundError,
  ColumnNotFoundError,
  GenericUserError,
  InvalidArgumentsError,
  NotSupportedError,
  ScanCutoffError,
  SchemaNotFoundError,
  SqlError,
  SqlSyntaxError,
  SqlTableAlreadyExistsError,
  TableNotFoundError,
} from './sql/errors';
export { LocalDirectoryStorage } from './sql/execution/external-storage';
