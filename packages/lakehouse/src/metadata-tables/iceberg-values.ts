// What the metadata tables add to the engine's values: Athena's type names for Iceberg types (DuckDB's are in
// metadata/types.ts, the engine's one map) and Iceberg's "human string" rendering that Trino/Athena show in $files
// and $manifests (Java's LocalDateTime/OffsetDateTime toString, ...). Decoding (metadata/values.ts decodeBound),
// dates and SQL-ready text (values.ts) and the time transforms' text (metadata/transforms.ts) are the engine's.
import type { IcebergPrimitive } from '../contract';
import { formatDecimal, javaDouble } from '../metadata/number-text';
import { parseTransform, partitionPathValue, transformResultType } from '../metadata/transforms';
import { daysToDateText, decodeBound, literalToText, type Literal } from '../metadata/values';

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
 * decoded by the engine's decodeBound (which also widens bounds written before a promotion), a decimal as its
 * digits at its scale.
 */
export function decodeSingleValue(type: string, bytes: Uint8Array): IcebergValue {
  const value = decodeBound(type, bytes);
  if (typeof value === 'bigint' && type.startsWith('decimal'))
    return formatDecimal(value, Number(/,\s*(\d+)\)/.exec(type)?.[1] ?? 0));
  return value;
}

const pad = (n: number | bigint, width = 2): string => String(n).padStart(width, '0');

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
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
  return `${daysToDateText(Number(days))}T${javaTime(micros)}`;
}

/** Iceberg's human string of a value of an Iceberg type (Transforms.identity().toHumanString). */
export function humanString(type: string, value: IcebergValue): string | null {
  if (value === null) return null;
  switch (type) {
    case 'date':
      return daysToDateText(Number(value));
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
  const t = parseTransform(transform);
  switch (t.kind) {
    case 'void':
      return null;
    case 'identity':
    case 'truncate':
      return humanString(sourceType, value);
    default:
      // year, month, day, hour and bucket: the engine's partition text (yyyy, yyyy-MM, yyyy-MM-dd, yyyy-MM-dd-HH,
      // the bucket number) is Iceberg's human string for these.
      return partitionPathValue(t, transformResultType(t, sourceType), value as Literal);
  }
}

/** A decoded value as a DuckDB-castable JS value: temporal values as the engine's SQL-ready text (micros kept). */
export function sqlReadyValue(type: string, value: IcebergValue): IcebergValue {
  if (value === null) return null;
  switch (type) {
    case 'date':
    case 'time':
    case 'timestamp':
    case 'timestamptz':
      return literalToText(type, value as Literal);
    default:
      return value;
  }
}
