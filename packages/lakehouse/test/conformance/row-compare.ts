// Rows from two readers (icebird and the engine's own scan) normalised to one comparable form per Iceberg type,
// then compared as multisets. icebird truncates timestamps to milliseconds, so timestamps compare at ms.
import type { Schema } from '../../src/contract';

export type NormalisedRow = Record<string, string | number | boolean | null>;

/**
 * icebird (hyparquet) decodes un-annotated BYTE_ARRAY columns as UTF-8 text, replacing invalid bytes with
 * U+FFFD; bytes from the engine go through the same lossy decoding so the two compare equal when the stored
 * bytes are equal (invalid sequences are the only thing the comparison cannot tell apart).
 */
function toBytesHex(value: unknown): string {
  if (value instanceof Uint8Array)
    return Buffer.from(new TextDecoder().decode(value), 'utf8').toString('hex');
  if (typeof value === 'string') return Buffer.from(value, 'utf8').toString('hex');
  return String(value);
}

function epochMs(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'bigint') return Number(value / 1000n); // micros
  if (typeof value === 'number') return value;
  if (typeof value === 'string')
    return Date.parse(/[zZ]|[+-]\d\d(:?\d\d)?$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
  if (value && typeof value === 'object' && 'micros' in value)
    return Number((value as { micros: bigint }).micros / 1000n);
  return NaN;
}

function isoDay(value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'number') return new Date(value * 86_400_000).toISOString().slice(0, 10);
  if (value && typeof value === 'object' && 'days' in value)
    return new Date((value as { days: number }).days * 86_400_000).toISOString().slice(0, 10);
  return String(value).slice(0, 10);
}

export function normaliseValue(type: string, value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  // icebird returns decimals as JS numbers (12.120000000000001): compare at the type's scale.
  if (type.startsWith('decimal')) return Number(value).toFixed(Number(/,\s*(\d+)\)/.exec(type)?.[1] ?? 0));
  switch (type) {
    case 'boolean':
      return Boolean(value);
    case 'int':
    case 'float':
    case 'double':
      return typeof value === 'bigint' ? Number(value) : Number(value);
    case 'long':
      return BigInt(value as number | bigint).toString();
    case 'timestamp':
    case 'timestamptz':
      return epochMs(value);
    case 'date':
      return isoDay(value);
    case 'binary':
      return toBytesHex(value);
    case 'uuid':
      return value instanceof Uint8Array
        ? Buffer.from(value).toString('hex')
        : String(value).replace(/-/g, '').toLowerCase();
    default:
      return value instanceof Uint8Array ? new TextDecoder().decode(value) : String(value);
  }
}

/**
 * Rows keyed by field id over `target`'s fields, reading each value under the name it has in `readSchema`
 * (the schema the reader used: a snapshot's own schema for the engine, the current one for icebird).
 * Fields the read schema lacks (added later) read as null, as Iceberg prescribes.
 */
export function normaliseRows(
  target: Schema,
  rows: Record<string, unknown>[],
  readSchema: Schema = target,
): NormalisedRow[] {
  const nameById = new Map(readSchema.fields.map((f) => [f.id, f.name]));
  return rows.map((row) => {
    const out: NormalisedRow = {};
    for (const field of target.fields) {
      const name = nameById.get(field.id);
      out[`${field.id}:${field.name}`] = name === undefined ? null : normaliseValue(field.type, row[name]);
    }
    return out;
  });
}

function key(row: NormalisedRow): string {
  return JSON.stringify(row);
}

export interface RowDiff {
  equal: boolean;
  leftCount: number;
  rightCount: number;
  /** Up to 5 rows only on the left / only on the right. */
  onlyLeft: NormalisedRow[];
  onlyRight: NormalisedRow[];
}

/** Multiset comparison (duplicates count). */
export function compareRows(left: NormalisedRow[], right: NormalisedRow[]): RowDiff {
  const counts = new Map<string, number>();
  for (const row of left) counts.set(key(row), (counts.get(key(row)) ?? 0) + 1);
  const onlyRight: NormalisedRow[] = [];
  for (const row of right) {
    const k = key(row);
    const c = counts.get(k) ?? 0;
    if (c > 0) counts.set(k, c - 1);
    else if (onlyRight.length < 5) onlyRight.push(row);
    else onlyRight.length = 5;
  }
  const onlyLeft: NormalisedRow[] = [];
  for (const [k, c] of counts)
    for (let i = 0; i < c && onlyLeft.length < 5; i++) onlyLeft.push(JSON.parse(k) as NormalisedRow);
  const leftover = [...counts.values()].reduce((a, b) => a + b, 0);
  return {
    equal: leftover === 0 && left.length === right.length,
    leftCount: left.length,
    rightCount: right.length,
    onlyLeft,
    onlyRight,
  };
}
