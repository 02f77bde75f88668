// Reading request members with AWS-style validation: each service passes the exception it answers bad input with.
import type { AwsServiceError } from './errors';

export type BadInput = (message: string) => AwsServiceError;

export class InputReader {
  constructor(
    private readonly input: Record<string, unknown>,
    private readonly bad: BadInput,
  ) {}

  requiredString(key: string): string {
    const value = this.input[key];
    if (typeof value !== 'string' || value.length === 0) {
      throw this.bad(
        `1 validation error detected: Value at '${lowerFirst(key)}' failed to satisfy constraint: Member must not be null`,
      );
    }
    return value;
  }

  optionalString(key: string): string | undefined {
    const value = this.input[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw this.bad(`${key} must be a string, got ${JSON.stringify(value)}.`);
    return value;
  }

  optionalInteger(key: string, min: number, max: number): number | undefined {
    const value = this.input[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw this.bad(
        `1 validation error detected: Value '${String(value)}' at '${lowerFirst(key)}' failed to satisfy constraint: ` +
          `Member must have value between ${min} and ${max}`,
      );
    }
    return value;
  }

  optionalBoolean(key: string): boolean | undefined {
    const value = this.input[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean')
      throw this.bad(`${key} must be true or false, got ${JSON.stringify(value)}.`);
    return value;
  }

  optionalObject(key: string): Record<string, unknown> | undefined {
    const value = this.input[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) throw this.bad(`${key} must be an object.`);
    return value as Record<string, unknown>;
  }

  optionalArray(key: string): unknown[] | undefined {
    const value = this.input[key];
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) throw this.bad(`${key} must be a list.`);
    return value;
  }

  child(key: string): InputReader | undefined {
    const value = this.optionalObject(key);
    return value ? new InputReader(value, this.bad) : undefined;
  }
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
