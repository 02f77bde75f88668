// Errors of the teardown verifier. Messages say what to do next.
export class TeardownError extends Error {
  override name = 'TeardownError';
  constructor(
    message: string,
    readonly value?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export class TeardownInputError extends TeardownError {
  override name = 'TeardownInputError';
}
