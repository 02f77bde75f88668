// One error family for the snapshot pipeline. Every error carries the offending value (`context`) and the
// underlying `cause`, and its `name` is what Step Functions sees as the Lambda's errorType: the state machine's
// Retry and Catch match on these names, so renaming one is a breaking change for the ASL. The Athena query errors
// (AthenaQueryFailedError, AthenaTransientError, AthenaQueryTimeoutError) are the runner's, from @loglake/athena-sql.
export { AthenaQueryFailedError, AthenaQueryTimeoutError, AthenaTransientError } from '@loglake/athena-sql';

export interface SnapshotErrorOptions {
  cause?: unknown;
  /** The value(s) that made the operation fail, for logs and for the failure alert. */
  context?: Record<string, unknown>;
}

export class SnapshotError extends Error {
  readonly context: Record<string, unknown>;

  constructor(message: string, options: SnapshotErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SnapshotError';
    this.context = options.context ?? {};
  }
}

/** Configuration (Lambda environment, unit file, snapshot definitions) is missing or malformed. Not retryable. */
export class SnapshotConfigError extends SnapshotError {
  constructor(message: string, options: SnapshotErrorOptions = {}) {
    super(message, options);
    this.name = 'SnapshotConfigError';
  }
}

/** A parameter headed for SQL does not match its pattern; refused before any query is sent. Not retryable. */
export class InvalidParameterError extends SnapshotError {
  constructor(message: string, options: SnapshotErrorOptions = {}) {
    super(message, options);
    this.name = 'InvalidParameterError';
  }
}

/** No complete day newer than the published watermark: upstream is not ready. The alert carries the evidence. */
export class NoCompleteDayError extends SnapshotError {
  constructor(message: string, options: SnapshotErrorOptions = {}) {
    super(message, options);
    this.name = 'NoCompleteDayError';
  }
}

/** The CTAS produced no rows: publishing it would replace a good snapshot with an empty one. */
export class EmptySnapshotError extends SnapshotError {
  constructor(message: string, options: SnapshotErrorOptions = {}) {
    super(message, options);
    this.name = 'EmptySnapshotError';
  }
}

/** The Glue table the snapshot is published to does not exist or changed under us during the publish. */
export class PublishError extends SnapshotError {
  constructor(message: string, options: SnapshotErrorOptions = {}) {
    super(message, options);
    this.name = 'PublishError';
  }
}

/** The Amazon States Language definition failed validation. */
export class StateMachineDefinitionError extends SnapshotError {
  constructor(message: string, options: SnapshotErrorOptions = {}) {
    super(message, options);
    this.name = 'StateMachineDefinitionError';
  }
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
