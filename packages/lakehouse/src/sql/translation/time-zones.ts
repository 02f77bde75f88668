// Values of `timestamp with time zone` are instants in DuckDB (TIMESTAMPTZ); the zone Trino would display them in
// is known to the analyzer. Where Trino reads a zoned value's wall clock (hour(), date_trunc, formatting) the
// SQL reads it in that zone and, for results that stay zoned, turns the wall clock back into an instant. DuckDB's
// ICU knows named zones; fixed offsets (`+01:00`) are added as minutes.
import { sqlString as quote } from '../../duckdb/duckdb-session';
import { hasZone, type SqlType } from '../analyzer/types';

const OFFSET = /^([+-])(\d{2}):(\d{2})$/;

function offsetMinutes(zone: string): number | undefined {
  const m = OFFSET.exec(zone);
  if (!m) return undefined;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** The wall-clock TIMESTAMP of `x` where Trino reads it: in its zone when it has one, else `x` itself. */
export function localTime(x: string, type: SqlType | undefined): string {
  if (!hasZone(type)) return x;
  if (type.zone === 'UTC') return `CAST(${x} AS TIMESTAMP)`;
  const minutes = offsetMinutes(type.zone);
  if (minutes !== undefined) return `(CAST(${x} AS TIMESTAMP) + INTERVAL (${minutes}) MINUTE)`;
  return `timezone(${quote(type.zone)}, ${x})`;
}

/** The instant a wall-clock TIMESTAMP stands for in `zone`. */
export function toInstant(local: string, zone: string): string {
  if (zone === 'UTC') return `CAST(${local} AS TIMESTAMPTZ)`;
  const minutes = offsetMinutes(zone);
  if (minutes !== undefined) return `CAST(${local} - INTERVAL (${minutes}) MINUTE AS TIMESTAMPTZ)`;
  return `timezone(${quote(zone)}, ${local})`;
}

/** `.fff` with `precision` digits of a timestamp's fraction (nothing for precision 0). */
export function fraction(x: string, precision: number): string {
  if (precision <= 0) return '';
  const micros = `strftime(${x}, '%f')`;
  return precision <= 6
    ? ` || '.' || substr(${micros}, 1, ${precision})`
    : ` || '.' || ${micros} || ${quote('0'.repeat(precision - 6))}`;
}
