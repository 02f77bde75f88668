// Trino's timestamp literals, `TIMESTAMP '<date>[ <time>][ ]<zone>'`: the wall clock written, the zone that
// follows it (with or without a space: `23:15:05 +01:00`, `23:15:05+01:00`, `... UTC`, `... America/New_York`)
// and the precision, the number of fraction digits written (trinodb/trino core/trino-spi DateTimes:
// extractTimestampPrecision, and its DATETIME pattern `... (?:\s*(?<timezone>.+))?`).

export interface TimestampLiteral {
  /** `yyyy-mm-dd hh:mm:ss[.fff…]`: the wall clock, seconds always present. */
  local: string;
  /** The zone as Trino displays it (`UTC`, `+01:00`, `America/New_York`); undefined without one. */
  zone?: string;
  /** Fraction digits written: the literal is timestamp(precision). */
  precision: number;
}

const LITERAL =
  /^\s*([+-]?\d{4,}-\d{1,2}-\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d+))?)?)?\s*(.*?)\s*$/;

/** The parts of a timestamp literal's text, or undefined when it is not one. */
export function parseTimestampLiteral(value: string): TimestampLiteral | undefined {
  const m = LITERAL.exec(value);
  if (!m) return undefined;
  const [, date, hour = '0', minute = '0', second = '0', fraction = '', zone = ''] = m;
  const pad = (n: string) => n.padStart(2, '0');
  return {
    local: `${date} ${pad(hour)}:${pad(minute)}:${pad(second)}${fraction ? `.${fraction}` : ''}`,
    zone: zone ? zoneName(zone) : undefined,
    precision: fraction.length,
  };
}

/** Trino's canonical spelling of a zone written in a literal: `Z` and `utc` are UTC. */
function zoneName(zone: string): string {
  return /^(z|utc)$/i.test(zone) ? 'UTC' : zone;
}

/** Digits after the decimal point of a time literal: its precision in Trino. */
export function literalPrecision(value: string): number {
  const m = /\d{1,2}:\d{1,2}:\d{1,2}\.(\d+)/.exec(value);
  return m ? (m[1] as string).length : 0;
}
