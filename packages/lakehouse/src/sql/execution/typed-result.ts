// A DuckDB result as Athena returns it, where the analyzer knows a column's Trino type better than DuckDB's type
// says: a timestamp's precision (0–9 digits) and the zone a value displays in, at any depth (an array of
// timestamps, a row with a time field), and JSON held as text. Everything else prints from DuckDB's own type (result-format.ts).
import {
  DuckDBTypeId,
  type DuckDBArrayType,
  type DuckDBArrayValue,
  type DuckDBListType,
  type DuckDBListValue,
  type DuckDBMapType,
  type DuckDBMapValue,
  type DuckDBResultReader,
  type DuckDBStructType,
  type DuckDBStructValue,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { StatementResult } from '../../contract';
import { hasZone, typeName, type SqlType } from '../analyzer/types';
import { athenaTypeName, formatTimestampMicros, formatValue, isIpAddress, pad } from './result-format';

const TIMESTAMP_IDS = new Set([
  DuckDBTypeId.TIMESTAMP,
  DuckDBTypeId.TIMESTAMP_TZ,
  DuckDBTypeId.TIMESTAMP_MS,
  DuckDBTypeId.TIMESTAMP_S,
  DuckDBTypeId.TIMESTAMP_NS,
]);

/** Nanoseconds since the epoch of a DuckDB timestamp value of any precision. */
function epochNanos(value: DuckDBValue, type: DuckDBType): bigint | undefined {
  switch (type.typeId) {
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return (value as { micros: bigint }).micros * 1000n;
    case DuckDBTypeId.TIMESTAMP_MS:
      return (value as { millis: bigint }).millis * 1_000_000n;
    case DuckDBTypeId.TIMESTAMP_S:
      return (value as { seconds: bigint }).seconds * 1_000_000_000n;
    case DuckDBTypeId.TIMESTAMP_NS:
      return (value as { nanos: bigint }).nanos;
    default:
      return undefined;
  }
}

const OFFSET = /^([+-])(\d{2}):(\d{2})$/;
const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC (ms) at an instant: a fixed `+hh:mm`, or the IANA zone's rules (Intl). */
export function zoneOffsetMs(zone: string, epochMs: number): number {
  if (zone === 'UTC') return 0;
  const fixed = OFFSET.exec(zone);
  if (fixed) return (fixed[1] === '-' ? -1 : 1) * (Number(fixed[2]) * 60 + Number(fixed[3])) * 60_000;
  let format = zoneFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    zoneFormats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(epochMs)).map((p) => [p.type, p.value]));
  const local = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return local - Math.floor(epochMs / 1000) * 1000;
}

/** Epoch nanoseconds printed with `precision` fraction digits (0–9), as Trino prints timestamp(p). */
function formatNanos(nanos: bigint, precision: number): string {
  const floorDiv = (a: bigint, b: bigint) => (a >= 0n ? a / b : -((-a + b - 1n) / b));
  const micros = floorDiv(nanos, 1000n);
  const text = formatTimestampMicros(micros, Math.min(precision, 6));
  if (precision <= 6) return text;
  return `${text}${pad(nanos - micros * 1000n, 3).slice(0, precision - 6)}`;
}

/** A timestamp value printed as Trino prints `timestamp(p)` / `timestamp(p) with time zone` in its zone. */
function formatTimestamp(
  value: DuckDBValue,
  duckdb: DuckDBType,
  type: Extract<SqlType, { k: 'timestamp' }>,
): string | null {
  const nanos = epochNanos(value, duckdb);
  if (nanos === undefined) return formatValue(value, duckdb);
  if (!hasZone(type)) return formatNanos(nanos, type.precision);
  const offset = BigInt(zoneOffsetMs(type.zone, Number(nanos / 1_000_000n))) * 1_000_000n;
  return `${formatNanos(nanos + offset, type.precision)} ${type.zone}`;
}

/** A time of day printed as Trino prints `time(p)`. */
function formatTime(micros: bigint, precision: number): string {
  const seconds = Number(micros / 1_000_000n);
  const hms = `${pad(Math.floor(seconds / 3600), 2)}:${pad(Math.floor((seconds % 3600) / 60), 2)}:${pad(seconds % 60, 2)}`;
  const digits = Math.min(precision, 6);
  if (digits === 0) return hms;
  return `${hms}.${pad(micros % 1_000_000n, 6).slice(0, digits)}${'0'.repeat(Math.max(0, precision - 6))}`;
}

