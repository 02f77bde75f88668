// The errors the endpoint answers, with their HTTP status taken from where AWS defines them: first the service's
// vendored model (the exception shape's `smithy.api#httpError`, else Smithy's default for its fault: client 400,
// server 500), then the few tables below for errors no service model lists. A name in none of them is a bug here,
// not a client mistake, and fails loudly (wire-errors.test.ts checks every name the endpoint's source sends).
import { AwsServiceError, type LocalAwsErrorOptions } from '../errors';
import { loadModel, ServiceModelError } from './api';

/** The services with a vendored model (`models/<service>.json`). */
export const MODELLED_SERVICES = ['athena', 'cloudwatch', 'firehose', 'glue', 's3', 's3tables'] as const;
export type ModelledService = (typeof MODELLED_SERVICES)[number];

/**
 * Errors of every AWS service (each API reference's "Common Errors", e.g.
 * https://docs.aws.amazon.com/firehose/latest/APIReference/CommonErrors.html) and of the JSON protocols
 * themselves (a body that is not the operation's JSON: SerializationException; a target the model lacks:
 * UnknownOperationException; both 400 in the AWS SDKs' protocol tests), plus the endpoint's own refusals of what
 * it does not serve (UnsupportedOperation[Exception], InvalidClockRequest: the README's "Local endpoint").
 */
const COMMON: Readonly<Record<string, number>> = {
  InternalFailure: 500,
  InvalidAction: 400,
  ValidationError: 400,
  ServiceUnavailable: 503,
  ThrottlingException: 400,
  SerializationException: 400,
  UnknownOperationException: 400,
  ValidationException: 400,
  UnsupportedOperationException: 400,
  UnsupportedOperation: 400,
  InvalidClockRequest: 400,
};

/**
 * S3's model names 15 of its errors; the rest are the error codes of S3's "Error responses" list
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html#ErrorCodeList), status as listed there.
 */
const S3_ERROR_CODES: Readonly<Record<string, number>> = {
  AccessControlListNotSupported: 400,
  BadRequest: 400,
  BucketNotEmpty: 409,
  EntityTooSmall: 400,
  IncompleteBody: 400,
  InternalError: 500,
  InvalidArgument: 400,
  InvalidBucketName: 400,
  InvalidBucketState: 409,
  InvalidURI: 400,
  InvalidPart: 400,
  InvalidPartOrder: 400,
  InvalidRange: 416,
  InvalidTag: 400,
  KeyTooLongError: 400,
  MalformedPolicy: 400,
  MalformedXML: 400,
  MissingRequestBodyError: 400,
  NoSuchBucketPolicy: 404,
  NoSuchCORSConfiguration: 404,
  NoSuchLifecycleConfiguration: 404,
  NoSuchTagSet: 404,
  ServerSideEncryptionConfigurationNotFoundError: 404,
  NoSuchPublicAccessBlockConfiguration: 404,
  OwnershipControlsNotFoundError: 404,
  NoSuchWebsiteConfiguration: 404,
  ObjectLockConfigurationNotFoundError: 404,
  ReplicationConfigurationNotFoundError: 404,
};

/** The status of `type` as `service` answers it, or undefined when neither its model nor the tables list it. */
export function errorStatus(service: ModelledService | undefined, type: string): number | undefined {
  if (service) {
    const shape = loadModel(service).shapes[type];
    if (shape?.type === 'structure' && shape.error)
      return shape.httpError ?? (shape.error === 'server' ? 500 : 400);
    if (service === 's3' && S3_ERROR_CODES[type] !== undefined) return S3_ERROR_CODES[type];
  }
  return COMMON[type];
}

/** The error `service` answers as `type`, with the status its model gives it. */
export function wireError(
  service: ModelledService | undefined,
  type: string,
  message: string,
  options: LocalAwsErrorOptions & { fields?: Record<string, unknown> } = {},
): AwsServiceError {
  const status = errorStatus(service, type);
  if (status === undefined)
    throw new ServiceModelError(
      `${service ?? 'The endpoint'} has no error ${type} in its model or in AWS's common errors: use one it has.`,
      { value: type },
    );
  return new AwsServiceError(message, { ...options, type, status });
}

/** The operation exists in AWS but the local endpoint does not implement it (`reason`: why, when known). */
export function notSupported(service: string, operation: string, reason?: string): AwsServiceError {
  return wireError(
    undefined,
    'UnsupportedOperationException',
    `${service} operation ${operation} is not supported by the local endpoint (loglake local)${reason ? `: ${reason}` : ''}. ` +
      'Run it against AWS (--target aws), or see the README section "Local endpoint" for the supported operations.',
  );
}

/** A target the service's model does not have (AWS's awsJson services answer UnknownOperationException). */
export function unknownOperation(service: string, operation: string): AwsServiceError {
  return wireError(
    undefined,
    'UnknownOperationException',
    `${service} has no operation ${JSON.stringify(operation)} in its API model.`,
  );
}

/**
 * A body over the endpoint's limit: HTTP 413 Content Too Large (RFC 9110 §15.5.14), in the class of `answer` (the
 * service's malformed-request error) when the service is known, else `RequestEntityTooLarge`. AWS documents no error
 * for it, so the class is the service's own (or that name) and the status the HTTP one.
 */
export function tooLarge(
  answer: AwsServiceError | undefined,
  message: string,
  cause: unknown,
): AwsServiceError {
  return new AwsServiceError(message, {
    type: answer?.type ?? 'RequestEntityTooLarge',
    status: 413,
    fields: answer?.fields ?? {},
    cause,
  });
}

/** The endpoint's own failure (a bug, not the caller's input): 500, in the service's internal-error class. */
export function internalError(type: string, message: string, cause: unknown): AwsServiceError {
  return new AwsServiceError(message, { type, status: 500, cause });
}
