// The Athena (Trino dialect) SQL front end over the embedded Iceberg engine.
export { AthenaSqlEngine, createSqlEngine, type AthenaSqlEngineOptions } from './engine';
export {
  SqlError,
  SqlSyntaxError,
  NotSupportedError,
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
export {
  LocalDirectoryStorage,
  parseS3Uri,
  type ExternalStorage,
  type ParquetWriteOptions,
  type ExternalWriteResult,
} from './external-storage';
export { parseStatement } from './parse-statement';
export type { Statement } from './ast';
export {
  ATHENA_BEHAVIOUR_SUITE,
  runSuiteStep,
  type SuiteContext,
  type SuiteStep,
} from './athena-behaviour-suite';
