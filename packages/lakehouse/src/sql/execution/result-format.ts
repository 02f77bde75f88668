// Athena's result encoding: GetQueryResults returns every value as a string (VarCharValue) the way Trino
// prints it, and column metadata with Trino type names. This maps DuckDB result types and values onto both
// (typed-result.ts prints the columns whose Trino type the analyzer knows better: precisions and zones).
import { formatDecimal, javaDouble, javaFloat } from '../../metadata/number-text';
import { IPADDRESS_FIELD } from '../functions/ip-address';
import { formatIpAddress } from '../functions/ip-codec';
import {
  DuckDBTypeId,
  type DuckDBDateValue,
  type DuckDBDecimalValue,
  type DuckDBIntervalValue,
  type DuckDBListType,
  type DuckDBListValue,
  type DuckDBMapType,
  type DuckDBMapValue,
  type DuckDBStructType,
  type DuckDBStructValue,
  type DuckDBType,
  type DuckDBValue,
  type DuckDBDecimalType,
  type DuckDBBlobValue,
  type DuckDBArrayValue,
  type DuckDBArrayType,
} from '@duckdb/node-api';

export const isIpAddress = (type: DuckDBType): boolean =>
  type.typeId === DuckDBTypeId.STRUCT &&
  (type as DuckDBStructType).entryNames.length === 1 &&
  (type as DuckDBStructType).entryNames[0] === IPADDRESS_FIELD;

/** Trino's name for the type DuckDB produced. DuckDB TIMESTAMP (microseconds, what Iceberg columns hold) is
 * Athena's timestamp(6) when the analyzer does not know better. */
export function athenaTypeName(type: DuckDBType): string {
  if (isIpAddress(type)) return 'ipaddress';
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return 'boolean';
    case DuckDBTypeId.TINYINT:
      return 'tinyint';
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.UTINYINT:
      return 'smallint';
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.USMALLINT:
      return 'integer';
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.HUGEINT:
      return 'bigint';
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.UHUGEINT:
      return 'decimal(38,0)';
    case DuckDBTypeId.FLOAT:
      return 'real';
    case DuckDBTypeId.DOUBLE:
      return 'double';
    case DuckDBTypeId.DECIMAL: {
      const decimal = type as DuckDBDecimalType;
      return `decimal(${decimal.width},${decimal.scale})`;
    }
    case DuckDBTypeId.VARCHAR:
    case DuckDBTypeId.ENUM:
      return type.alias === 'JSON' ? 'json' : 'varchar';
    case DuckDBTypeId.BLOB:
      return 'varbinary';
    case DuckDBTypeId.DATE:
      return 'date';
    case DuckDBTypeId.TIME:
      return 'time(3)';
    case DuckDBTypeId.TIMESTAMP:
      return 'timestamp(6)';
    case DuckDBTypeId.TIMESTAMP_MS:
      return 'timestamp(3)';
    case DuckDBTypeId.TIMESTAMP_S:
      return 'timestamp(0)';
    case DuckDBTypeId.TIMESTAMP_NS:
      return 'timestamp(9)';
    case DuckDBTypeId.TIMESTAMP_TZ:
      return 'timestamp(3) with time zone';
    case DuckDBTypeId.INTERVAL:
      return 'interval day to second';
    case DuckDBTypeId.UUID:
      return 'uuid';
    case DuckDBTypeId.LIST:
      return `array(${athenaTypeName((type as DuckDBListType).valueType)})`;
    case DuckDBTypeId.ARRAY:
      return `array(${athenaTypeName((type as DuckDBArrayType).valueType)})`;
    case DuckDBTypeId.MAP: {
      const map = type as DuckDBMapType;
      return `map(${athenaTypeName(map.keyType)}, ${athenaTypeName(map.valueType)})`;
    }
    case DuckDBTypeId.STRUCT: {
      const struct = type as DuckDBStructType;
      return `row(${struct.entryNames.map((n, i) => `${n} ${athenaTypeName(struct.entryTypes[i] as DuckDBType)}`).join(', ')})`;
    }
    case DuckDBTypeId.SQLNULL:
      return 'unknown';
    default:
      return type.toString().toLowerCase();
  }
}

// Doubles, reals and decimals print as Trino (Java) prints them: one implementation, in metadata/number-text.ts.
export { javaDouble, javaFloat };

export const pad = (n: number | bigint, width: number): string => String(n).padStart(width, '0');

function civilFromDays(days: number): string {
  const date = new Date(days * 86_400_000);
  const year = date.getUTCFullYear();
  const yearText = year < 0 ? `-${pad(-year, 4)}` : pad(year, 4);
  return `${yearText}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`;
}

