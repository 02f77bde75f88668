// Trino's date and time functions (https://trino.io/docs/current/functions/datetime.html) as DuckDB SQL. A zoned
// value is an instant (TIMESTAMPTZ) whose display zone the analyzer knows: fields, truncation and formatting read
// its wall clock in that zone (time-zones.ts), offsets are that zone's at the instant.
import { sqlString as quote } from '../../duckdb/duckdb-session';
import { BIGINT, DATE, DOUBLE, VARCHAR, hasZone, type SqlType } from '../analyzer/types';
import { GenericUserError, NotSupportedError } from '../errors';
import {
  literalArg,
  raise,
  type Call,
  type FunctionFamily,
  type Translator,
  type TypeRule,
} from './function';
import { fraction, localTime, offsetMinutes, offsetText, toInstant } from './time-zones';

/** Units of date_add / date_diff / date_trunc on a timestamp; a date takes the calendar ones, a time the clock's. */
const TIMESTAMP_UNITS = [
  'millisecond',
  'second',
  'minute',
  'hour',
  'day',
  'week',
  'month',
  'quarter',
  'year',
];
const DATE_UNITS = ['day', 'week', 'month', 'quarter', 'year'];
const TIME_UNITS = ['millisecond', 'second', 'minute', 'hour'];

/**
 * The literal unit (first argument) of date_add / date_diff / date_trunc; a unit the value's type has not is
 * Trino's INVALID_FUNCTION_ARGUMENT (DateTimeFunctions.getDateField: `'hour' is not a valid DATE field`).
 */
function unitArg(node: Call, type: SqlType | undefined): string {
  const unit = literalArg(node, 0)?.toLowerCase();
  if (unit === undefined) throw new NotSupportedError(`${node.name} with a non-literal unit`, node.pos);
  const valid = type?.k === 'date' ? DATE_UNITS : type?.k === 'time' ? TIME_UNITS : TIMESTAMP_UNITS;
  if (!valid.includes(unit)) {
    const field = type?.k === 'date' ? 'DATE' : type?.k === 'time' ? 'TIME' : 'Timestamp';
    throw new GenericUserError(
      'INVALID_FUNCTION_ARGUMENT',
      `'${literalArg(node, 0)}' is not a valid ${field} field`,
      {
        position: node.pos,
        value: unit,
      },
    );
  }
  return unit;
}

/** MySQL-style date_format patterns → strftime. */
function mysqlToStrftime(format: string): string {
  const map: Record<string, string> = {
    i: '%M',
    s: '%S',
    S: '%S',
    T: '%H:%M:%S',
    k: '%-H',
    h: '%I',
    l: '%-I',
    M: '%B',
    W: '%A',
    e: '%-d',
    c: '%-m',
    f: '%f',
    r: '%I:%M:%S %p',
    v: '%V',
    x: '%G',
  };
  return format.replace(/%([A-Za-z%])/g, (all, c: string) => map[c] ?? all);
}

const JODA_STRFTIME: Record<string, string> = {
  yyyy: '%Y',
  yy: '%y',
  MMMM: '%B',
  MMM: '%b',
  MM: '%m',
  M: '%-m',
  dd: '%d',
  d: '%-d',
  HH: '%H',
  H: '%-H',
  hh: '%I',
  h: '%-I',
  mm: '%M',
  m: '%-M',
  ss: '%S',
  s: '%-S',
  SSS: '%g',
  EEEE: '%A',
  EEE: '%a',
  a: '%p',
};

/** A piece of a Joda pattern: strftime text, the zone's offset (`Z` +hhmm, `ZZ` +hh:mm) or its id (`ZZZ`). */
type JodaPiece = { strftime: string } | { offset: 'Z' | 'ZZ' } | { zoneId: true };

/** Joda patterns (format_datetime) → strftime text around the zone's offset and id, for the common letters. */
export function jodaPieces(format: string): JodaPiece[] {
  const pieces: JodaPiece[] = [];
  let text = '';
  const flush = () => {
    if (text) pieces.push({ strftime: text });
    text = '';
  };
  const tokens = /yyyy|yy|MMMM|MMM|MM|M|dd|d|HH|H|hh|h|mm|m|ss|s|SSS|EEEE|EEE|a|Z{3,}|ZZ|Z|'[^']*'|[^']/g;
  for (const [token] of format.matchAll(tokens)) {
    if (token.startsWith("'")) text += token.length === 2 ? "'" : token.slice(1, -1).replace(/%/g, '%%');
    else if (token.startsWith('Z')) {
      flush();
      pieces.push(token.length >= 3 ? { zoneId: true } : { offset: token as 'Z' | 'ZZ' });
    } else text += JODA_STRFTIME[token] ?? token.replace(/%/g, '%%');
  }
  flush();
  return pieces;
}

