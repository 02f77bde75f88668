// One Firehose record → one table row, as Firehose's Iceberg destination maps it: the record must be a JSON
// object; its top-level keys fill the columns of the same name (exact match first, then case-insensitive);
// unknown keys are ignored; missing optional columns are NULL. Anything else is a misfit the caller routes to
// the error output with the code returned here — a record is written whole or not at all.
import type { Schema, SchemaField } from '@loglake/lakehouse';

export type RecordOutcome =
  | {
      ok: true;
      /** The mapped row; empty when map() was asked not to build it (the raw path only needs the verdict). */
      row: Record<string, unknown>;
      /** The raw JSON already has every column under its exact name with its native JSON type, so DuckDB can
       * read the raw bytes and get the same values (see staging.ts). */
      canonical: boolean;
      /** Timestamp columns this record gives as epoch microseconds (numbers); the raw path reads them as BIGINT. */
      microsColumns: string[];
      /** Timestamp columns this record gives as text (a raw batch must use one form per column). */
      textTimestampColumns: string[];
    }
  | { ok: false; errorCode: string; errorMessage: string };

/** Error codes the local endpoint writes to the error output (local names; see README "Local endpoint"). */
export const RECORD_ERROR = {
  invalidJson: 'Iceberg.InvalidJson',
  schemaMismatch: 'Iceberg.SchemaMismatch',
  tableNotFound: 'Iceberg.TableNotFound',
  commitFailed: 'Iceberg.CommitFailed',
} as const;

/** Column kinds the per-record loop switches on (small integers, not string compares per value). */
const Kind = { String: 0, Int: 1, Long: 2, Double: 3, Boolean: 4, Timestamp: 5, Other: 6 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

const KINDS: Record<string, Kind> = {
  string: Kind.String,
  int: Kind.Int,
  long: Kind.Long,
  float: Kind.Double,
  double: Kind.Double,
  boolean: Kind.Boolean,
  timestamp: Kind.Timestamp,
  timestamptz: Kind.Timestamp,
};

interface Column {
  field: SchemaField;
  name: string;
  kind: Kind;
}

export class RecordMapper {
  private readonly columns: Column[];

  constructor(private readonly schema: Schema) {
    this.columns = schema.fields.map((field) => ({
      field,
      name: field.name,
      kind: KINDS[field.type] ?? Kind.Other,
    }));
  }

  /** `withRow` false: validate only (same verdict, codes and flags) without building the row object. */
  map(data: Buffer, withRow = true): RecordOutcome {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString('utf8'));
    } catch (error) {
      return {
        ok: false,
        errorCode: RECORD_ERROR.invalidJson,
        errorMessage: `Record is not valid JSON: ${(error as Error).message}`,
      };
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return {
        ok: false,
        errorCode: RECORD_ERROR.invalidJson,
        errorMessage: 'Record is not a JSON object; Iceberg destinations need one object per record.',
      };
    }
    const source = parsed as Record<string, unknown>;
    // Case-insensitive lookup only when a column is not found by its exact name (the common case is exact).
    let byLowerKey: Map<string, unknown> | undefined;
    let canonical = true;
    const microsColumns: string[] = [];
    const textTimestampColumns: string[] = [];
    const row: Record<string, unknown> = {};
    for (const { field, name, kind } of this.columns) {
      let raw = source[name];
      if (raw === undefined && !Object.hasOwn(source, name)) {
        byLowerKey ??= new Map(
          Object.entries(source)
            .reverse()
            .map(([key, value]) => [key.toLowerCase(), value]),
        );
        raw = byLowerKey.get(name.toLowerCase());
        if (raw !== undefined) canonical = false;
      }
      if (raw === undefined || raw === null) {
        if (field.required) return misfit(`Required column ${name} is missing or null.`);
        if (withRow) row[name] = null;
        continue;
      }
      // Native values (the common case) are valid as they are, and DuckDB's reader reads them alike; only a
      // timestamp's row value still needs building.
      const native = isNative(kind, raw);
      if (native && !(withRow && kind === Kind.Timestamp)) {
        if (withRow) row[name] = raw;
      } else {
        const converted = convert(field, raw);
        if (converted instanceof Misfit) return misfit(converted.message);
        if (withRow) row[name] = converted;
        if (!native) canonical = false;
      }
      if (kind === Kind.Timestamp)
        (typeof raw === 'number' ? microsColumns : textTimestampColumns).push(name);
    }
    return { ok: true, row, canonical, microsColumns, textTimestampColumns };
  }
}

class Misfit {
  constructor(readonly message: string) {}
}

function misfit(message: string): RecordOutcome {
  return { ok: false, errorCode: RECORD_ERROR.schemaMismatch, errorMessage: message };
}

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

/**
 * True when the value has its column's native JSON type and is valid as it is: convert() would accept it, and
 * DuckDB's JSON reader reads the value the mapper reads (the raw path's "canonical").
 */
function isNative(kind: Kind, raw: unknown): boolean {
  switch (kind) {
    case Kind.String:
      return typeof raw === 'string';
    case Kind.Int:
      return typeof raw === 'number' && Number.isInteger(raw) && raw >= INT_MIN && raw <= INT_MAX;
    case Kind.Long:
      return typeof raw === 'number' && Number.isSafeInteger(raw);
    case Kind.Double:
      return typeof raw === 'number' && Number.isFinite(raw);
    case Kind.Boolean:
      return typeof raw === 'boolean';
    case Kind.Timestamp:
      // Epoch microseconds: any safe integer is a valid instant.
      return typeof raw === 'string'
        ? isoMillisUtc(raw)
        : typeof raw === 'number' && Number.isSafeInteger(raw);
    default:
      return false;
  }
}

