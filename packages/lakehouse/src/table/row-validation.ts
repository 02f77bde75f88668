// Strict per-row validation of JS rows against a table schema. The local Firehose routes rejected rows to
// its error output, so every rejection carries the row and a reason naming the column, value and fix.
//
// What is accepted (and coerced) — the Firehose-to-Iceberg rules this engine implements:
// - boolean: true/false, or the strings "true"/"false" (any case).
// - int / long: integral numbers (safe integers), bigints, or strings of digits ("42"); out of range rejected.
// - float / double: numbers, bigints, numeric strings ("1.5", "NaN").
// - decimal(p,s): numbers or numeric strings with at most s decimal places and p digits.
// - date: "YYYY-MM-DD" or a Date.
// - timestamp / timestamptz: ISO-8601 ("2024-05-01T10:00:00Z", offsets converted to UTC), "YYYY-MM-DD HH:MM:SS[.f]",
//   "YYYY-MM-DD", or a Date. Epoch numbers are rejected (seconds or milliseconds would be a guess).
// - string: strings; numbers and booleans are stored as their text.
// - unknown columns are rejected unless `ignoreUnknownColumns` is set; missing required columns are rejected.
import type { Schema, SchemaField } from '../contract';
import { parseType } from '../metadata/types';
import { CoercionError, coerceValue, literalToText, type Literal } from '../metadata/values';

export interface RejectedRow {
  /** Index of the row in the input. */
  index: number;
  row: unknown;
  reason: string;
}

/** A validated row keyed by field id. */
export type ValidatedRow = Map<number, Literal | null>;

export interface RowValidation {
  /** Accepted rows keyed by column name, values coerced to a canonical form that `append({ rows })` accepts
   * unchanged (long → bigint, timestamp → 'YYYY-MM-DD HH:MM:SS.ffffff', date → 'YYYY-MM-DD', decimal → text). */
  accepted: Record<string, unknown>[];
  /** The same rows keyed by field id with the engine's literals (what staging writes). */
  values: ValidatedRow[];
  /** Input index of each accepted row (same order as `accepted`). */
  acceptedIndexes: number[];
  rejected: RejectedRow[];
}

export interface ValidateOptions {
  ignoreUnknownColumns?: boolean;
}

function fieldIndex(schema: Schema): (name: string) => SchemaField | undefined {
  const exact = new Map(schema.fields.map((f) => [f.name, f]));
  const folded = new Map(schema.fields.map((f) => [f.name.toLowerCase(), f]));
  return (name) => exact.get(name) ?? folded.get(name.toLowerCase());
}

export function validateRows(
  schema: Schema,
  rows: readonly unknown[],
  options: ValidateOptions = {},
): RowValidation {
  const lookup = fieldIndex(schema);
  const result: RowValidation = { accepted: [], values: [], acceptedIndexes: [], rejected: [] };
  rows.forEach((row, index) => {
    const reason = validateOne(schema, lookup, row, options);
    if (typeof reason === 'string') result.rejected.push({ index, row, reason });
    else {
      result.values.push(reason);
      result.accepted.push(canonicalRow(schema, reason));
      result.acceptedIndexes.push(index);
    }
  });
  return result;
}

function canonicalRow(schema: Schema, values: ValidatedRow): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const field of schema.fields) {
    const value = values.get(field.id) ?? null;
    const kind = parseType(field.type).kind;
    const asText = ['date', 'time', 'timestamp', 'timestamptz', 'decimal'].includes(kind);
    row[field.name] = value === null || !asText ? value : literalToText(field.type, value);
  }
  return row;
}

function validateOne(
  schema: Schema,
  lookup: (name: string) => SchemaField | undefined,
  row: unknown,
  options: ValidateOptions,
): ValidatedRow | string {
  if (row === null || typeof row !== 'object' || Array.isArray(row) || row instanceof Date) {
    return `record is not a JSON object (got ${Array.isArray(row) ? 'an array' : typeof row}); send one object per record`;
  }
  const values: ValidatedRow = new Map();
  for (const [key, value] of Object.entries(row as Record<string, unknown>)) {
    const field = lookup(key);
    if (!field) {
      if (options.ignoreUnknownColumns) continue;
      return `column '${key}' is not in the table (columns: ${schema.fields.map((f) => f.name).join(', ')}); remove it or add the column`;
    }
    if (values.has(field.id)) return `column '${field.name}' appears twice (names are case-insensitive)`;
    try {
      values.set(field.id, coerceValue(field.type, value));
    } catch (error) {
      const detail = error instanceof CoercionError ? error.message : String(error);
      return `column '${field.name}' (${field.type}): ${detail}`;
    }
  }
  for (const field of schema.fields) {
    if (!values.has(field.id)) values.set(field.id, null);
    if (field.required && values.get(field.id) === null) {
      return `required column '${field.name}' (${field.type}) is missing or null`;
    }
  }
  return values;
}
