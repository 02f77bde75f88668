// Errors of the SQL front end. The message is exactly what Athena puts in StateChangeReason
// (`<ERROR_NAME>: line L:C: <text>`), so the local endpoint can pass it through unchanged; errorCategory and
// errorType follow Athena's AthenaError (category 1 system, 2 user, 3 other; type 1000 = user error,
// 233 = Iceberg error, 100 = internal service error).
import { LakehouseError, type LakehouseErrorOptions } from '../errors';

export interface SourcePosition {
  line: number;
  column: number;
}

export type AthenaErrorCategory = 1 | 2 | 3;

export interface SqlErrorOptions extends LakehouseErrorOptions {
  /** Athena's name for the failure (TABLE_NOT_FOUND, SYNTAX_ERROR, ...): the message starts with it. */
  errorName: string;
  position?: SourcePosition;
  errorCategory?: AthenaErrorCategory;
  errorType?: number;
}

function locate(position: SourcePosition | undefined): string {
  return position ? `line ${position.line}:${position.column}: ` : '';
}

/**
 * Base class: every failure of a statement, an engine error like the rest (`(message, { cause, value, ... })`).
 * `errorName` is Athena's (TABLE_NOT_FOUND, SYNTAX_ERROR, ...).
 */
export class SqlError extends LakehouseError {
  override name: string = 'SqlError';
  readonly errorName: string;
  readonly errorCategory: AthenaErrorCategory;
  readonly errorType: number;
  readonly position?: SourcePosition;
  /** The message without the error name: `line L:C: <text>` (what Athena's API errors carry). */
  readonly detail: string;
  /** Athena's query state for this failure (a scan cutoff cancels; everything else fails). */
  readonly state: 'FAILED' | 'CANCELLED' = 'FAILED';

  constructor(text: string, options: SqlErrorOptions) {
    super(`${options.errorName}: ${locate(options.position)}${text}`, options);
    this.detail = `${locate(options.position)}${text}`;
    this.errorName = options.errorName;
    this.errorCategory = options.errorCategory ?? 2;
    this.errorType = options.errorType ?? 1000;
    this.position = options.position;
  }
}

export class SqlSyntaxError extends SqlError {
  override name = 'SqlSyntaxError';
  constructor(text: string, position: SourcePosition, value?: unknown) {
    super(text, { errorName: 'SYNTAX_ERROR', position, value });
  }
}

export class NotSupportedError extends SqlError {
  override name = 'NotSupportedError';
  constructor(construct: string, position?: SourcePosition) {
    super(`${construct} is not supported by the local engine (it runs on Athena)`, {
      errorName: 'NOT_SUPPORTED',
      position,
      value: construct,
    });
  }
}

/**
 * A statement Athena itself refuses (OPTIMIZE on S3 Tables, REPLACE COLUMNS on Iceberg tables...): NOT_SUPPORTED
 * with Athena's reason, as opposed to NotSupportedError, which marks what only the local engine lacks.
 */
export class RefusedByAthenaError extends SqlError {
  override name = 'RefusedByAthenaError';
  constructor(text: string, position?: SourcePosition, value?: unknown) {
    super(text, { errorName: 'NOT_SUPPORTED', position, value });
  }
}

export class TableNotFoundError extends SqlError {
  override name = 'TableNotFoundError';
  constructor(qualifiedName: string, position?: SourcePosition, cause?: unknown) {
    super(`Table '${qualifiedName}' does not exist`, {
      errorName: 'TABLE_NOT_FOUND',
      position,
      value: qualifiedName,
      cause,
    });
  }
}

export class SchemaNotFoundError extends SqlError {
  override name = 'SchemaNotFoundError';
  constructor(qualifiedName: string, position?: SourcePosition, cause?: unknown) {
    super(`Schema '${qualifiedName}' does not exist`, {
      errorName: 'SCHEMA_NOT_FOUND',
      position,
      value: qualifiedName,
      cause,
    });
  }
}

export class CatalogNotFoundError extends SqlError {
  override name = 'CatalogNotFoundError';
  constructor(catalog: string, position?: SourcePosition) {
    super(`Catalog '${catalog}' does not exist`, {
      errorName: 'CATALOG_NOT_FOUND',
      position,
      value: catalog,
    });
  }
}

export class SqlTableAlreadyExistsError extends SqlError {
  override name = 'SqlTableAlreadyExistsError';
  constructor(qualifiedName: string, position?: SourcePosition) {
    super(`Table '${qualifiedName}' already exists`, {
      errorName: 'TABLE_ALREADY_EXISTS',
      position,
      value: qualifiedName,
    });
  }
}

export class ColumnNotFoundError extends SqlError {
  override name = 'ColumnNotFoundError';
  constructor(column: string, position?: SourcePosition, cause?: unknown) {
    super(
      `Column '${column}' cannot be resolved or requester is not authorized to access requested resources`,
      { errorName: 'COLUMN_NOT_FOUND', position, value: column, cause },
    );
  }
}

/** A version clause naming a snapshot or instant the table does not have. */
export class InvalidArgumentsError extends SqlError {
  override name = 'InvalidArgumentsError';
  constructor(text: string, position?: SourcePosition, value?: unknown) {
    super(text, { errorName: 'INVALID_ARGUMENTS', position, value });
  }
}

export class MergeMultipleMatchesError extends SqlError {
  override name = 'MergeMultipleMatchesError';
  constructor(value?: unknown) {
    super('One MERGE target table row matched more than one source row', {
      errorName: 'MERGE_TARGET_ROW_MULTIPLE_MATCHES',
      value,
    });
  }
}

/** Workgroup BytesScannedCutoffPerQuery exceeded: Athena cancels the query with this reason. */
export class ScanCutoffError extends SqlError {
  override name = 'ScanCutoffError';
  override readonly state = 'CANCELLED' as const;
  readonly plannedBytes: number;
  readonly cutoffBytes: number;
  /** What Athena reports as scanned for a query it cancelled at the cutoff: the cutoff itself. */
  readonly dataScannedInBytes: number;
  constructor(plannedBytes: number, cutoffBytes: number) {
    super('', { errorName: 'BYTES_SCANNED_LIMIT', value: plannedBytes });
    // Athena's reason is the bare sentence, without an error-name prefix.
    this.message = 'Bytes scanned limit was exceeded';
    this.plannedBytes = plannedBytes;
    this.cutoffBytes = cutoffBytes;
    this.dataScannedInBytes = cutoffBytes;
  }
}

/** A statement DuckDB refused for a reason the front end did not anticipate (type mismatch, bad cast...). */
export class GenericUserError extends SqlError {
  override name = 'GenericUserError';
  constructor(errorName: string, text: string, options: Omit<SqlErrorOptions, 'errorName'> = {}) {
    super(text, { ...options, errorName });
  }
}

export class InternalEngineError extends SqlError {
  override name = 'InternalEngineError';
  constructor(text: string, cause?: unknown) {
    super(text, { errorName: 'GENERIC_INTERNAL_ERROR', cause, errorCategory: 1, errorType: 200 });
  }
}