/** format_datetime(x, pattern): Joda's pattern over the wall clock in x's zone, with that zone's offset. */
const formatDatetime: Translator = ([x], node, ctx) => {
  const format = literalArg(node, 1);
  if (format === undefined) throw new NotSupportedError(`${node.name} with a non-literal format`, node.pos);
  const type = ctx.argTypes[0];
  const local = localTime(x as string, type);
  const parts = jodaPieces(format).map((piece) => {
    if ('strftime' in piece) return `strftime(${local}, ${quote(piece.strftime)})`;
    if ('offset' in piece)
      return offsetText(x as string, type, { colon: piece.offset === 'ZZ', zeroAsZ: false });
    return quote(hasZone(type) ? type.zone : 'UTC');
  });
  return parts.length === 0 ? "''" : `(${parts.join(' || ')})`;
};

/**
 * parse_datetime(s, pattern): the text read with Joda's pattern, a timestamp(3) with time zone (an offset in the
 * text is honoured; the value then displays in UTC, where Trino keeps the parsed zone).
 */
const parseDatetime: Translator = ([s], node) => {
  const format = literalArg(node, 1);
  if (format === undefined) throw new NotSupportedError(`${node.name} with a non-literal format`, node.pos);
  const pieces = jodaPieces(format);
  if (pieces.some((p) => 'zoneId' in p))
    throw new NotSupportedError('parse_datetime with a zone id in the pattern (ZZZ)', node.pos);
  const pattern = pieces.map((p) => ('strftime' in p ? p.strftime : '%z')).join('');
  return `CAST(strptime(${s}, ${quote(pattern)}) AS TIMESTAMPTZ)`;
};

/** A call whose second argument is a literal pattern, rewritten as DuckDB's `strftime`/`strptime` pattern. */
function withFormat(duckdb: 'strftime' | 'strptime', convert: (format: string) => string): Translator {
  return (args, node, ctx) => {
    const format = literalArg(node, 1);
    if (format === undefined) throw new NotSupportedError(`${node.name} with a non-literal format`, node.pos);
    const value = duckdb === 'strftime' ? localTime(args[0] as string, ctx.argTypes[0]) : args[0];
    return `${duckdb}(${value}, ${quote(convert(format))})`;
  };
}

/** Field extraction (hour, day...) reads a zoned value's wall clock in its zone, as Trino does. */
const inZone =
  (duckdb: string): Translator =>
  ([x], _node, ctx) =>
    `${duckdb}(${localTime(x as string, ctx.argTypes[0])})`;

/** Trino's ISO 8601 text: the value's precision, `Z` for a zero offset, the zone's offset at the instant otherwise. */
function toIso8601(x: string, type: SqlType | undefined): string {
  if (type?.k === 'date') return `strftime(${x}, '%Y-%m-%d')`;
  const precision = type?.k === 'timestamp' ? type.precision : 3;
  const local = localTime(x, type);
  const body = `strftime(${local}, '%Y-%m-%dT%H:%M:%S')${fraction(local, precision)}`;
  if (!hasZone(type)) return type?.k === 'timestamp' ? body : `replace(CAST(${x} AS VARCHAR), ' ', 'T')`;
  return `(${body} || ${offsetText(x, type, { colon: true, zeroAsZ: true })})`;
}

/** Trino's ISO 8601 dates: calendar (2020-05-11), week (2020-W10, 2020-W10-2) and ordinal (2020-123) forms. */
function fromIso8601Date(s: string): string {
  const year = `CAST(substr(${s}, 1, 4) AS INTEGER)`;
  const jan4 = `make_date(${year}, 1, 4)`;
  const week = `CAST(substr(${s}, 7, 2) AS INTEGER)`;
  const day = `coalesce(CAST(nullif(substr(${s}, 10, 1), '') AS INTEGER), 1)`;
  // ISO week 1 is the week with January 4th; its Monday is January 4th less its ISO weekday, plus one.
  const weekDate = `CAST(${jan4} - INTERVAL (isodow(${jan4}) - 1) DAY + INTERVAL ((${week} - 1) * 7 + ${day} - 1) DAY AS DATE)`;
  return (
    `(CASE WHEN regexp_matches(${s}, '^\\d{4}-W\\d{2}(-\\d)?$') THEN ${weekDate} ` +
    `WHEN regexp_matches(${s}, '^\\d{4}-\\d{3}$') THEN CAST(strptime(${s}, '%Y-%j') AS DATE) ` +
    `ELSE CAST(${s} AS DATE) END)`
  );
}

/** Milliseconds in each unit parse_duration reads (the page's table: ns, us, ms, s, m, h, d). */
const DURATION_UNITS: [string, number][] = [
  ['ns', 1e-6],
  ['us', 1e-3],
  ['ms', 1],
  ['s', 1000],
  ['m', 60_000],
  ['h', 3_600_000],
  ['d', 86_400_000],
];

