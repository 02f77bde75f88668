// The engine's error catalogue. Every error names the offending value and says what to do next; callers
// (the SQL front end, the local endpoint) map these classes to Athena / S3 Tables error shapes.
import { LoglakeError, type LoglakeErrorOptions } from '@loglake/errors';

/** The cause, and the offending value (a name, a row, a token...). */
export type LakehouseErrorOptions = LoglakeErrorOptions;

/** The root of the engine's errors: the house's one shape, `(message, { cause, value })`. */
export class LakehouseError extends LoglakeError {
  override readonly name: string = 'LakehouseError';
}

export class InvalidNameError extends LakehouseError {
  override readonly name = 'InvalidNameError';
}
/** A metadata or data file location outside the table's own folder (a table reads only its own files). */
export class InvalidMetadataLocationError extends LakehouseError {
  override readonly name = 'InvalidMetadataLocationError';
}
export class NoSuchTableBucketError extends LakehouseError {
  override readonly name = 'NoSuchTableBucketError';
}
export class TableBucketAlreadyExistsError extends LakehouseError {
  override readonly name = 'TableBucketAlreadyExistsError';
}
export class TableBucketNotEmptyError extends LakehouseError {
  override readonly name = 'TableBucketNotEmptyError';
}
export class NoSuchNamespaceError extends LakehouseError {
  override readonly name = 'NoSuchNamespaceError';
}
export class NamespaceAlreadyExistsError extends LakehouseError {
  override readonly name = 'NamespaceAlreadyExistsError';
}
export class NamespaceNotEmptyError extends LakehouseError {
  override readonly name = 'NamespaceNotEmptyError';
}
export class NoSuchTableError extends LakehouseError {
  override readonly name = 'NoSuchTableError';
}
export class TableAlreadyExistsError extends LakehouseError {
  override readonly name = 'TableAlreadyExistsError';
}
/** Another writer committed first and the change could not be re-applied (or the version token is stale). */
export class CommitConflictError extends LakehouseError {
  override readonly name = 'CommitConflictError';
}
/** Rows, columns or a schema change that do not fit the table's schema (unknown column, wrong type...). */
export class SchemaMismatchError extends LakehouseError {
  override readonly name = 'SchemaMismatchError';
}
/** Rows handed to the engine (NDJSON lines) that its reader cannot read as the table's columns. */
export class UnreadableRowsError extends LakehouseError {
  override readonly name = 'UnreadableRowsError';
}
/** A column definition or schema that is not valid Iceberg (bad type, duplicate name...). */
export class InvalidSchemaError extends LakehouseError {
  override readonly name = 'InvalidSchemaError';
}
export class InvalidTransformError extends LakehouseError {
  override readonly name = 'InvalidTransformError';
}
export class InvalidExpressionError extends LakehouseError {
  override readonly name = 'InvalidExpressionError';
}
export class NoSuchSnapshotError extends LakehouseError {
  override readonly name = 'NoSuchSnapshotError';
}
export class NoSuchRefError extends LakehouseError {
  override readonly name = 'NoSuchRefError';
}
export class RefAlreadyExistsError extends LakehouseError {
  override readonly name = 'RefAlreadyExistsError';
}
/** A table property with a value the engine cannot honour (e.g. an unknown compression codec). */
export class InvalidPropertyError extends LakehouseError {
  override readonly name = 'InvalidPropertyError';
}
/** Table files on disk that cannot be read as Iceberg (corrupt or foreign metadata). */
export class CorruptTableError extends LakehouseError {
  override readonly name = 'CorruptTableError';
}
/** A DuckDB statement the engine generated or was given failed. */
export class QueryFailedError extends LakehouseError {
  override readonly name = 'QueryFailedError';
}
/** A REST commit requirement (assert-…) the table's latest metadata does not meet; nothing was committed. */
export class CommitRequirementFailedError extends LakehouseError {
  override readonly name = 'CommitRequirementFailedError';
}
/** A REST commit update (or requirement) the engine does not apply, e.g. set-location or a format-version upgrade. */
export class UnsupportedUpdateError extends LakehouseError {
  override readonly name = 'UnsupportedUpdateError';
}
/** A REST commit update whose content is not valid for the table (unknown schema id, duplicate snapshot...). */
export class InvalidUpdateError extends LakehouseError {
  override readonly name = 'InvalidUpdateError';
}
