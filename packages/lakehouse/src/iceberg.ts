// @loglake/lakehouse/iceberg: the Iceberg format's values and metadata, for code that speaks Iceberg on the wire
// (local-aws's S3 Tables and Iceberg REST endpoints): schemas, snapshots, literal coercion, commit parsing.
export type { Schema, SchemaField, Snapshot, TableMetadata, Transform } from './contract';
export { currentSchema } from './metadata/table-metadata';
export { isIcebergPrimitive } from './metadata/types';
export { coerceValue, literalToText } from './metadata/values';
export { parseTableCommit } from './rest/parse-commit';
// Java's number text (Double.toString): local-aws's CloudWatch prints its alarm reasons with it.
export { javaDouble } from './metadata/number-text';
