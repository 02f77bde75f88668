// Turns an engine error into the AWS exception S3 Tables (or Glue, for S3 Tables namespaces seen as databases)
// answers with, by the engine error's class, as iceberg-rest/errors.ts does for the Iceberg REST endpoint. Any
// other error (a TypeError from a bug, say) is the endpoint's fault: a 500, never a client error.
import {
  CatalogNotFoundError,
  ColumnNotFoundError,
  CommitConflictError,
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
  TableAlreadyExistsError,
  TableBucketAlreadyExistsError,
  TableBucketNotEmptyError,
  TableNotFoundError,
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
