// @loglake/errors: the house's one error shape. Every package's root error extends LoglakeError, so every error is
// `new XError(message, { cause, value })`: the ES2022 `cause`, and the offending value the message names. Errors
// are recognised by class (instanceof), never by their message; `name` is each class's own, set as a field.

/** What every error carries besides its message. */
export interface LoglakeErrorOptions {
  /** The error this one wraps (ES2022 `Error.cause`). */
  cause?: unknown;
  /** The offending value: a name, an option, a row... */
  value?: unknown;
}

export class LoglakeError extends Error {
  override name: string = 'LoglakeError';
  readonly value: unknown;
  constructor(message: string, options: LoglakeErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.value = options.value;
  }
}
