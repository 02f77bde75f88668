// flowgen's errors: each names the offending value and says what to pass instead.

/** What every error here carries besides its message (the house's one error shape). */
export interface FlowgenErrorOptions {
  cause?: unknown;
  /** The offending value. */
  value?: unknown;
}

export class FlowgenError extends Error {
  override readonly name: string = 'FlowgenError';
  readonly value: unknown;
  constructor(message: string, options: FlowgenErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.value = options.value;
  }
}

/** A generator option out of range: a non-integer seed, an empty time window, an empty host list. */
export class InvalidFlowOptionError extends FlowgenError {
  override readonly name = 'InvalidFlowOptionError';
}
