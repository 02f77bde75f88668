// Turns an engine error into the exception S3 Tables, Glue (S3 Tables namespaces seen as databases) or S3 Tables'
// Iceberg REST endpoint answers with, by the engine error's class: the one place engine errors meet the wire. Any
// other error (a TypeError from a bug, say) is the endpoint's fault: a 500, never a client error.
import {
  CatalogNotFoundError,
  ColumnNotFoundError,
  CommitConflictError,
  CommitRequirementFailedError,
  InvalidArgumentsError,
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
  SchemaNotFoundError,
  SqlTableAlreadyExistsError,
  StoredNameError,
  TableAlreadyExistsError,
  TableBucketAlreadyExistsError,
  TableBucketNotEmptyError,
  TableNotFoundError,
  UnsupportedUpdateError,
} from '@loglake/lakehouse';
import { AwsServiceError } from './errors';
import { wireError, type ModelledService } from './model/wire-errors';

type ErrorClass = abstract new (...args: never[]) => Error;

const NOT_FOUND: ErrorClass[] = [
  NoSuchTableBucketError,
  NoSuchNamespaceError,
  NoSuchTableError,
  NoSuchSnapshotError,
  NoSuchRefError,
  CatalogNotFoundError,
  SchemaNotFoundError,
  TableNotFoundError,
  ColumnNotFoundError,
];
const ALREADY_EXISTS: ErrorClass[] = [
  TableBucketAlreadyExistsError,
  NamespaceAlreadyExistsError,
  TableAlreadyExistsError,
  SqlTableAlreadyExistsError,
  RefAlreadyExistsError,
];
const IN_USE: ErrorClass[] = [TableBucketNotEmptyError, NamespaceNotEmptyError, CommitConflictError];
const INVALID: ErrorClass[] = [
  InvalidNameError,
  InvalidMetadataLocationError,
  InvalidSchemaError,
  InvalidTransformError,
  InvalidExpressionError,
  InvalidPropertyError,
  InvalidUpdateError,
  InvalidArgumentsError,
];

/** Each service's exception for a family of engine errors, first match wins; the last entry is the fallback. */
const BY_CLASS: Record<'s3tables' | 'glue', [ErrorClass[], string][]> = {
  s3tables: [
    [NOT_FOUND, 'NotFoundException'],
    [[...ALREADY_EXISTS, ...IN_USE], 'ConflictException'],
    [[...INVALID, SchemaMismatchError], 'BadRequestException'],
  ],
  glue: [
    [NOT_FOUND, 'EntityNotFoundException'],
    [ALREADY_EXISTS, 'AlreadyExistsException'],
    [[...INVALID, ...IN_USE], 'InvalidInputException'],
  ],
};
const INTERNAL = { s3tables: 'InternalServerErrorException', glue: 'InternalServiceException' } as const;

function errorFor(service: ModelledService & keyof typeof BY_CLASS, error: unknown): AwsServiceError {
  if (error instanceof AwsServiceError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const found = BY_CLASS[service].find(([classes]) => classes.some((c) => error instanceof c));
  if (found) return wireError(service, found[1], message, { cause: error });
  return wireError(service, INTERNAL[service], `Internal error in the local engine: ${message}`, {
    cause: error,
  });
}

export const s3TablesErrorFor = (error: unknown): AwsServiceError => errorFor('s3tables', error);

/** An engine error as Glue answers it (a namespace seen as a Glue database of an S3 Tables catalog). */
export const glueErrorFor = (error: unknown): AwsServiceError => errorFor('glue', error);

/**
 * The Iceberg REST spec's exception and status for an engine error (its responses for each route; S3 Tables
 * documents no statuses of its own for this endpoint: packages/local-aws/README.md, "Iceberg REST endpoint"), or
 * undefined for one the spec has no answer for (the endpoint's 500).
 */
const ICEBERG_REST_BY_CLASS: [ErrorClass, number, string][] = [
  [NoSuchTableBucketError, 404, 'NoSuchWarehouseException'],
  [NoSuchNamespaceError, 404, 'NoSuchNamespaceException'],
  [NoSuchTableError, 404, 'NoSuchTableException'],
  [NamespaceAlreadyExistsError, 409, 'AlreadyExistsException'],
  [TableAlreadyExistsError, 409, 'AlreadyExistsException'],
  [NamespaceNotEmptyError, 409, 'NamespaceNotEmptyException'],
  [CommitRequirementFailedError, 409, 'CommitFailedException'],
  [CommitConflictError, 409, 'CommitFailedException'],
  [UnsupportedUpdateError, 400, 'BadRequestException'],
  [InvalidUpdateError, 400, 'BadRequestException'],
  [InvalidNameError, 400, 'BadRequestException'],
  [InvalidMetadataLocationError, 400, 'BadRequestException'],
  [StoredNameError, 400, 'BadRequestException'],
  [InvalidSchemaError, 400, 'BadRequestException'],
  [InvalidTransformError, 400, 'BadRequestException'],
  [InvalidPropertyError, 400, 'BadRequestException'],
  [SchemaMismatchError, 400, 'BadRequestException'],
];

export function icebergRestAnswerFor(error: unknown): { type: string; status: number } | undefined {
  const found = ICEBERG_REST_BY_CLASS.find(([c]) => error instanceof c);
  return found ? { status: found[1], type: found[2] } : undefined;
}