/** parse_duration('42.8ms'): a fractional number of a unit, as a day-to-second interval of whole milliseconds. */
const parseDuration: Translator = ([s], _node, ctx) => {
  const pattern = quote('^\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([a-z]+)\\s*$');
  const number = `CAST(regexp_extract(${s}, ${pattern}, 1) AS DOUBLE)`;
  const unit = `regexp_extract(${s}, ${pattern}, 2)`;
  const factor = `(CASE ${unit} ${DURATION_UNITS.map(([u, ms]) => `WHEN '${u}' THEN ${ms}`).join(' ')} END)`;
  const invalid = raise(ctx, `'duration is not a valid data duration string: ' || ${s}`);
  return `(CASE WHEN ${factor} IS NULL THEN ${invalid} ELSE to_milliseconds(CAST(round(${number} * ${factor}) AS BIGINT)) END)`;
};

/** human_readable_seconds(96): `1 minute, 36 seconds` (weeks, days, hours, minutes and seconds that are not 0). */
const humanReadableSeconds: Translator = ([x]) => {
  const total = `CAST(round(abs(${x})) AS BIGINT)`;
  const parts: [string, string][] = [
    [`${total} // 604800`, 'week'],
    [`${total} % 604800 // 86400`, 'day'],
    [`${total} % 86400 // 3600`, 'hour'],
    [`${total} % 3600 // 60`, 'minute'],
    [`${total} % 60`, 'second'],
  ];
  const texts = parts.map(
    ([n, unit]) =>
      `(CASE WHEN (${n}) > 0 THEN CAST(${n} AS VARCHAR) || ' ${unit}' || (CASE WHEN (${n}) = 1 THEN '' ELSE 's' END) END)`,
  );
  return `(CASE WHEN ${total} = 0 THEN '0 seconds' ELSE array_to_string(list_filter([${texts.join(', ')}], t -> t IS NOT NULL), ', ') END)`;
};

/** A timestamp in the zone the second argument names, at the first's precision (at_timezone, with_timezone). */
const inNamedZone: TypeRule = ([a0], e) => {
  const zone = e.args[1]?.k === 'string' ? e.args[1].value : undefined;
  return zone === undefined
    ? undefined
    : { k: 'timestamp', precision: a0?.k === 'timestamp' ? a0.precision : 3, zone };
};

