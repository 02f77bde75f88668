// Trino functions whose DuckDB counterpart has another name, argument order or semantics. Functions not listed
// here are passed through by name (most aggregate, math and string functions are the same); a function DuckDB
// does not know then fails as FUNCTION_NOT_FOUND naming it and its position. Where Trino's meaning depends on an
// argument's type (cardinality of a map or an array, contains on a CIDR or an array) the analyzer's type decides.
import { sqlString as quote } from '../../duckdb/duckdb-session';
import { hasZone, isCharacter, typeName, type SqlType } from '../analyzer/types';
import { GenericUserError, NotSupportedError } from '../errors';
import type { Expr } from '../tree/ast';
import { cidrContainsSql } from './ip-address-sql';
import { fraction, localTime, toInstant } from './time-zones';

type Call = Extract<Expr, { k: 'func' }>;

export interface CallContext {
  /** The analyzer's types of the call's arguments (undefined where it could not tell). */
  argTypes: (SqlType | undefined)[];
  /** Inside TRY(...): a check that would raise an error yields NULL instead (DuckDB's TRY refuses error()). */
  inTry: boolean;
}

type Translator = (args: string[], node: Call, ctx: CallContext) => string;

/** error(message) where Trino raises an error, NULL inside TRY. */
export function raise(ctx: { inTry: boolean }, message: string): string {
  return ctx.inTry ? 'NULL' : `error(${message})`;
}

const renamed: Record<string, string> = {
  approx_distinct: 'approx_count_distinct',
  approx_percentile: 'approx_quantile',
  arbitrary: 'any_value',
  array_distinct: 'list_distinct',
  array_sort: 'list_sort',
  array_max: 'list_max',
  array_min: 'list_min',
  array_position: 'list_position',
  array_has: 'list_contains',
  array_intersect: 'list_intersect',
  arrays_overlap: 'list_has_any',
  filter: 'list_filter',
  transform: 'list_transform',
  split: 'string_split',
  regexp_like: 'regexp_matches',
  day_of_week: 'isodow',
  dow: 'isodow',
  day_of_year: 'dayofyear',
  doy: 'dayofyear',
  week_of_year: 'week',
  day_of_month: 'day',
  truncate: 'trunc',
  json_extract_scalar: 'json_extract_string',
  to_unixtime: 'epoch',
  codepoint: 'unicode',
  rand: 'random',
  max_by: 'arg_max',
  min_by: 'arg_min',
  listagg: 'string_agg',
  levenshtein_distance: 'levenshtein',
  hamming_distance: 'hamming',
  bool_and: 'bool_and',
  every: 'bool_and',
  regexp_extract_all: 'regexp_extract_all',
};

const INTERVAL_UNITS = new Set([
  'millisecond',
  'second',
  'minute',
  'hour',
  'day',
  'week',
  'month',
  'quarter',
  'year',
]);

function literalArg(node: Call, index: number): string | undefined {
  const arg = node.args[index];
  return arg?.k === 'string' ? arg.value : undefined;
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

/** Joda patterns (format_datetime) → strftime, for the common letters. */
function jodaToStrftime(format: string): string {
  return format.replace(
    /yyyy|yy|MMMM|MMM|MM|M|dd|d|HH|H|hh|h|mm|m|ss|s|SSS|EEEE|EEE|a|ZZ|Z|'[^']*'/g,
    (token) =>
      token.startsWith("'")
        ? token.slice(1, -1).replace(/%/g, '%%')
        : ({
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
            ZZ: '%z',
            Z: '%z',
          }[token] ?? token),
  );
}

/** The literal unit (first argument) of date_add / date_diff / date_trunc. */
function unitArg(node: Call): string {
  const unit = literalArg(node, 0)?.toLowerCase();
  if (!unit || !INTERVAL_UNITS.has(unit))
    throw new NotSupportedError(`${node.name} with a non-literal or unknown unit`, node.pos);
  return unit;
}

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

/** NULL when any argument is NULL (Trino's greatest/least; DuckDB's skip NULLs). */
const nullIfAnyNull =
  (duckdb: string): Translator =>
  (args) =>
    `(CASE WHEN ${args.map((a) => `(${a}) IS NULL`).join(' OR ')} THEN NULL ELSE ${duckdb}(${args.join(', ')}) END)`;

/** Trino's ISO 8601 text: the value's precision, `Z` for UTC, the offset for other zones. */
function toIso8601(x: string, type: SqlType | undefined): string {
  if (type?.k === 'date') return `strftime(${x}, '%Y-%m-%d')`;
  const precision = type?.k === 'timestamp' ? type.precision : 3;
  const local = localTime(x, type);
  const body = `strftime(${local}, '%Y-%m-%dT%H:%M:%S')${fraction(local, precision)}`;
  if (!hasZone(type)) return type?.k === 'timestamp' ? body : `replace(CAST(${x} AS VARCHAR), ' ', 'T')`;
  if (type.zone === 'UTC') return `(${body} || 'Z')`;
  if (/^[+-]\d{2}:\d{2}$/.test(type.zone)) return `(${body} || ${quote(type.zone)})`;
  return `(${body} || strftime(${x}, '%z'))`;
}