// Returns the converted value or a Misfit. No closures here: it runs once per value of every record.
function convert(field: SchemaField, raw: unknown): unknown {
  switch (field.type) {
    case 'string':
      if (typeof raw === 'string') return raw;
      if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
      return wrongValue(field, raw);
    case 'int': {
      const n = toNumber(raw);
      return n !== undefined && Number.isInteger(n) && n >= INT_MIN && n <= INT_MAX
        ? n
        : wrongValue(field, raw);
    }
    case 'long': {
      if (typeof raw === 'number' && Number.isInteger(raw)) return raw;
      if (typeof raw === 'string' && /^-?\d+$/.test(raw.trim())) {
        const big = BigInt(raw.trim());
        return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
          ? Number(big)
          : big;
      }
      return wrongValue(field, raw);
    }
    case 'timestamp':
    case 'timestamptz':
      return toDate(raw) ?? wrongValue(field, raw);
    case 'boolean':
      if (typeof raw === 'boolean') return raw;
      if (raw === 'true' || raw === 'false') return raw === 'true';
      return wrongValue(field, raw);
    case 'float':
    case 'double': {
      const n = toNumber(raw);
      return n === undefined ? wrongValue(field, raw) : n;
    }
    case 'date': {
      if (typeof raw !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(raw)) return wrongValue(field, raw);
      const date = new Date(`${raw}T00:00:00Z`);
      return Number.isNaN(date.getTime()) ? wrongValue(field, raw) : date;
    }
    case 'uuid':
      return typeof raw === 'string' &&
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(raw)
        ? raw
        : wrongValue(field, raw);
    case 'time':
      return typeof raw === 'string' && /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(raw)
        ? raw
        : wrongValue(field, raw);
    case 'binary':
      return typeof raw === 'string' ? raw : wrongValue(field, raw);
    default:
      if (field.type.startsWith('decimal('))
        return toNumber(raw) === undefined ? wrongValue(field, raw) : String(raw);
      return wrongValue(field, raw);
  }
}

function wrongValue(field: SchemaField, raw: unknown): Misfit {
  return new Misfit(`Value ${JSON.stringify(raw)} does not fit column ${field.name} (${field.type}).`);
}

function toNumber(raw: unknown): number | undefined {
  if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
  if (typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
  return undefined;
}

/** The number the two digits at `at` spell, or NaN. */
function twoDigits(s: string, at: number): number {
  const a = s.charCodeAt(at) - 48;
  const b = s.charCodeAt(at + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : NaN;
}

/**
 * Exactly `/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(s) && !Number.isNaN(Date.parse(s))`, without either:
 * V8 accepts month 1-12, day 1-31 whatever the month, hour 0-24 (24 only as 24:00:00.000), minute and second 0-59.
 */
export function isoMillisUtc(s: string): boolean {
  if (s.length !== 24 || s[4] !== '-' || s[7] !== '-' || s[10] !== 'T' || s[13] !== ':' || s[16] !== ':')
    return false;
  if (s[19] !== '.' || s[23] !== 'Z') return false;
  const lastMilli = s.charCodeAt(22) - 48;
  if (
    Number.isNaN(twoDigits(s, 0) + twoDigits(s, 2) + twoDigits(s, 20)) ||
    !(lastMilli >= 0 && lastMilli <= 9)
  )
    return false;
  const month = twoDigits(s, 5);
  const day = twoDigits(s, 8);
  const hour = twoDigits(s, 11);
  const minute = twoDigits(s, 14);
  const second = twoDigits(s, 17);
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 24 && minute <= 59 && second <= 59))
    return false;
  return hour < 24 || (minute === 0 && second === 0 && s.slice(20, 23) === '000');
}

/** ISO 8601 / `yyyy-MM-dd HH:mm:ss[.fff]` strings (UTC unless an offset is given), or an epoch number in
 * MICROseconds: AWS documents that Firehose's Iceberg destination takes timestamps "always in microseconds". */
function toDate(raw: unknown): Date | string | undefined {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) ? fromEpochMicros(raw) : undefined;
  if (typeof raw !== 'string') return undefined;
  // Fast path: what JSON.stringify(Date) and most producers send.
  if (isoMillisUtc(raw)) return new Date(raw);
  const text = raw.trim();
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(text))
    return undefined;
  const normalised = text.replace(' ', 'T');
  const withZone =
    /(Z|[+-]\d{2}:?\d{2})$/i.test(normalised) || !normalised.includes('T') ? normalised : `${normalised}Z`;
  const date = new Date(withZone.replace(/(\.\d{3})\d+/, '$1'));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Epoch microseconds → `YYYY-MM-DD HH:MM:SS.ffffff` (UTC), keeping the microseconds a Date would drop. */
export function fromEpochMicros(micros: number): string | undefined {
  const millis = Math.floor(micros / 1000);
  const date = new Date(millis);
  if (Number.isNaN(date.getTime())) return undefined;
  const sub = String(micros - millis * 1000).padStart(3, '0');
  return `${date.toISOString().slice(0, 23).replace('T', ' ')}${sub}`;
}
