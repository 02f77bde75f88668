// Values of `timestamp with time zone` are instants in DuckDB (TIMESTAMPTZ); the zone Trino would display them in
// is known to the analyzer. Where Trino reads a zoned value's wall clock (hour(), date_trunc, formatting) the
// SQL reads it in that zone and, for results that stay zoned, turns the wall clock back into an instant. DuckDB's
// ICU knows named zones; fixed offsets (`+01:00`) are added as minutes.
import { sqlString as quote } from '../../duckdb/duckdb-session';
import { hasZone, type SqlType } from '../analyzer/types';

const OFFSET = /^([+-])(\d{2}):(\d{2})$/;

function fixedOffsetMinutes(zone: string): number | undefined {
  const m = OFFSET.exec(zone);
  if (!m) return undefined;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** The wall-clock TIMESTAMP of `x` where Trino reads it: in its zone when it has one, else `x` itself. */
export function localTime(x: string, type: SqlType | undefined): string {
  if (!hasZone(type)) return x;
  if (type.zone === 'UTC') return `CAST(${x} AS TIMESTAMP)`;
  const minutes = fixedOffsetMinutes(type.zone);
  if (minutes !== undefined) return `(CAST(${x} AS TIMESTAMP) + INTERVAL (${minutes}) MINUTE)`;
  return `timezone(${quote(type.zone)}, ${x})`;
}

/** The instant a wall-clock TIMESTAMP stands for in `zone`. */
export function toInstant(local: string, zone: string): string {
  if (zone === 'UTC') return `CAST(${local} AS TIMESTAMPTZ)`;
  const minutes = fixedOffsetMinutes(zone);
  if (minutes !== undefined) return `CAST(${local} - INTERVAL (${minutes}) MINUTE AS TIMESTAMPTZ)`;
  return `timezone(${quote(zone)}, ${local})`;
}

/**
 * The UTC offset, in minutes, of zoned value `x` in the zone it displays in: a constant for UTC and fixed offsets,
 * the zone's rules at that instant for a named zone (DuckDB's `%z` would print the session's, UTC's).
 */
export function offsetMinutes(x: string, type: SqlType | undefined): string {
  if (!hasZone(type)) return '0';
  if (type.zone === 'UTC') return '0';
  const fixed = fixedOffsetMinutes(type.zone);
  if (fixed !== undefined) return String(fixed);
  return `date_diff('minute', CAST(${x} AS TIMESTAMP), ${localTime(x, type)})`;
}

/**
 * The offset as Java prints it: `+hh:mm` (`colon`) or `+hhmm`; a zero offset is `Z` where `zeroAsZ` (ISO 8601,
 * Trino's to_iso8601) and `+00:00` / `+0000` otherwise (Joda's `ZZ` / `Z`).
 */
export function offsetText(
  x: string,
  type: SqlType | undefined,
  options: { colon: boolean; zeroAsZ: boolean },
): string {
  const minutes = offsetMinutes(x, type);
  const text = `printf(${quote(options.colon ? '%s%02d:%02d' : '%s%02d%02d')}, CASE WHEN (${minutes}) < 0 THEN '-' ELSE '+' END, abs(${minutes}) // 60, abs(${minutes}) % 60)`;
  return options.zeroAsZ ? `(CASE WHEN (${minutes}) = 0 THEN 'Z' ELSE ${text} END)` : text;
}

/** `.fff` with `precision` digits of a timestamp's fraction (nothing for precision 0). */
export function fraction(x: string, precision: number): string {
  if (precision <= 0) return '';
  const micros = `strftime(${x}, '%f')`;
  return precision <= 6
    ? ` || '.' || substr(${micros}, 1, ${precision})`
    : ` || '.' || ${micros} || ${quote('0'.repeat(precision - 6))}`;
}
