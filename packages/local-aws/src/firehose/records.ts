// One Firehose record → one table row, as Firehose's Iceberg destination maps it: the record must be a JSON
// object; its top-level keys fill the columns of the same name (exact match first, then case-insensitive);
// unknown keys are ignored; missing optional columns are NULL. Anything else is a misfit the caller routes to
// the error output with the code returned here — a record is written whole or not at all. A record that fits is
// handed to the engine as one NDJSON line: its own bytes when they already are the canonical form (every column
// under its exact name with its native JSON type, on one line, valid UTF-8), otherwise a canonical line built
// from its values (canonicalLine), so the engine reads every record one way.
import { isUtf8 } from 'node:buffer';
import { coerceValue, literalToText, type Schema, type SchemaField } from '@loglake/lakehouse/iceberg';

/** A record accepted into a stream's buffer: its bytes, arrival time and sequence number in the stream's log. */
export interface BufferedRecord {
  data: Buffer;
  arrivalMs: number;
  seq: number;
}

/** A record that goes to the error output, with the code and message saying why. */
export type RejectedRecord = BufferedRecord & { errorCode: string; errorMessage: string };

export type RecordOutcome =
  | {
      ok: true;
      /** The raw JSON already has every column under its exact name with its native JSON type, so DuckDB can
       * read the raw bytes and get the same values. */
      canonical: boolean;
      /** Timestamp columns this record gives as epoch microseconds (numbers). */
      microsColumns: string[];
      /** Timestamp columns this record gives as text (a staged part uses one form per column). */
      textTimestampColumns: string[];
      /**
       * A record that is not canonical as map() parsed it, for canonicalLine() (so it is parsed once); canonical
       * records keep no parsed copy (their bytes are the line).
       */
      record?: ParsedRecord;
    }
  | { ok: false; errorCode: string; errorMessage: string };

/** How a part gives each timestamp column: epoch microseconds or text (decided by the first record giving it). */
export type TimestampForms = Map<string, 'micros' | 'text'>;

/**
 * Error codes the local endpoint writes to the error output. Firehose's guide ("Set up the Firehose stream" →
 * "Handle errors", apache-iceberg-stream.html) documents `Iceberg.NoSuchTable` ("writing to a table that doesn't
 * exist"), used here as documented; it lists no code for a record that is not JSON or does not fit the schema, nor
 * for a commit that keeps failing, so those are the local endpoint's own names (README "Local endpoint").
 */
export const RECORD_ERROR = {
  invalidJson: 'Iceberg.InvalidJson',
  schemaMismatch: 'Iceberg.SchemaMismatch',
  tableNotFound: 'Iceberg.NoSuchTable',
  commitFailed: 'Iceberg.CommitFailed',
  /** The stream's role may not deliver to the table (local name: AWS does not document its codes). */
  accessDenied: 'Iceberg.AccessDenied',
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
  /** The column name as a JSON key (quoted once). */
  key: string;
  kind: Kind;
}

export class RecordMapper {
  private readonly columns: Column[];

  constructor(readonly schema: Schema) {
    this.columns = schema.fields.map((field) => ({
      field,
      name: field.name,
      key: JSON.stringify(field.name),
      kind: KINDS[field.type] ?? Kind.Other,
    }));
  }

  /** The verdict on one record, and whether its own bytes are already the canonical line. */
  map(data: Buffer): RecordOutcome {
    const record = ParsedRecord.parse(data);
    if (!(record instanceof ParsedRecord)) return record;
    // A table created without a schema has no columns until its first writer gives it some: a record has nowhere
    // to go (delivered, it would be a row of nothing), so it goes to the error output with its bytes.
    if (this.columns.length === 0)
      return misfit('The table has no columns yet (it was created without a schema): give it one first.');
    let canonical = true;
    const microsColumns: string[] = [];
    const textTimestampColumns: string[] = [];
    for (const column of this.columns) {
      const raw = record.get(column.name);
      if (record.folded) canonical = false;
      if (raw === undefined || raw === null) {
        if (column.field.required) return misfit(`Required column ${column.name} is missing or null.`);
        continue;
      }
      // Native values (the common case) are valid as they are, and DuckDB's reader reads them alike.
      if (!isNative(column.kind, raw)) {
        const converted = convert(column.field, raw);
        if (converted instanceof Misfit) return misfit(converted.message);
        canonical = false;
      }
      if (column.kind === Kind.Timestamp)
        (typeof raw === 'number' ? microsColumns : textTimestampColumns).push(column.name);
    }
    return { ok: true, canonical, microsColumns, textTimestampColumns, ...(canonical ? {} : { record }) };
  }

  /**
   * The canonical NDJSON line of a record map() accepted: exact column names, native JSON values, decimals,
   * dates, times, uuids and binary (base64) as the engine's own text, and each timestamp in the form `forms` gives
   * its column (a column not there yet takes this record's form, and is added).
   */
  canonicalLine(source: Buffer | ParsedRecord, forms: TimestampForms): Buffer {
    const record = source instanceof ParsedRecord ? source : ParsedRecord.parse(source);
    if (!(record instanceof ParsedRecord))
      throw new Error(`Record re-mapping failed: ${record.errorMessage}`);
    const members: string[] = [];
    for (const column of this.columns) {
      const raw = record.get(column.name);
      if (raw === undefined || raw === null) continue;
      const value =
        isNative(column.kind, raw) && column.kind !== Kind.Timestamp ? raw : convert(column.field, raw);
      // These records passed map() once; mapping is deterministic.
      if (value instanceof Misfit) throw new Error(`Record re-mapping failed: ${value.message}`);
      members.push(`${column.key}:${jsonValue(column, value, raw, forms)}`);
    }
    return Buffer.from(`{${members.join(',')}}`);
  }
}

