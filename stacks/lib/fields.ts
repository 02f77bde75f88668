// Typed readers over a unit's raw inputs. Each failure names the unit, the dotted field and the fix.
import { UnitConfigError } from './errors';

type Raw = Readonly<Record<string, unknown>>;

/** Retention periods (days, up to a year) CloudWatch Logs accepts for a log group. */
const LOG_RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365];

export class FieldReader {
  constructor(
    private readonly unit: string,
    private readonly raw: Raw,
    private readonly at = 'inputs',
  ) {}

  private where(key: string): string {
    return `${this.at}.${key}`;
  }

  child(key: string): FieldReader {
    const value = this.raw[key];
    if (value === undefined) return new FieldReader(this.unit, {}, this.where(key));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new UnitConfigError(
        this.unit,
        this.where(key),
        'must be an object',
        'give an object literal',
        value,
      );
    }
    return new FieldReader(this.unit, value as Raw, this.where(key));
  }

  string(key: string, fallback: string, pattern?: { re: RegExp; fix: string }): string {
    const value = this.raw[key] ?? fallback;
    if (typeof value !== 'string' || value.length === 0) {
      throw new UnitConfigError(
        this.unit,
        this.where(key),
        'must be a non-empty string',
        `set it to e.g. "${fallback}"`,
        value,
      );
    }
    if (pattern && !pattern.re.test(value)) {
      throw new UnitConfigError(
        this.unit,
        this.where(key),
        `is "${value}", which is not valid`,
        pattern.fix,
        value,
      );
    }
    return value;
  }

  int(key: string, fallback: number, range: { min: number; max?: number; why?: string }): number {
    const value = this.raw[key] ?? fallback;
    const max = range.max ?? Number.MAX_SAFE_INTEGER;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < range.min || value > max) {
      const bounds =
        range.max === undefined ? `at least ${range.min}` : `between ${range.min} and ${range.max}`;
      throw new UnitConfigError(
        this.unit,
        this.where(key),
        `is ${JSON.stringify(value)}, but must be an integer ${bounds}${range.why ? ` (${range.why})` : ''}`,
        `set it to an integer ${bounds}, e.g. ${fallback}`,
        value,
      );
    }
    return value;
  }

  bool(key: string, fallback: boolean): boolean {
    const value = this.raw[key] ?? fallback;
    if (typeof value !== 'boolean') {
      throw new UnitConfigError(
        this.unit,
        this.where(key),
        'must be true or false',
        `set it to ${fallback}`,
        value,
      );
    }
    return value;
  }

  strings(key: string, fallback: readonly string[], pattern?: { re: RegExp; fix: string }): string[] {
    const value = this.raw[key] ?? fallback;
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
      throw new UnitConfigError(
        this.unit,
        this.where(key),
        'must be a list of strings',
        'give e.g. ["a", "b"]',
        value,
      );
    }
    for (const item of value as string[]) {
      if (pattern && !pattern.re.test(item)) {
        throw new UnitConfigError(
          this.unit,
          this.where(key),
          `contains "${item}", which is not valid`,
          pattern.fix,
          item,
        );
      }
    }
    return [...(value as string[])];
  }

  /** Days a CloudWatch Logs group keeps events: only the values CloudWatch Logs accepts. */
  logRetentionDays(key: string, fallback: number): number {
    const days = this.int(key, fallback, { min: 1, max: 365 });
    if (!LOG_RETENTION_DAYS.includes(days)) {
      this.fail(
        key,
        `is ${days}, which CloudWatch Logs does not accept`,
        `use one of ${LOG_RETENTION_DAYS.join(', ')}`,
        days,
      );
    }
    return days;
  }

  raw_(key: string): unknown {
    return this.raw[key];
  }

  fail(key: string, problem: string, fix: string, value?: unknown): never {
    throw new UnitConfigError(this.unit, this.where(key), problem, fix, value);
  }
}

export const IDENT_RE = /^[a-z][a-z0-9_]*$/;

/** A list of S3 Tables namespaces: lower-case identifiers, at least one, each once. */
export function readNamespaces(r: FieldReader, fallback: readonly string[], example: string): string[] {
  const namespaces = r.strings('namespaces', fallback, {
    re: IDENT_RE,
    fix: 'namespaces are lower-case identifiers (a-z, 0-9, _)',
  });
  if (namespaces.length === 0)
    r.fail('namespaces', 'is empty', `list at least one namespace, e.g. ${example}`);
  if (new Set(namespaces).size !== namespaces.length)
    r.fail('namespaces', 'has duplicates', 'list each namespace once', namespaces);
  return namespaces;
}
export const IAM_ARN_RE = /^arn:aws[a-z-]*:iam::\d{12}:(role|user)\/.+$/;
