// Canonical in-memory values ("literals") for each Iceberg type, and their conversions: from caller values,
// to DuckDB SQL literals, to staging text, and to/from the single-value binary form used for column bounds.
//   boolean → boolean · int, date (days), float, double → number · long, time, timestamp(tz) (micros),
//   decimal (unscaled) → bigint · string, uuid → string · binary → Uint8Array
import { sqlString as quoted } from '../duckdb/sql-text';
import { LakehouseError } from '../errors';
import { parseType, type ParsedType } from './types';

export type Literal = boolean | number | bigint | string | Uint8Array;

/** Why a value does not fit a type (caught by row validation and expression binding). */
export class CoercionError extends LakehouseError {
  override readonly name = 'CoercionError';
}

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
const INTEGER_TEXT = /^[+-]?\d+$/;
const DATE_TEXT = /^(-?\d{4,})-(\d{2})-(\d{2})$/;
const TIME_TEXT = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;
const TIMESTAMP_TEXT =
  /^(-?\d{4,})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|z|UTC|[+-]\d{2}(?::?\d{2})?)?$/;
const UUID_TEXT = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const DECIMAL_TEXT = /^([+-])?(\d*)(?:\.(\d*))?$/;
const MICROS_PER_DAY = 86_400_000_000n;

/** Converts a caller's value to the canonical literal of `type`; null/undefined → null. Throws CoercionError. */
export function coerceValue(type: string, value: unknown): Literal | null {
  if (value === null || value === undefined) return null;
  const parsed = parseType(type);
  switch (parsed.kind) {
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string' && /^(true|false)$/i.test(value.trim()))
        return value.trim().toLowerCase() === 'true';
      throw new CoercionError(`expected a boolean, got ${show(value)}`);
    case 'int': {
      if (typeof value === 'number' && Number.isInteger(value) && value >= INT_MIN && value <= INT_MAX)
        return value;
      const n = toBigInt(value);
      if (n < BigInt(INT_MIN) || n > BigInt(INT_MAX))
        throw new CoercionError(`${show(value)} is out of range for int`);
      return Number(n);
    }
    case 'long': {
      if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
      const n = toBigInt(value);
      if (n < LONG_MIN || n > LONG_MAX) throw new CoercionError(`${show(value)} is out of range for long`);
      return n;
    }
    case 'float':
    case 'double':
      return toFloat(value);
    case 'decimal':
      return toUnscaled(value, parsed);
    case 'date':
      return toDays(value);
    case 'time':
      return toTimeMicros(value);
    case 'timestamp':
    case 'timestamptz':
      return toTimestampMicros(value);
    case 'string':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
        return String(value);
      throw new CoercionError(`expected a string, got ${show(value)}`);
    case 'uuid':
      if (typeof value === 'string' && UUID_TEXT.test(value)) return value.toLowerCase();
      throw new CoercionError(
        `expected a UUID like 123e4567-e89b-12d3-a456-426614174000, got ${show(value)}`,
      );
    case 'binary':
      if (value instanceof Uint8Array) return value;
      if (typeof value === 'string') return new Uint8Array(Buffer.from(value, 'base64'));
      throw new CoercionError(`expected bytes or a base64 string, got ${show(value)}`);
  }
}

function toBigInt(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new CoercionError(`${value} is not an integer`);
    if (!Number.isSafeInteger(value))
      throw new CoercionError(`${value} is beyond 2^53; send it as a string or bigint`);
    return BigInt(value);
  }
  if (typeof value === 'string' && INTEGER_TEXT.test(value.trim())) return BigInt(value.trim());
  throw new CoercionError(`expected an integer, got ${show(value)}`);
}

function toFloat(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.trim());
    if (!Number.isNaN(n) || value.trim() === 'NaN') return n;
  }
  throw new CoercionError(`expected a number, got ${show(value)}`);
}

function toUnscaled(value: unknown, type: ParsedType): bigint {
  const text = typeof value === 'number' || typeof value === 'bigint' ? String(value) : value;
  const match = typeof text === 'string' ? DECIMAL_TEXT.exec(text.trim()) : null;
  if (!match || (match[2] === '' && (match[3] ?? '') === '') || /e/i.test(String(text))) {
    throw new CoercionError(`expected a decimal number, got ${show(value)}`);
  }
  const whole = match[2] || '0';
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  if (fraction.length > type.scale) {
    throw new CoercionError(
      `${show(value)} has more than ${type.scale} decimal places for decimal(${type.precision},${type.scale})`,
    );
  }
  const unscaled = BigInt(whole + fraction.padEnd(type.scale, '0')) * (match[1] === '-' ? -1n : 1n);
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString().length;
  if (digits > type.precision) {
    throw new CoercionError(`${show(value)} does not fit decimal(${type.precision},${type.scale})`);
  }
  return unscaled;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil; no Date objects). */
