// The lab package's errors: every one names the offending value and says what to do next.
import { LoglakeError } from '@loglake/errors';

/** The root of this package's errors: the house's one shape, `new XError(message, { cause, value })`. */
export class LabError extends LoglakeError {
  override readonly name: string = 'LabError';
}

export class InvalidOptionError extends LabError {
  override readonly name = 'InvalidOptionError';
}

export class UnknownNameError extends LabError {
  override readonly name = 'UnknownNameError';
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
