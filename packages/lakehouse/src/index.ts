export * from './contract';
export * from './errors';
export { openWarehouse, LocalWarehouse, type WarehouseOptions } from './catalog/warehouse';
export { isBucketName, isNamespaceName, isTableName } from './catalog/names';
export { IcebergTable, type TableContext } from './table/table-handle';
export {
  validateRows,
  type RowValidation,
  type RejectedRow,
  type ValidatedRow,
  type ValidateOptions,
} from './table/row-validation';
export { planScan, applicableDeletes, type PlannedScan } from './table/scan-planner';
export { commitWithRetry, loadLatest, type BuiltCommit, type LoadedMetadata } from './table/commit';
export { writeDataFiles, type WriteDataInput } from './table/data-writer';
export {
  writePositionDeletes,
  DELETE_FILE_PATH_ID,
  DELETE_POS_ID,
  type WrittenDeletes,
} from './table/position-delete-writer';
export { resolveVersion, type ResolvedVersion } from './table/version-selector';
export { DuckDbSession, sqlIdent, sqlString, type SqlRow } from './duckdb/duckdb-session';
export { TableLayout } from './io/table-layout';
export { toPath, toUri, createExclusive, replaceAtomically } from './io/file-io';
export {
  StoredNameError,
  encodeName,
  decodeName,
  namedPath,
  listNames,
  containedPath,
  isInside,
  objectPath,
  objectsUnder,
  compareKeys,
  OBJECT_MARKER,
  type StoredObject,
} from './io/stored-paths';
export {
  produceSnapshot,
  withSnapshot,
  type AddedFile,
  type FileChanges,
  type ProducedSnapshot,
} from './snapshots/snapshot-producer';
export { buildSummary } from './snapshots/summary';
export { newSnapshotId } from './snapshots/snapshot-id';
export * from './manifests/data-file';
export { readManifest, readManifestList, writeManifest, writeManifestList } from './manifests/manifest-io';
export { snapshotFiles, specPartitionTypes, type SnapshotFiles } from './manifests/live-files';
export { bindExpression, referencedFieldIds, type BoundExpression, type BoundLeaf } from './expressions/bind';
export { fileMightMatch, manifestMightMatch } from './expressions/evaluate';
export { boundToSql, expressionToSql } from './expressions/to-sql';
export * from './metadata/table-metadata';
export {
  buildPartitionSpec,
  buildSortOrder,
  partitionFieldTypes,
  type PartitionSpec,
  type SortOrder,
} from './metadata/partition-spec';
export { buildSchema, findField, addColumnsToSchema, renameInSchema } from './metadata/schema';
export {
  parseTransform,
  validateTransform,
  applyTransform,
  transformResultType,
  type ParsedTransform,
} from './metadata/transforms';
export { murmur3x86, icebergHash, bucketOf } from './metadata/murmur3';
export {
  coerceValue,
  literalToText,
  literalToSql,
  encodeBound,
  decodeBound,
  compareLiterals,
  CoercionError,
  type Literal,
} from './metadata/values';
export { parseType, duckdbType, isIcebergPrimitive, normaliseType } from './metadata/types';
// Java's number text (Double.toString): local-aws's CloudWatch prints its alarm reasons with it.
export { javaDouble } from './metadata/number-text';
export * from './sql';
export * from './maintenance';
export * from './metadata-tables';
export * from './rest';
