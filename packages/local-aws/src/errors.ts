// Errors of the local endpoint. `AwsServiceError` is what a handler throws to answer a request with AWS's error
// shape; `LocalAwsError` subclasses are for the endpoint's own failures (bad options, engine not available).
import { LoglakeError, type LoglakeErrorOptions } from '@loglake/errors';

/** What every error of this package carries besides its message: the cause and the offending value. */
export type LocalAwsErrorOptions = LoglakeErrorOptions;

/** Base class of every error this package throws: the house's one shape, `(message, { cause, value })`. */
export class LocalAwsError extends LoglakeError {
  override name = 'LocalAwsError';
}

/** A bad endpoint option (CLI flag or in-process option); the message names the value and the fix. */
export class LocalEndpointConfigError extends LocalAwsError {
  override name = 'LocalEndpointConfigError';
}

export interface AwsServiceErrorOptions extends LocalAwsErrorOptions {
  /** The AWS exception name the SDK maps to its exception class (`__type` / `x-amzn-errortype`). */
  type: string;
  /** The HTTP status: from the service's model (model/wire-errors.ts makes these), never written by hand. */
  status: number;
  /** Extra members of the exception (e.g. Athena's `AthenaErrorCode`). */
  fields?: Record<string, unknown>;
}

/**
 * An error answered to the client in the service's wire shape. Handlers make them with `wireError` (model/wire-
 * errors.ts), which takes the status from the service's model.
 */
export class AwsServiceError extends LocalAwsError {
  override name = 'AwsServiceError';
  readonly type: string;
  readonly status: number;
  readonly fields: Record<string, unknown>;
  constructor(message: string, options: AwsServiceErrorOptions) {
    super(message, { cause: options.cause, value: options.value ?? options.type });
    this.type = options.type;
    this.status = options.status;
    this.fields = options.fields ?? {};
  }
}

/** A stream's record log that cannot be used as it is (another format version, a damaged header); says what to do. */
export class FirehoseLogError extends LocalAwsError {
  override name = 'FirehoseLogError';
}
