// flowgen's errors: each names the offending value and says what to pass instead.

export class FlowgenError extends Error {
  override readonly name: string = 'FlowgenError';
  constructor(
    message: string,
    /** The offending value. */
    readonly value: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A generator option out of range: a non-integer seed, an empty time window, an empty host list. */
export class InvalidFlowOptionError extends FlowgenError {
  override readonly name = 'InvalidFlowOptionError';
}
