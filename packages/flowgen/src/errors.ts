// flowgen's errors: each names the offending value and says what to pass instead.
import { LoglakeError } from '@loglake/errors';

/** The root of this package's errors: the house's one shape, `new XError(message, { cause, value })`. */
export class FlowgenError extends LoglakeError {
  override readonly name: string = 'FlowgenError';
}

/** A generator option out of range: a non-integer seed, an empty time window, an empty host list. */
export class InvalidFlowOptionError extends FlowgenError {
  override readonly name = 'InvalidFlowOptionError';
}