export const DATE_TIME_FUNCTIONS: FunctionFamily = {
  // The same instant, shown in another zone (the analyzer's type carries the zone).
  at_timezone: { returns: inNamedZone, sql: ([x]) => `CAST(${x} AS TIMESTAMPTZ)` },
  // Athena's session zone is UTC.
  current_timezone: { returns: VARCHAR, sql: () => "'UTC'" },
  date: {
    returns: DATE,
    sql: ([x], _node, ctx) => `CAST(${localTime(x as string, ctx.argTypes[0])} AS DATE)`,
  },
  date_add: {
    returns: ([, , a2]) => a2,
    sql: (args, node, ctx) => {
      const value = ctx.argTypes[2];
      const unit = unitArg(node, value);
      const sum = `(${localTime(args[2] as string, value)} + CAST(${args[1]} AS BIGINT) * INTERVAL 1 ${unit})`;
      if (hasZone(value)) return toInstant(sum, value.zone);
      // A date stays a date (DuckDB's date + interval is a timestamp).
      return value?.k === 'date' ? `CAST(${sum} AS DATE)` : sum;
    },
  },
  // Trino counts whole units elapsed; DuckDB's date_sub does the same (date_diff counts boundaries).
  date_diff: {
    returns: BIGINT,
    sql: (args, node, ctx) => `date_sub(${quote(unitArg(node, ctx.argTypes[1]))}, ${args[1]}, ${args[2]})`,
  },
  date_format: { returns: VARCHAR, sql: withFormat('strftime', mysqlToStrftime) },
  date_parse: { returns: { k: 'timestamp', precision: 3 }, sql: withFormat('strptime', mysqlToStrftime) },
  date_trunc: {
    returns: ([, a1]) => a1,
    sql: (args, node, ctx) => {
      const value = ctx.argTypes[1];
      const truncated = `date_trunc(${quote(unitArg(node, value))}, ${localTime(args[1] as string, value)})`;
      if (hasZone(value)) return toInstant(truncated, value.zone);
      // A date stays a date (DuckDB would widen it to a timestamp).
      return value?.k === 'date' ? `CAST(${truncated} AS DATE)` : truncated;
    },
  },
  day: { returns: BIGINT, sql: inZone('day') },
  day_of_month: { returns: BIGINT, sql: inZone('day') },
  day_of_week: { returns: BIGINT, sql: inZone('isodow') },
  day_of_year: { returns: BIGINT, sql: inZone('dayofyear') },
  dow: { returns: BIGINT, sql: inZone('isodow') },
  doy: { returns: BIGINT, sql: inZone('dayofyear') },
  format_datetime: { returns: VARCHAR, sql: formatDatetime },
  from_iso8601_date: { returns: DATE, sql: ([s]) => fromIso8601Date(s as string) },
  from_iso8601_timestamp: {
    returns: (_args, e) => {
      const text = e.args[0]?.k === 'string' ? e.args[0].value : undefined;
      const offset = text === undefined ? undefined : /(?:[+-]\d{2}:?\d{2}|Z)$/i.exec(text.trim())?.[0];
      const zone = offset === undefined || /^z$/i.test(offset) ? 'UTC' : offset;
      return text === undefined ? undefined : { k: 'timestamp', precision: 3, zone };
    },
    sql: ([s]) => `CAST(${s} AS TIMESTAMPTZ)`,
  },
  from_iso8601_timestamp_nanos: {},
  from_unixtime: {
    returns: (_args, e) => ({
      k: 'timestamp',
      precision: 3,
      zone: e.args[1]?.k === 'string' ? e.args[1].value : 'UTC',
    }),
    sql: ([x]) => `to_timestamp(${x})`,
  },
  // Nanoseconds since the epoch, kept to the nanosecond (DuckDB's TIMESTAMP_NS; the analyzer's type says UTC).
  from_unixtime_nanos: {
    returns: { k: 'timestamp', precision: 9, zone: 'UTC' },
    sql: ([x]) => `make_timestamp_ns(CAST(${x} AS BIGINT))`,
  },
  hour: { returns: BIGINT, sql: inZone('hour') },
  human_readable_seconds: { returns: VARCHAR, sql: humanReadableSeconds },
  last_day_of_month: {
    returns: DATE,
    sql: ([x], _node, ctx) => `last_day(${localTime(x as string, ctx.argTypes[0])})`,
  },
  millisecond: {
    returns: BIGINT,
    sql: ([x], _node, ctx) => `(millisecond(${localTime(x as string, ctx.argTypes[0])}) % 1000)`,
  },
  minute: { returns: BIGINT, sql: inZone('minute') },
  month: { returns: BIGINT, sql: inZone('month') },
  now: { returns: { k: 'timestamp', precision: 3, zone: 'UTC' } },
  parse_datetime: { returns: { k: 'timestamp', precision: 3, zone: 'UTC' }, sql: parseDatetime },
  parse_duration: { returns: { k: 'interval day to second' }, sql: parseDuration },
  quarter: { returns: BIGINT, sql: inZone('quarter') },
  second: { returns: BIGINT, sql: inZone('second') },
  timezone: {
    returns: VARCHAR,
    sql: (args, node, ctx) => {
      const type = ctx.argTypes[0];
      if (args.length === 1 && hasZone(type)) return quote(type.zone);
      throw new NotSupportedError('timezone() of a value whose zone is only known at run time', node.pos);
    },
  },
  timezone_hour: {
    returns: BIGINT,
    sql: ([x], _node, ctx) => `CAST((${offsetMinutes(x as string, ctx.argTypes[0])}) // 60 AS BIGINT)`,
  },
  timezone_minute: {
    returns: BIGINT,
    sql: ([x], _node, ctx) => `CAST((${offsetMinutes(x as string, ctx.argTypes[0])}) % 60 AS BIGINT)`,
  },
  to_char: {},
  to_date: {},
  to_iso8601: { returns: VARCHAR, sql: ([x], _node, ctx) => toIso8601(x as string, ctx.argTypes[0]) },
  // Milliseconds in a day-to-second interval (DuckDB's to_milliseconds makes an interval of a number).
  to_milliseconds: { returns: BIGINT, sql: ([x]) => `epoch_ms(TIMESTAMP '1970-01-01 00:00:00' + ${x})` },
  to_timestamp: {},
  to_unixtime: { returns: DOUBLE, sql: 'epoch' },
  week: { returns: BIGINT, sql: inZone('week') },
  week_of_year: { returns: BIGINT, sql: inZone('week') },
  // The same wall clock, read in another zone.
  with_timezone: {
    returns: inNamedZone,
    sql: ([x], node) => {
      const zone = literalArg(node, 1);
      if (zone === undefined) throw new NotSupportedError('with_timezone with a non-literal zone', node.pos);
      return toInstant(`CAST(${x} AS TIMESTAMP)`, zone);
    },
  },
  year: { returns: BIGINT, sql: inZone('year') },
  year_of_week: { returns: BIGINT, sql: inZone('isoyear') },
  yow: { returns: BIGINT, sql: inZone('isoyear') },
};