const special: Record<string, Translator> = {
  from_iso8601_timestamp: ([s]) => `CAST(${s} AS TIMESTAMPTZ)`,
  from_iso8601_date: ([s]) => `CAST(${s} AS DATE)`,
  to_iso8601: ([x], _node, ctx) => toIso8601(x as string, ctx.argTypes[0]),
  date_add: (args, node, ctx) => {
    const unit = unitArg(node);
    const zoned = ctx.argTypes[2];
    const sum = `(${localTime(args[2] as string, zoned)} + CAST(${args[1]} AS BIGINT) * INTERVAL 1 ${unit})`;
    return hasZone(zoned) ? toInstant(sum, zoned.zone) : sum;
  },
  // Trino counts whole units elapsed; DuckDB's date_sub does the same (date_diff counts boundaries).
  date_diff: (args, node) => `date_sub(${quote(unitArg(node))}, ${args[1]}, ${args[2]})`,
  date_trunc: (args, node, ctx) => {
    const zoned = ctx.argTypes[1];
    const truncated = `date_trunc(${quote(unitArg(node))}, ${localTime(args[1] as string, zoned)})`;
    if (hasZone(zoned)) return toInstant(truncated, zoned.zone);
    // A date stays a date (DuckDB would widen it to a timestamp).
    return ctx.argTypes[1]?.k === 'date' ? `CAST(${truncated} AS DATE)` : truncated;
  },
  date_format: withFormat('strftime', mysqlToStrftime),
  format_datetime: withFormat('strftime', jodaToStrftime),
  date_parse: withFormat('strptime', mysqlToStrftime),
  year: inZone('year'),
  quarter: inZone('quarter'),
  month: inZone('month'),
  week: inZone('week'),
  week_of_year: inZone('week'),
  day: inZone('day'),
  day_of_month: inZone('day'),
  day_of_week: inZone('isodow'),
  dow: inZone('isodow'),
  day_of_year: inZone('dayofyear'),
  doy: inZone('dayofyear'),
  hour: inZone('hour'),
  minute: inZone('minute'),
  second: inZone('second'),
  millisecond: ([x], _node, ctx) => `(millisecond(${localTime(x as string, ctx.argTypes[0])}) % 1000)`,
  year_of_week: inZone('isoyear'),
  yow: inZone('isoyear'),
  date: ([x], _node, ctx) => `CAST(${localTime(x as string, ctx.argTypes[0])} AS DATE)`,
  last_day_of_month: ([x], _node, ctx) => `last_day(${localTime(x as string, ctx.argTypes[0])})`,
  from_unixtime: ([x]) => `to_timestamp(${x})`,
  regexp_extract: (args) => {
    // Trino returns NULL when nothing matches; DuckDB returns ''.
    const group = args[2] ?? '0';
    return `CASE WHEN regexp_matches(${args[0]}, ${args[1]}) THEN regexp_extract(${args[0]}, ${args[1]}, ${group}) END`;
  },
  regexp_replace: (args, node) => {
    // Trino replaces every match and writes groups as $1; DuckDB needs 'g' and \1.
    if (node.args[2]?.k === 'lambda') throw new NotSupportedError('regexp_replace with a lambda', node.pos);
    const replacement =
      node.args[2]?.k === 'string' ? quote(node.args[2].value.replace(/\$(\d)/g, '\\$1')) : (args[2] ?? "''");
    return `regexp_replace(${args[0]}, ${args[1]}, ${replacement}, 'g')`;
  },
  regexp_count: ([s, p]) => `len(regexp_extract_all(${s}, ${p}))`,
  regexp_position: ([s, p, start]) => {
    // Trino: 1-based index of the first match at or after `start`, -1 when none.
    const from = start ?? '1';
    const tail = `substr(${s}, ${from})`;
    return `(CASE WHEN regexp_matches(${tail}, ${p}) THEN CAST(strpos(${tail}, regexp_extract(${tail}, ${p})) + ${from} - 1 AS INTEGER) ELSE -1 END)`;
  },
  // NULL for a missing key or an index past the end (DuckDB's subscript), unlike Trino's [] operator.
  element_at: ([a, i]) => `${a}[${i}]`,
  cardinality: ([x], _node, ctx) =>
    ctx.argTypes[0]?.k === 'map' ? `CAST(cardinality(${x}) AS BIGINT)` : `len(${x})`,
  contains: (args, node, ctx) => {
    const [network, address] = ctx.argTypes;
    const cidr = network ? isCharacter(network) : node.args[0]?.k === 'string';
    if (!cidr) return `list_contains(${args[0]}, ${args[1]})`;
    if (address && address.k !== 'ipaddress') {
      throw new GenericUserError(
        'FUNCTION_NOT_FOUND',
        `Unexpected parameters (${typeName(network ?? { k: 'varchar' })}, ${typeName(address)}) for function contains. Expected: contains(array(T), T), contains(varchar, ipaddress)`,
        { position: node.pos, value: 'contains' },
      );
    }
    return cidrContainsSql(args[0] as string, args[1] as string);
  },
  array_join: ([a, d, replacement]) =>
    replacement === undefined
      ? `array_to_string(${a}, ${d})`
      : `array_to_string(list_transform(${a}, x -> coalesce(CAST(x AS VARCHAR), ${replacement})), ${d})`,
  split_part: ([s, d, i], _node, ctx) =>
    // Trino: NULL past the last field, an error for an index below 1.
    `(CASE WHEN (${i}) < 1 THEN ${raise(ctx, quote('Index must be greater than zero'))} WHEN (${i}) > len(string_split(${s}, ${d})) THEN NULL ELSE split_part(${s}, ${d}, ${i}) END)`,
  greatest: nullIfAnyNull('greatest'),
  least: nullIfAnyNull('least'),
  histogram: ([x]) => {
    // DuckDB counts in UBIGINT; Trino's histogram values are bigint.
    const h = `histogram(${x})`;
    return `map(map_keys(${h}), list_transform(map_values(${h}), v -> CAST(v AS BIGINT)))`;
  },
  try: ([x]) => `try(${x})`,
  mod: ([a, b]) => `(${a} % ${b})`,
  if: ([c, a, b]) => `CASE WHEN ${c} THEN ${a}${b === undefined ? '' : ` ELSE ${b}`} END`,
  bitwise_and: ([a, b]) => `(${a} & ${b})`,
  bitwise_or: ([a, b]) => `(${a} | ${b})`,
  bitwise_xor: ([a, b]) => `xor(${a}, ${b})`,
  concat: (args, _node, ctx) =>
    ctx.argTypes[0]?.k === 'array' ? `list_concat(${args.join(', ')})` : `concat(${args.join(', ')})`,
  reverse: ([x], _node, ctx) => (ctx.argTypes[0]?.k === 'array' ? `list_reverse(${x})` : `reverse(${x})`),
  array_remove: ([a, x]) => `list_filter(${a}, e -> e IS DISTINCT FROM ${x})`,
  array_union: ([a, b]) => `list_distinct(list_concat(${a}, ${b}))`,
  array_except: ([a, b]) => `list_distinct(list_filter(${a}, e -> NOT list_contains(${b}, e)))`,
  slice: ([a, start, length]) => `list_slice(${a}, ${start}, ${start} + ${length} - 1)`,
  trim_array: ([a, n]) => `list_slice(${a}, 1, len(${a}) - ${n})`,
  any_match: ([a, f]) => `list_bool_or(list_transform(${a}, ${f}))`,
  all_match: ([a, f]) => `list_bool_and(list_transform(${a}, ${f}))`,
  none_match: ([a, f]) => `NOT list_bool_or(list_transform(${a}, ${f}))`,
  sequence: (args) => `generate_series(${args.join(', ')})`,
  format: (args) => `printf(${args.join(', ')})`,
  strpos: (args, node) => {
    if (args.length > 2) throw new NotSupportedError('strpos with an instance argument', node.pos);
    return `strpos(${args.join(', ')})`;
  },
  // Trino's type names where the analyzer knows the type (typeof('cat') is varchar(3)), else DuckDB's.
  typeof: ([x], _node, ctx) => {
    const type = ctx.argTypes[0];
    return type && type.k !== 'unknown' ? quote(typeName(type)) : `lower(typeof(${x}))`;
  },
};

const unsupported = new Set([
  'map_agg',
  'multimap_agg',
  'reduce',
  'zip_with',
  'ip_prefix',
  'contains_sequence',
  'checksum',
  'learn_classifier',
  'map_zip_with',
  'transform_keys',
  'transform_values',
  'multimap_from_entries',
]);

/** DuckDB SQL for a call of Trino function `name` (arguments already translated). */
export function translateFunctionCall(node: Call, args: string[], ctx: CallContext): string {
  const name = node.name;
  if (unsupported.has(name)) throw new NotSupportedError(`Function ${name}`, node.pos);
  const translate = special[name];
  if (translate) return translate(args, node, ctx);
  const target = renamed[name] ?? name;
  const distinct = node.distinct ? 'DISTINCT ' : '';
  return `${target}(${distinct}${args.join(', ')})`;
}

/** The DuckDB name of a Trino function called with plain arguments (for calls with ORDER BY / IGNORE NULLS). */
export function duckdbFunctionName(node: Call): string {
  if (unsupported.has(node.name) || (node.name in special && !['histogram'].includes(node.name))) {
    throw new NotSupportedError(`Function ${node.name} with ORDER BY or IGNORE NULLS`, node.pos);
  }
  return renamed[node.name] ?? node.name;
}
