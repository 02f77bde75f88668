// The Athena (Trino dialect) SQL front end over the embedded Iceberg engine: its public face.
export {
  AthenaSqlEngine,
  AthenaPreparedStatement,
  createSqlEngine,
  prepareStatement,
  type AthenaSqlEngineOptions,
} from './engine';
export {
  SqlError,
  SqlSyntaxError,
  NotSupportedError,
  RefusedByAthenaError,
  TableNotFoundError,
  SchemaNotFoundError,
  CatalogNotFoundError,
  SqlTableAlreadyExistsError,
  ColumnNotFoundError,
  InvalidArgumentsError,
  MergeMultipleMatchesError,
  ScanCutoffError,
  GenericUserError,
  InternalEngineError,
  type SourcePosition,
  type AthenaErrorCategory,
} from './errors';
export type {
  SqlCatalog,
  CatalogProvider,
  CatalogServices,
  HiveColumn,
  ParquetTableRegistration,
  ParquetTableSpec,
} from './catalog/catalog';
export { DEFAULT_CATALOG } from './catalog/registry';
export {
  LocalDirectoryStorage,
  parseS3Uri,
  type ExternalStorage,
  type ParquetWriteOptions,
  type ExternalWriteResult,
} from './execution/external-storage';
