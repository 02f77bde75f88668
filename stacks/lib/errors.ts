// Errors of the stacks catalog. A unit-config error names the unit, the field and the fix, so a bad unit file
// fails synth with one readable line instead of a Terraform error much later.
export class StacksError extends Error {
  override name = 'StacksError';
  constructor(
    message: string,
    readonly value?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
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
    super(`unit ${unit}: ${field} ${problem}. Fix: ${fix}`, value);
  }
}

export class MockOutputsRefusedError extends StacksError {
  override name = 'MockOutputsRefusedError';
}
