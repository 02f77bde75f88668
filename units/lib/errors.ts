// Errors of the live tree. Messages name the unit (or level file), the field and the fix.
export class UnitsError extends Error {
  override name = 'UnitsError';
  constructor(
    message: string,
    readonly value?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
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
    super(`unit ${where}: ${field} ${problem}. Fix: ${fix}`, value);
  }
}
