// Errors of the live tree. Messages name the unit (or level file), the field and the fix.
/** What every error here carries besides its message (the house's one error shape). */
export interface UnitsErrorOptions {
  cause?: unknown;
  /** The offending value. */
  value?: unknown;
}

export class UnitsError extends Error {
  override name: string = 'UnitsError';
  readonly value: unknown;
  constructor(message: string, options: UnitsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.value = options.value;
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
    super(`unit ${where}: ${field} ${problem}. Fix: ${fix}`, { value });
  }
}
