// Errors of the local endpoint. `AwsServiceError` is what a handler throws to answer a request with AWS's error
// shape; `LocalAwsError` subclasses are for the endpoint's own failures (bad options, engine not available).

/** Base class of every error this package throws. */
export class LocalAwsError extends Error {
  override name = 'LocalAwsError';
  constructor(
    message: string,
    readonly value?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A bad endpoint option (CLI flag or in-process option); the message names the value and the fix. */
export class LocalEndpointConfigError extends LocalAwsError {
  override name = 'LocalEndpointConfigError';
}

/**
 * An error answered to the client in the service's wire shape. `type` is the AWS exception name the SDK maps to
 * its exception class (`__type` / `x-amzn-errortype`); `fields` are extra members of that exception
 * (e.g. Athena's `AthenaErrorCode`).
 */
export class AwsServiceError extends LocalAwsError {
  override name = 'AwsServiceError';
  constructor(
    readonly type: string,
    readonly status: number,
    message: string,
    readonly fields: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, type, options);
  }
}

/** The operation exists in AWS but the local endpoint does not implement it (`reason`: why, when known). */
export function notSupported(service: string, operation: string, reason?: string): AwsServiceError {
  return new AwsServiceError(
    'UnsupportedOperationException',
    400,
    `${service} operation ${operation} is not supported by the local endpoint (loglake local)${reason ? `: ${reason}` : ''}. ` +
      'Run it against AWS (--target aws), or see the README section "Local endpoint" for the supported operations.',
  );
}

/** A target the service's model does not have (AWS's awsJson services answer UnknownOperationException). */
export function unknownOperation(service: string, operation: string): AwsServiceError {
  return new AwsServiceError(
    'UnknownOperationException',
    400,
    `${service} has no operation ${JSON.stringify(operation)} in its API model.`,
  );
}

/** A stream's record log that cannot be used as it is (another format version, a damaged header); says what to do. */
export class FirehoseLogError extends LocalAwsError {
  override name = 'FirehoseLogError';
}
