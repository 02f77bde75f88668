// Shared CLI plumbing: user mistakes and AWS failures print a message and a hint, never a stack trace.
import { InvalidOptionError, LabError } from './errors';

// Set LOGLAKE_DEBUG=1 to see stack traces of unexpected errors.

export async function runCli(main: () => Promise<number>): Promise<never> {
  let code: number;
  try {
    code = await main();
  } catch (error) {
    code = 1;
    if (error instanceof LabError) {
      console.error(`${error.name}: ${error.message}`);
    } else if (error instanceof Error) {
      // AWS service errors and other packages' errors carry their reason in the message; the stack only helps us.
      console.error(`${error.name}: ${error.message}`);
      if (process.env.LOGLAKE_DEBUG) console.error(error.stack);
    } else {
      console.error(String(error));
    }
  }
  process.exit(code);
}

/** A flag's text as an integer ≥ min (commander hands option values over as strings). */
export function integerAtLeast(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new InvalidOptionError(`${flag} ${value} is not an integer ≥ ${min}.`, value);
  return n;
}

/** A flag's text as a whole number from `min` to `max`. */
export function integerBetween(flag: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidOptionError(`${flag} ${raw} is not a whole number between ${min} and ${max}.`, raw);
  }
  return value;
}

/** A flag's text as a share between 0 and 1. */
export function shareOf(flag: string, raw: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new InvalidOptionError(`${flag} ${raw} is not a share between 0 and 1 (e.g. 0.1 for 10%).`, raw);
  }
  return value;
}