const isList = (t: DuckDBType) => t.typeId === DuckDBTypeId.LIST || t.typeId === DuckDBTypeId.ARRAY;
const isRow = (t: DuckDBType, type: SqlType) =>
  type.k === 'row' &&
  t.typeId === DuckDBTypeId.STRUCT &&
  !isIpAddress(t) &&
  (t as DuckDBStructType).entryTypes.length === type.fields.length;

/** One value in Athena's encoding, with the analyzer's type where it knows one (`nested`: NULL prints `null`). */
function formatTypedValue(
  value: DuckDBValue,
  duckdb: DuckDBType,
  type: SqlType | undefined,
  nested = false,
): string | null {
  if (value === null || value === undefined || !type) return formatValue(value, duckdb, nested);
  if (type.k === 'timestamp' && TIMESTAMP_IDS.has(duckdb.typeId)) return formatTimestamp(value, duckdb, type);
  if (type.k === 'time' && duckdb.typeId === DuckDBTypeId.TIME)
    return formatTime((value as { micros: bigint }).micros, type.precision);
  if (type.k === 'array' && isList(duckdb)) {
    const itemType = (duckdb as DuckDBListType | DuckDBArrayType).valueType;
    const items = (value as DuckDBListValue | DuckDBArrayValue).items;
    return `[${items.map((item) => formatTypedValue(item, itemType, type.element, true)).join(', ')}]`;
  }
  if (type.k === 'map' && duckdb.typeId === DuckDBTypeId.MAP) {
    const map = duckdb as DuckDBMapType;
    const entries = (value as DuckDBMapValue).entries;
    return `{${entries.map((e) => `${formatTypedValue(e.key, map.keyType, type.key, true)}=${formatTypedValue(e.value, map.valueType, type.value, true)}`).join(', ')}}`;
  }
  if (type.k === 'row' && isRow(duckdb, type)) {
    const struct = duckdb as DuckDBStructType;
    const entries = (value as DuckDBStructValue).entries;
    return `{${struct.entryNames.map((name, i) => `${name}=${formatTypedValue(entries[name] ?? null, struct.entryTypes[i] as DuckDBType, type.fields[i]?.type, true)}`).join(', ')}}`;
  }
  return formatValue(value, duckdb, nested);
}

/** The column's type as Athena names it: the analyzer's where it says more (timestamps, times), else DuckDB's. */
function columnTypeName(duckdb: DuckDBType, type: SqlType | undefined): string {
  if (!type) return athenaTypeName(duckdb);
  if (type.k === 'timestamp' && TIMESTAMP_IDS.has(duckdb.typeId)) return typeName(type);
  if (type.k === 'time' && duckdb.typeId === DuckDBTypeId.TIME) return typeName(type);
  if (type.k === 'json' && duckdb.typeId === DuckDBTypeId.VARCHAR) return 'json';
  if (type.k === 'array' && isList(duckdb))
    return `array(${columnTypeName((duckdb as DuckDBListType | DuckDBArrayType).valueType, type.element)})`;
  if (type.k === 'map' && duckdb.typeId === DuckDBTypeId.MAP) {
    const map = duckdb as DuckDBMapType;
    return `map(${columnTypeName(map.keyType, type.key)}, ${columnTypeName(map.valueType, type.value)})`;
  }
  if (type.k === 'row' && isRow(duckdb, type)) {
    const struct = duckdb as DuckDBStructType;
    return `row(${struct.entryNames.map((n, i) => `${n} ${columnTypeName(struct.entryTypes[i] as DuckDBType, type.fields[i]?.type)}`).join(', ')})`;
  }
  return athenaTypeName(duckdb);
}

/** A DuckDB result as Athena returns it; `types` are the analyzer's Trino types of the output columns. */
export function toStatementResult(
  reader: DuckDBResultReader,
  statementType: StatementResult['statementType'],
  bytes: number,
  types: (SqlType | undefined)[] = [],
): StatementResult {
  const duckdbTypes = reader.columnTypes();
  const columns = reader.columnNames().map((name, i) => ({
    name,
    type: columnTypeName(duckdbTypes[i] as DuckDBType, types[i]),
  }));
  const rows = reader
    .getRows()
    .map((row) => row.map((value, i) => formatTypedValue(value, duckdbTypes[i] as DuckDBType, types[i])));
  return {
    statementType,
    columns,
    rows,
    stats: { dataScannedInBytes: bytes, engineExecutionTimeInMillis: 0 },
  };
}