function daysFromCivil(year: number, month: number, day: number): number {
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new CoercionError(`invalid date ${year}-${month}-${day}`);
  }
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Inverse of daysFromCivil. */
function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function toDays(value: unknown): number {
  if (value instanceof Date) return Math.floor(value.getTime() / 86_400_000);
  if (typeof value === 'string') {
    const m = DATE_TEXT.exec(value.trim());
    if (m) return daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3]));
  }
  throw new CoercionError(`expected a date 'YYYY-MM-DD', got ${show(value)}`);
}

function fractionMicros(fraction: string | undefined): bigint {
  return fraction ? BigInt(fraction.padEnd(6, '0').slice(0, 6)) : 0n;
}

function toTimeMicros(value: unknown): bigint {
  const m = typeof value === 'string' ? TIME_TEXT.exec(value.trim()) : null;
  if (!m) throw new CoercionError(`expected a time 'HH:MM:SS[.ffffff]', got ${show(value)}`);
  const [h, min, s] = [Number(m[1]), Number(m[2]), Number(m[3] ?? '0')];
  if (h > 23 || min > 59 || s > 59) throw new CoercionError(`invalid time ${show(value)}`);
  return BigInt((h * 60 + min) * 60 + s) * 1_000_000n + fractionMicros(m[4]);
}

function toTimestampMicros(value: unknown): bigint {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new CoercionError('invalid Date');
    return BigInt(value.getTime()) * 1000n;
  }
  const m = typeof value === 'string' ? TIMESTAMP_TEXT.exec(value.trim()) : null;
  if (!m) {
    throw new CoercionError(
      `expected a timestamp 'YYYY-MM-DD HH:MM:SS[.ffffff]' or ISO-8601 (e.g. 2024-05-01T10:00:00Z), got ${show(value)}`,
    );
  }
  const days = daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3]));
  const [h, min, s] = [Number(m[4] ?? '0'), Number(m[5] ?? '0'), Number(m[6] ?? '0')];
  if (h > 23 || min > 59 || s > 59) throw new CoercionError(`invalid time of day in ${show(value)}`);
  // Seconds fit a double exactly for any 4+-digit year; only the micros need a bigint.
  let micros = BigInt(days * 86_400 + (h * 60 + min) * 60 + s) * 1_000_000n + fractionMicros(m[7]);
  const zone = m[8];
  if (zone && !/^(Z|z|UTC)$/.test(zone)) {
    // An explicit offset names an instant: store it as UTC.
    const sign = zone.startsWith('-') ? -1n : 1n;
    const digits = zone.slice(1).replace(':', '');
    const offsetMinutes = BigInt(Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
    micros -= sign * offsetMinutes * 60_000_000n;
  }
  return micros;
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    try {
      return JSON.stringify(value)?.slice(0, 60) ?? String(value);
    } catch {
      return String(value);
    }
  }
  return String(value);
}

// ---- rendering ----

function pad(n: number | bigint, width: number): string {
  return String(n).padStart(width, '0');
}

