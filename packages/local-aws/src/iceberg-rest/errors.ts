// The Iceberg REST spec's error model ({"error": {message, type, code}}); the engine's errors map onto it by class
// in engine-errors.ts, beside the S3 Tables and Glue mappings.
import { icebergRestAnswerFor } from '../engine-errors';
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

export function restErrorFor(error: unknown): IcebergRestError {
  if (error instanceof IcebergRestError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const answer = icebergRestAnswerFor(error);
  if (answer) return new IcebergRestError(message, { ...answer, cause: error });
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
