// Errors of the stacks catalog. A unit-config error names the unit, the field and the fix, so a bad unit file
// fails synth with one readable line instead of a Terraform error much later.
/** What every error here carries besides its message (the house's one error shape). */
export interface StacksErrorOptions {
  cause?: unknown;
  /** The offending value. */
  value?: unknown;
}

export class StacksError extends Error {
  override name: string = 'StacksError';
  readonly value: unknown;
  constructor(message: string, options: StacksErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.value = options.value;
  }
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
