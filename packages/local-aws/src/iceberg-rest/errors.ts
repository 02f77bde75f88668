// The Iceberg REST spec's error model ({"error": {message, type, code}}), and the engine's errors mapped onto it by
// class. Statuses follow the spec's responses for each route; S3 Tables documents no statuses of its own for this
// endpoint, so nothing here relies on more than the spec (packages/local-aws/README.md, "Iceberg REST endpoint").
import {
  CommitConflictError,
  CommitRequirementFailedError,
  InvalidMetadataLocationError,
  InvalidNameError,
  InvalidPropertyError,
  InvalidSchemaError,
  InvalidTransformError,
  InvalidUpdateError,
  NamespaceAlreadyExistsError,
  NamespaceNotEmptyError,
  NoSuchNamespaceError,
  NoSuchTableBucketError,
  NoSuchTableError,
  SchemaMismatchError,
  StoredNameError,
  TableAlreadyExistsError,
  UnsupportedUpdateError,
} from '@loglake/lakehouse';
import { AwsServiceError } from '../errors';
import type { LocalReply } from '../protocol';

/** An error answered in the REST spec's shape: `type` is the spec's exception name, `status` its HTTP code. */
export class IcebergRestError extends AwsServiceError {
  override name = 'IcebergRestError';
}

export const badRequest = (message: string, value?: unknown) =>
  new IcebergRestError(message, { type: 'BadRequestException', status: 400, value });

/** An endpoint of the REST spec that S3 Tables does not serve: the spec's 406 "unsupported operation". */
export const unsupported = (what: string) =>
  new IcebergRestError(
    `${what} is not supported by the S3 Tables Iceberg REST endpoint (nor by this local one).`,
    {
      type: 'UnsupportedOperationException',
      status: 406,
      value: what,
    },
  );

const BY_CLASS: [new (...args: never[]) => Error, number, string][] = [
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

export function restErrorFor(error: unknown): IcebergRestError {
  if (error instanceof IcebergRestError) return error;
  const message = error instanceof Error ? error.message : String(error);
  for (const [type, code, name] of BY_CLASS) {
    if (error instanceof type)
      return new IcebergRestError(message, { type: name, status: code, cause: error });
  }
  return new IcebergRestError(`Internal error in the local endpoint: ${message}`, {
    type: 'InternalServerError',
    status: 500,
    cause: error,
  });
}

/** The spec's error model, `{"error": {message, type, code}}`: the one writer of it (protocol.ts renders with it). */
export const icebergRestErrorBody = (error: AwsServiceError) => ({
  error: { message: error.message, type: error.type, code: error.status },
});

export function errorReply(error: IcebergRestError, head: boolean): LocalReply {
  if (head) return { status: error.status, raw: { headers: {}, body: '' } };
  return { status: error.status, json: icebergRestErrorBody(error) };
}
