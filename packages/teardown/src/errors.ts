// Errors of the teardown verifier. Messages say what to do next.
import { LoglakeError } from '@loglake/errors';

/** The root of this package's errors: the house's one shape, `new XError(message, { cause, value })`. */
export class TeardownError extends LoglakeError {
  override name: string = 'TeardownError';
}

export class TeardownInputError extends TeardownError {
  override name = 'TeardownInputError';
}