/** `YYYY-MM-DD HH:MM:SS[.fraction]` from microseconds since the epoch, with `digits` fractional digits (0-6). */
export function formatTimestampMicros(micros: bigint, digits = 3): string {
  const dayMicros = 86_400_000_000n;
  let days = micros / dayMicros;
  let rest = micros % dayMicros;
  if (rest < 0n) {
    rest += dayMicros;
    days -= 1n;
  }
  const seconds = Number(rest / 1_000_000n);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const fraction = pad(rest % 1_000_000n, 6).slice(0, digits);
  return `${civilFromDays(Number(days))} ${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}${digits > 0 ? `.${fraction}` : ''}`;
}

function formatInterval(value: DuckDBIntervalValue): string {
  if (value.months !== 0) return `${Math.trunc(value.months / 12)}-${Math.abs(value.months % 12)}`;
  const totalMs = BigInt(value.days) * 86_400_000n + value.micros / 1000n;
  const negative = totalMs < 0n;
  const ms = negative ? -totalMs : totalMs;
  const days = ms / 86_400_000n;
  const rest = Number(ms % 86_400_000n);
  const text = `${days} ${pad(Math.floor(rest / 3_600_000), 2)}:${pad(Math.floor((rest % 3_600_000) / 60_000), 2)}:${pad(Math.floor((rest % 60_000) / 1000), 2)}.${pad(rest % 1000, 3)}`;
  return negative ? `-${text}` : text;
}

/** One value in Athena's string encoding; `nested` values print NULL as `null` (inside arrays, maps, rows). */
export function formatValue(value: DuckDBValue, type: DuckDBType, nested = false): string | null {
  if (value === null || value === undefined) return nested ? 'null' : null;
  if (isIpAddress(type)) {
    const bytes = (value as DuckDBStructValue).entries[IPADDRESS_FIELD] as DuckDBBlobValue | null;
    return bytes ? formatIpAddress(bytes.bytes) : nested ? 'null' : null;
  }
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return value ? 'true' : 'false';
    case DuckDBTypeId.DOUBLE:
      return javaDouble(value as number);
    case DuckDBTypeId.FLOAT:
      return javaFloat(value as number);
    case DuckDBTypeId.DECIMAL:
      return formatDecimal((value as DuckDBDecimalValue).value, (value as DuckDBDecimalValue).scale);
    case DuckDBTypeId.DATE:
      return civilFromDays((value as DuckDBDateValue).days);
    case DuckDBTypeId.TIMESTAMP:
      return formatTimestampMicros((value as { micros: bigint }).micros, 6);
    case DuckDBTypeId.TIMESTAMP_TZ:
      return `${formatTimestampMicros((value as { micros: bigint }).micros, 3)} UTC`;
    case DuckDBTypeId.TIMESTAMP_MS:
      return formatTimestampMicros((value as { millis: bigint }).millis * 1000n, 3);
    case DuckDBTypeId.TIMESTAMP_S:
      return formatTimestampMicros((value as { seconds: bigint }).seconds * 1_000_000n, 0);
    case DuckDBTypeId.TIMESTAMP_NS:
      return `${formatTimestampMicros((value as { nanos: bigint }).nanos / 1000n, 6)}${pad((value as { nanos: bigint }).nanos % 1000n, 3)}`;
    case DuckDBTypeId.TIME: {
      const ms = Number((value as { micros: bigint }).micros / 1000n);
      return `${pad(Math.floor(ms / 3_600_000), 2)}:${pad(Math.floor((ms % 3_600_000) / 60_000), 2)}:${pad(Math.floor((ms % 60_000) / 1000), 2)}.${pad(ms % 1000, 3)}`;
    }
    case DuckDBTypeId.INTERVAL:
      return formatInterval(value as DuckDBIntervalValue);
    case DuckDBTypeId.BLOB:
      return Array.from((value as DuckDBBlobValue).bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY: {
      const itemType = (type as DuckDBListType | DuckDBArrayType).valueType;
      const items = (value as DuckDBListValue | DuckDBArrayValue).items;
      return `[${items.map((item) => formatValue(item, itemType, true)).join(', ')}]`;
    }
    case DuckDBTypeId.MAP: {
      const map = type as DuckDBMapType;
      const entries = (value as DuckDBMapValue).entries;
      return `{${entries.map((e) => `${formatValue(e.key, map.keyType, true)}=${formatValue(e.value, map.valueType, true)}`).join(', ')}}`;
    }
    case DuckDBTypeId.STRUCT: {
      const struct = type as DuckDBStructType;
      const entries = (value as DuckDBStructValue).entries;
      return `{${struct.entryNames.map((name, i) => `${name}=${formatValue(entries[name] ?? null, struct.entryTypes[i] as DuckDBType, true)}`).join(', ')}}`;
    }
    default:
      return String(value);
  }
}
