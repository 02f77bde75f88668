// One error family for the snapshot pipeline. Every error carries the offending value(s) (`value`) and the
// underlying `cause`, and its `name` is what Step Functions sees as the Lambda's errorType: the state machine's
// Retry and Catch match on these names, so renaming one is a breaking change for the ASL. The Athena query errors
// (AthenaQueryFailedError, AthenaTransientError, AthenaQueryTimeoutError) are the runner's, from @loglake/athena-sql's
// ./light subpath: its main face loads the Athena client and nunjucks, which a synth of the stacks need not pay for.
export {
  AthenaQueryFailedError,
  AthenaQueryTimeoutError,
  AthenaTransientError,
} from '@loglake/athena-sql/light';
import { LoglakeError, type LoglakeErrorOptions } from '@loglake/errors';

export interface SnapshotErrorOptions extends LoglakeErrorOptions {
  /** The value(s) that made the operation fail, for logs and for the failure alert. */
  value?: Record<string, unknown>;
}

/** The root of the pipeline's errors: the house's one shape, `(message, { cause, value })`. */
export class SnapshotError extends LoglakeError {
  override name: string = 'SnapshotError';
  declare readonly value: Record<string, unknown>;

  constructor(message: string, options: SnapshotErrorOptions = {}) {
    super(message, { ...options, value: options.value ?? {} });
  }
}

/** Configuration (Lambda environment, unit file, snapshot definitions) is missing or malformed. Not retryable. */
export class SnapshotConfigError extends SnapshotError {
  override name = 'SnapshotConfigError';
}

/** A parameter headed for SQL does not match its pattern; refused before any query is sent. Not retryable. */
export class InvalidParameterError extends SnapshotError {
  override name = 'InvalidParameterError';
}

/** No complete day newer than the published watermark: upstream is not ready. The alert carries the evidence. */
export class NoCompleteDayError extends SnapshotError {
  override name = 'NoCompleteDayError';
}

/** The CTAS produced no rows: publishing it would replace a good snapshot with an empty one. */
export class EmptySnapshotError extends SnapshotError {
  override name = 'EmptySnapshotError';
}

/** The Glue table the snapshot is published to does not exist or changed under us during the publish. */
export class PublishError extends SnapshotError {
  override name = 'PublishError';
}

/** The Amazon States Language definition failed validation. */
export class StateMachineDefinitionError extends SnapshotError {
  override name = 'StateMachineDefinitionError';
}

/** Names the state machine retries (transient by nature); everything else goes straight to the failure path. */
export const RETRYABLE_ERROR_NAMES = [
  'AthenaTransientError',
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
  'ThrottlingException',
  'TooManyRequestsException',
] as const;
