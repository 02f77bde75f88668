// The lab package's errors: every one names the offending value and says what to do next.
/** What every error here carries besides its message (the house's one error shape). */
export interface LabErrorOptions {
  cause?: unknown;
  /** The offending value. */
  value?: unknown;
}

export class LabError extends Error {
  override readonly name: string = 'LabError';
  readonly value: unknown;
  constructor(message: string, options: LabErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.value = options.value;
  }
}

export class InvalidOptionError extends LabError {
  override readonly name = 'InvalidOptionError';
}

export class QueryFailedError extends LabError {
  override readonly name = 'QueryFailedError';
  constructor(
    message: string,
    readonly queryExecutionId: string | undefined,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(message, { value: reason, ...options });
  }
}

export class UnknownNameError extends LabError {
  override readonly name = 'UnknownNameError';
}

export class TemplateParameterError extends LabError {
  override readonly name = 'TemplateParameterError';
}

export class TargetNotReadyError extends LabError {
  override readonly name = 'TargetNotReadyError';
}

export class LoadFailedError extends LabError {
  override readonly name = 'LoadFailedError';
}

export class ExperimentFailedError extends LabError {
  override readonly name = 'ExperimentFailedError';
}

/** The local Firehose could not deliver with the stream's role: the endpoint's denial says which permission. */
export class DeliveryDeniedError extends LabError {
  override readonly name = 'DeliveryDeniedError';
}
