// Errors of the live tree. Messages name the unit (or level file), the field and the fix.
import { LoglakeError } from '@loglake/errors';

/** The root of this package's errors: the house's one shape, `new XError(message, { cause, value })`. */
export class UnitsError extends LoglakeError {
  override name: string = 'UnitsError';
}

export class UnitTreeError extends UnitsError {
  override name = 'UnitTreeError';
  constructor(
    readonly where: string,
    readonly field: string,
    problem: string,
    readonly fix: string,
    value?: unknown,
  ) {
    super(`unit ${where}: ${field} ${problem}. Fix: ${fix}`, { value });
  }
}
