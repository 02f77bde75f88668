// Errors of the teardown verifier. Messages say what to do next.
/** What every error here carries besides its message (the house's one error shape). */
export interface TeardownErrorOptions {
  cause?: unknown;
  /** The offending value. */
  value?: unknown;
}

export class TeardownError extends Error {
  override name: string = 'TeardownError';
  readonly value: unknown;
  constructor(message: string, options: TeardownErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.value = options.value;
  }
}

export class TeardownInputError extends TeardownError {
  override name = 'TeardownInputError';
}
