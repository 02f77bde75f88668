// Validation of every value that ends up inside SQL text or an S3 key. Values are checked against a pattern
// (allow-list), never escaped: a value that does not match is refused with InvalidParameterError before any
// query is sent. This is what makes `x; DROP TABLE …`, quotes and comments impossible to smuggle in.
import { sqlString } from '@loglake/athena-sql/light';
import { InvalidParameterError } from './errors';

/** Athena/Glue identifiers: lowercase letters, digits, underscores; Glue lowercases names anyway. */
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,127}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** S3 general purpose and table bucket names (no dots: they would break virtual-hosted TLS). */
const BUCKET = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;
const RUN_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** String literals in filters: letters, digits, space and a few separators. No quote, semicolon or dash pair. */
const SAFE_LITERAL = /^[A-Za-z0-9 _.:/@+-]{0,256}$/;

function refuse(kind: string, value: unknown, rule: string): never {
  throw new InvalidParameterError(`Refused ${kind} ${JSON.stringify(value)}: ${rule}`, {
    value: { kind, value },
  });
}

export function identifier(value: unknown, kind = 'identifier'): string {
  if (typeof value !== 'string' || !IDENTIFIER.test(value)) {
    refuse(
      kind,
      value,
      'use 1-128 lowercase letters, digits or underscores, starting with a letter or underscore',
    );
  }
  return value;
}

export function isoDate(value: unknown, kind = 'date'): string {
  if (typeof value !== 'string' || !ISO_DATE.test(value)) refuse(kind, value, 'use the form YYYY-MM-DD');
  const parsed = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== value) {
    refuse(kind, value, 'not a real calendar date');
  }
  return value;
}

export function bucketName(value: unknown, kind = 'bucket name'): string {
  if (typeof value !== 'string' || !BUCKET.test(value) || value.includes('--')) {
    refuse(kind, value, 'use 3-63 lowercase letters, digits and single hyphens');
  }
  return value;
}

export function runId(value: unknown): string {
  if (typeof value !== 'string' || !RUN_ID.test(value)) {
    refuse('run id', value, 'use 1-64 lowercase letters, digits and hyphens');
  }
  return value;
}

export function positiveInteger(
  value: unknown,
  kind: string,
  min = 1,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    refuse(kind, value, `use an integer from ${min} to ${max}`);
  }
  return value;
}

/** A filter value rendered as a SQL literal: finite numbers as they are, strings single-quoted after the check. */
export function sqlLiteral(value: unknown, kind = 'filter value'): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) refuse(kind, value, 'numbers must be finite');
    return String(value);
  }
  if (typeof value === 'string') {
    if (!SAFE_LITERAL.test(value) || value.includes('--')) {
      refuse(
        kind,
        value,
        'strings may hold letters, digits, spaces and . : / @ + _ - only (no quotes, ; or --)',
      );
    }
    return sqlString(value);
  }
  return refuse(kind, value, 'use a string or a number');
}

/** `s3tablescatalog/<table bucket>` as Athena names the federated catalog of one table bucket. */
export function s3TablesCatalog(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('s3tablescatalog/')) {
    refuse('catalog', value, 'use s3tablescatalog/<table bucket name>');
  }
  bucketName(value.slice('s3tablescatalog/'.length), 'table bucket in catalog');
  return value;
}
