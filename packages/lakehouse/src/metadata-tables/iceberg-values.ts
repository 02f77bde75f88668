// Iceberg's single-value binary encoding (bounds, partition summaries) decoded into JS values, Athena's type
// names for Iceberg types (DuckDB's are in metadata/types.ts, the engine's one map), and Iceberg's "human
// string" rendering that Trino/Athena show in $files and $manifests (Java's LocalDateTime/OffsetDateTime
// toString, yyyy-MM-dd-HH for hour partitions, ...).
import type { IcebergPrimitive } from '../contract';
import { formatDecimal, javaDouble } from '../metadata/number-text';
import { decodeBound, type Literal } from '../metadata/values';

/** A decoded value. Timestamps keep microseconds as a bigint (a Date would lose them). */
export type IcebergValue = boolean | number | bigint | string | Uint8Array | null;

const MICROS_PER_DAY = 86_400_000_000n;

/** Type names as Athena (engine v3, Trino) reports them in result metadata. */
export function athenaType(type: IcebergPrimitive | string): string {
  const decimal = /^decimal\((\d+),\s*(\d+)\)$/.exec(type);
  if (decimal) return `decimal(${decimal[1]},${decimal[2]})`;
  const map: Record<string, string> = {
    boolean: 'boolean',
    int: 'integer',
    long: 'bigint',
    float: 'real',
    double: 'double',
    date: 'date',
    time: 'time(6)',
    timestamp: 'timestamp(6)',
    timestamptz: 'timestamp(6) with time zone',
    string: 'varchar',
    uuid: 'uuid',
    binary: 'varbinary',
  };
  const found = map[type];
  if (!found) throw new RangeError(`No Athena type for Iceberg type "${type}"`);
  return found;
}

/**
 * A bound or partition-summary value (spec Appendix D, single-value serialization) as the metadata tables show it:
 * decoded by the engine's decodeBound, a decimal as its digits at its scale.
 */
export function decodeSingleValue(type: string, bytes: Uint8Array): IcebergValue {
  // Bounds written before an int → long or float → double promotion keep the narrower size (spec: type promotion).
  const narrow = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length === 4 && ['long', 'time', 'timestamp', 'timestamptz'].includes(type))
    return BigInt(narrow.readInt32LE(0));
  if (bytes.length === 4 && type === 'double') return narrow.readFloatLE(0);
  const value = decodeBound(type, bytes) as Literal | undefined;
  if (value === undefined) return new Uint8Array(bytes); // fixed[N] and other byte forms: as stored
  if (typeof value === 'bigint' && type.startsWith('decimal'))
    return formatDecimal(value, Number(/,\s*(\d+)\)/.exec(type)?.[1] ?? 0));
  return value;
}

const pad = (n: number | bigint, width = 2): string => String(n).padStart(width, '0');

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** Civil date (UTC) of a day number since 1970-01-01. */
export function dayToIso(days: number): string {
  const d = new Date(days * 86_400_000);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Java LocalTime.toString: HH:mm, then :ss and a 3/6/9-digit fraction only when non-zero. */
function javaTime(microsOfDay: bigint): string {
  const totalSeconds = microsOfDay / 1_000_000n;
  const micros = Number(microsOfDay % 1_000_000n);
  const h = Number(totalSeconds / 3600n);
  const m = Number((totalSeconds / 60n) % 60n);
  const s = Number(totalSeconds % 60n);
  let out = `${pad(h)}:${pad(m)}`;
  if (s > 0 || micros > 0) {
    out += `:${pad(s)}`;
    if (micros > 0) out += micros % 1000 === 0 ? `.${pad(micros / 1000, 3)}` : `.${pad(micros, 6)}`;
  }
  return out;
}

/** Java LocalDateTime.toString of epoch micros (what Iceberg prints for `timestamp`). */
export function javaLocalDateTime(epochMicros: bigint): string {
  const days = floorDiv(epochMicros, MICROS_PER_DAY);
  const micros = epochMicros - days * MICROS_PER_DAY;
  return `${dayToIso(Number(days))}T${javaTime(micros)}`;
}

/** Iceberg's human string of a value of an Iceberg type (Transforms.identity().toHumanString). */
export function humanString(type: string, value: IcebergValue): string | null {
  if (value === null) return null;
  switch (type) {
    case 'date':
      return dayToIso(Number(value));
    case 'time':
      return javaTime(BigInt(value as bigint));
    case 'timestamp':
      return javaLocalDateTime(BigInt(value as bigint));
    case 'timestamptz':
      return `${javaLocalDateTime(BigInt(value as bigint))}Z`;
    case 'float':
    case 'double':
      return javaDouble(Number(value));
    case 'binary':
      return Buffer.from(value as Uint8Array).toString('base64');
    default:
      return value instanceof Uint8Array ? Buffer.from(value).toString('base64') : String(value);
  }
}

/** Human string of a partition value under its transform (Transform.toHumanString). */
export function partitionHumanString(
  transform: string,
  sourceType: string,
  value: IcebergValue,
): string | null {
  if (value === null || value === undefined) return null;
  const n = Number(value);
  switch (transform) {
    case 'year':
      return pad(1970 + n, 4);
    case 'month': {
      const y = 1970 + Math.floor(n / 12);
      return `${pad(y, 4)}-${pad((((n % 12) + 12) % 12) + 1)}`;
    }
    case 'day':
      return dayToIso(n);
    case 'hour': {
      const day = Math.floor(n / 24);
      return `${dayToIso(day)}-${pad(((n % 24) + 24) % 24)}`;
    }
    case 'void':
      return null;
    default:
      if (transform.startsWith('bucket')) return String(n);
      return humanString(sourceType, value);
  }
}

/** A decoded value as a DuckDB-castable JS value (timestamps as ISO text with micros, dates as yyyy-mm-dd). */
export function sqlReadyValue(type: string, value: IcebergValue): IcebergValue {
  if (value === null) return null;
  switch (type) {
    case 'date':
      return dayToIso(Number(value));
    case 'time':
      return fullTime(BigInt(value as bigint));
    case 'timestamp':
      return fullTimestamp(BigInt(value as bigint));
    case 'timestamptz':
      return `${fullTimestamp(BigInt(value as bigint))}+00`;
    default:
      return value;
  }
}

function fullTime(microsOfDay: bigint): string {
  const s = microsOfDay / 1_000_000n;
  return `${pad(s / 3600n)}:${pad((s / 60n) % 60n)}:${pad(s % 60n)}.${pad(microsOfDay % 1_000_000n, 6)}`;
}

/** `YYYY-MM-DD HH:MM:SS.ffffff` (UTC) of epoch micros: exact, and castable by DuckDB. */
export function fullTimestamp(epochMicros: bigint): string {
  const days = floorDiv(epochMicros, MICROS_PER_DAY);
  return `${dayToIso(Number(days))} ${fullTime(epochMicros - days * MICROS_PER_DAY)}`;
}