export function daysToDateText(days: number): string {
  const { year, month, day } = civilFromDays(days);
  return `${year < 0 ? '-' + pad(-year, 4) : pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

export function microsToTimestampText(micros: bigint): string {
  const days = micros >= 0n ? micros / MICROS_PER_DAY : -((-micros + MICROS_PER_DAY - 1n) / MICROS_PER_DAY);
  const rest = Number(micros - days * MICROS_PER_DAY);
  const seconds = Math.floor(rest / 1_000_000);
  const time = `${pad(Math.floor(seconds / 3600), 2)}:${pad(Math.floor(seconds / 60) % 60, 2)}:${pad(seconds % 60, 2)}.${pad(rest % 1_000_000, 6)}`;
  return `${daysToDateText(Number(days))} ${time}`;
}

function microsToTimeText(micros: bigint): string {
  const seconds = micros / 1_000_000n;
  return `${pad(seconds / 3600n, 2)}:${pad((seconds / 60n) % 60n, 2)}:${pad(seconds % 60n, 2)}.${pad(micros % 1_000_000n, 6)}`;
}

function decimalText(unscaled: bigint, scale: number): string {
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** Text DuckDB casts back to the same value (used to stage validated rows). */
export function literalToText(type: string, literal: Literal): string {
  const parsed = parseType(type);
  switch (parsed.kind) {
    case 'date':
      return daysToDateText(literal as number);
    case 'time':
      return microsToTimeText(literal as bigint);
    case 'timestamp':
      return microsToTimestampText(literal as bigint);
    case 'timestamptz':
      return `${microsToTimestampText(literal as bigint)}+00`;
    case 'decimal':
      return decimalText(literal as bigint, parsed.scale);
    case 'binary':
      return Buffer.from(literal as Uint8Array).toString('base64');
    default:
      return String(literal);
  }
}

/** A DuckDB SQL literal of the column's DuckDB type. */
export function literalToSql(type: string, literal: Literal | null): string {
  const parsed = parseType(type);
  if (literal === null) return 'NULL';
  switch (parsed.kind) {
    case 'boolean':
      return literal ? 'TRUE' : 'FALSE';
    case 'int':
      return `CAST(${String(literal)} AS INTEGER)`;
    case 'long':
      return `CAST(${String(literal)} AS BIGINT)`;
    case 'float':
    case 'double': {
      const n = literal as number;
      const text = Number.isFinite(n) ? String(n) : quoted(String(n));
      return `CAST(${text} AS ${parsed.kind === 'float' ? 'FLOAT' : 'DOUBLE'})`;
    }
    case 'decimal':
      return `CAST(${quoted(literalToText(type, literal))} AS DECIMAL(${parsed.precision},${parsed.scale}))`;
    case 'date':
      return `DATE ${quoted(literalToText(type, literal))}`;
    case 'time':
      return `TIME ${quoted(literalToText(type, literal))}`;
    case 'timestamp':
      return `TIMESTAMP ${quoted(literalToText(type, literal))}`;
    case 'timestamptz':
      return `TIMESTAMPTZ ${quoted(literalToText(type, literal))}`;
    case 'string':
      return quoted(literal as string);
    case 'uuid':
      return `UUID ${quoted(literal as string)}`;
    case 'binary':
      return `from_base64(${quoted(literalToText(type, literal))})`;
  }
}

/** Orders two literals of the same type (strings by UTF-8 bytes, as Iceberg compares bounds). */
export function compareLiterals(a: Literal, b: Literal): number {
  if (typeof a === 'string' && typeof b === 'string') return Buffer.compare(Buffer.from(a), Buffer.from(b));
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return 0;
}

// ---- single-value binary form (lower_bounds / upper_bounds) ----

export function encodeBound(type: string, literal: Literal): Uint8Array {
  const parsed = parseType(type);
  const buffer = (size: number) => Buffer.alloc(size);
  switch (parsed.kind) {
    case 'boolean':
      return Uint8Array.of(literal ? 1 : 0);
    case 'int':
    case 'date': {
      const b = buffer(4);
      b.writeInt32LE(literal as number);
      return b;
    }
    case 'long':
    case 'time':
    case 'timestamp':
    case 'timestamptz': {
      const b = buffer(8);
      b.writeBigInt64LE(literal as bigint);
      return b;
    }
    case 'float': {
      const b = buffer(4);
      b.writeFloatLE(literal as number);
      return b;
    }
    case 'double': {
      const b = buffer(8);
      b.writeDoubleLE(literal as number);
      return b;
    }
    case 'string':
      return Buffer.from(literal as string, 'utf8');
    case 'uuid':
      return Buffer.from((literal as string).replaceAll('-', ''), 'hex');
    case 'binary':
      return literal as Uint8Array;
    case 'decimal':
      return decimalBytes(literal as bigint);
  }
}

/**
 * A bound or partition-summary value (spec Appendix D) as the literal of `type`. Bounds written before an int → long
 * or float → double promotion keep the narrower size (spec, schema evolution), so a 4-byte value of a long or
 * double column is widened (so are 4-byte time/timestamp values, which some writers store).
 */
export function decodeBound(type: string, bytes: Uint8Array): Literal {
  const parsed = parseType(type);
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (parsed.kind) {
    case 'boolean':
      return b[0] !== 0;
    case 'int':
    case 'date':
      return b.readInt32LE(0);
    case 'long':
    case 'time':
    case 'timestamp':
    case 'timestamptz':
      return b.length === 4 ? BigInt(b.readInt32LE(0)) : b.readBigInt64LE(0);
    case 'float':
      return b.readFloatLE(0);
    case 'double':
      return b.length === 4 ? b.readFloatLE(0) : b.readDoubleLE(0);
    case 'string':
      return b.toString('utf8');
    case 'uuid': {
      const hex = b.toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    }
    case 'binary':
      return new Uint8Array(b);
    case 'decimal':
      return b.length === 0 ? 0n : BigInt.asIntN(b.length * 8, BigInt(`0x${b.toString('hex')}`));
  }
}

/** Minimal big-endian two's-complement bytes of an unscaled decimal (Iceberg's decimal single-value form). */
export function decimalBytes(unscaled: bigint): Uint8Array {
  let size = 1;
  while (BigInt.asIntN(size * 8, unscaled) !== unscaled) size += 1;
  const hex = BigInt.asUintN(size * 8, unscaled)
    .toString(16)
    .padStart(size * 2, '0');
  return new Uint8Array(Buffer.from(hex, 'hex'));
}