/** A record parsed as a JSON object, with its lower-case key index built on first need. */
export class ParsedRecord {
  private byLowerKey: Map<string, unknown> | undefined;

  private constructor(private readonly object: Record<string, unknown>) {}

  static parse(data: Buffer): ParsedRecord | Extract<RecordOutcome, { ok: false }> {
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
    return new ParsedRecord(parsed as Record<string, unknown>);
  }

  /** Whether the last get() found its value case-insensitively (a field, not a result object: it runs per value). */
  folded = false;

  /** A column's value by its exact name, else case-insensitively. */
  get(name: string): unknown {
    const raw = this.object[name];
    this.folded = false;
    if (raw !== undefined || Object.hasOwn(this.object, name)) return raw;
    this.byLowerKey ??= new Map(
      Object.entries(this.object)
        .reverse()
        .map(([key, value]) => [key.toLowerCase(), value]),
    );
    const folded = this.byLowerKey.get(name.toLowerCase());
    this.folded = folded !== undefined;
    return folded;
  }
}

/** A record's bytes as one NDJSON line when they can be one as they are: one line, valid UTF-8. */
export function asJsonLine(data: Buffer): Buffer | undefined {
  let end = data.length;
  while (end > 0 && (data[end - 1] === 0x0a || data[end - 1] === 0x0d)) end--;
  const line = end === data.length ? data : data.subarray(0, end);
  if (line.includes(0x0a) || line.includes(0x0d)) return undefined;
  return isUtf8(line) ? line : undefined;
}

/** A converted value as JSON text; timestamps (epoch micros from convert) in their column's form. */
function jsonValue(column: Column, value: unknown, raw: unknown, forms: TimestampForms): string {
  if (column.kind === Kind.Timestamp) {
    let form = forms.get(column.name);
    if (!form) forms.set(column.name, (form = typeof raw === 'number' ? 'micros' : 'text'));
    const micros = value as number;
    return form === 'micros' ? String(micros) : JSON.stringify(fromEpochMicros(micros));
  }
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value);
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
        ? isoMillisUtc(raw) && realDay(raw)
        : typeof raw === 'number' && Number.isSafeInteger(raw);
    default:
      return false;
  }
}

/**
 * The value a record's JSON value stands for, or a Misfit: numbers, booleans and strings as JSON gives them (a
 * long beyond 2^53 as a bigint), timestamps as epoch microseconds, and the types without a JSON kind of their own
 * (date, time, uuid, decimal, base64 binary) as the engine's canonical text, judged by the engine's own rules.
 * No closures here: it runs once per value of every record that is not native.
 */
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
        if (big < -(2n ** 63n) || big >= 2n ** 63n) return wrongValue(field, raw);
        return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
          ? Number(big)
          : big;
      }
      return wrongValue(field, raw);
    }
    case 'timestamp':
    case 'timestamptz':
      return toMicros(raw) ?? wrongValue(field, raw);
    case 'boolean':
      if (typeof raw === 'boolean') return raw;
      if (raw === 'true' || raw === 'false') return raw === 'true';
      return wrongValue(field, raw);
    case 'float':
    case 'double': {
      const n = toNumber(raw);
      return n === undefined ? wrongValue(field, raw) : n;
    }
    default:
      if (typeof raw === 'object') return wrongValue(field, raw);
      try {
        const literal = coerceValue(field.type, raw);
        return literal === null ? wrongValue(field, raw) : literalToText(field.type, literal);
      } catch {
        return wrongValue(field, raw);
      }
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

/** Days of each month (index 1-12) in a common year. */
const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * The `yyyy-MM-dd` a text starts with is a day of the calendar. V8's Date.parse rolls 2024-02-30 over into March;
 * the engine's reader refuses it, and a record is a misfit rather than a value nobody sent.
 */
function realDay(text: string): boolean {
  const year = Number(text.slice(0, 4));
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month] ?? 0);
  return day >= 1 && day <= days;
}

/** ISO 8601 / `yyyy-MM-dd HH:mm:ss[.fff]` strings (UTC unless an offset is given), or an epoch number in
 * MICROseconds (AWS documents that Firehose's Iceberg destination takes timestamps "always in microseconds"), as
 * epoch microseconds; text keeps milliseconds. */
function toMicros(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) ? raw : undefined;
  if (typeof raw !== 'string') return undefined;
  // Fast path: what JSON.stringify(Date) and most producers send.
  if (isoMillisUtc(raw)) return realDay(raw) ? Date.parse(raw) * 1000 : undefined;
  const text = raw.trim();
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(text))
    return undefined;
  if (!realDay(text)) return undefined;
  const normalised = text.replace(' ', 'T');
  const withZone =
    /(Z|[+-]\d{2}:?\d{2})$/i.test(normalised) || !normalised.includes('T') ? normalised : `${normalised}Z`;
  const millis = Date.parse(withZone.replace(/(\.\d{3})\d+/, '$1'));
  return Number.isNaN(millis) ? undefined : millis * 1000;
}

/** Epoch microseconds → `YYYY-MM-DD HH:MM:SS.ffffff` (UTC), keeping the microseconds a Date would drop. */
export function fromEpochMicros(micros: number): string | undefined {
  const millis = Math.floor(micros / 1000);
  const date = new Date(millis);
  if (Number.isNaN(date.getTime())) return undefined;
  const sub = String(micros - millis * 1000).padStart(3, '0');
  return `${date.toISOString().slice(0, 23).replace('T', ' ')}${sub}`;
}
