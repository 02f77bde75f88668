// Errors of the stacks catalog. A unit-config error names the unit, the field and the fix, so a bad unit file
// fails synth with one readable line instead of a Terraform error much later.
import { LoglakeError } from '@loglake/errors';

/** The root of this package's errors: the house's one shape, `new XError(message, { cause, value })`. */
export class StacksError extends LoglakeError {
  override name: string = 'StacksError';
}

export class UnitConfigError extends StacksError {
  override name = 'UnitConfigError';
  constructor(
    readonly unit: string,
    readonly field: string,
    problem: string,
    readonly fix: string,
    value?: unknown,
  ) {
    super(`unit ${unit}: ${field} ${problem}. Fix: ${fix}`, { value });
  }
}

export class MockOutputsRefusedError extends StacksError {
  override name = 'MockOutputsRefusedError';
}
