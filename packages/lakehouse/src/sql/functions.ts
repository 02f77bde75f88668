// Trino functions whose DuckDB counterpart has another name, argument order or semantics. Functions not listed
// here are passed through by name (most aggregate, math and string functions are the same); a function DuckDB
// does not know then fails as FUNCTION_NOT_FOUND naming it and its position.
import { sqlString as quote } from '../duckdb/duckdb-session';
import type { Expr } from './ast';
import { NotSupportedError } from './errors';

type Translator = (args: string[], node: Extract<Expr, { k: 'func' }>) => string;

const renamed: Record<string, string> = {
  cardinality: 'len',
  approx_distinct: 'approx_count_distinct',
  approx_percentile: 'approx_quantile',
  arbitrary: 'any_value',
  array_join: 'array_to_string',
  contains: 'list_contains',
  array_distinct: 'list_distinct',
  array_sort: 'list_sort',
  array_max: 'list_max',
  array_min: 'list_min',
  array_position: 'list_position',
  array_has: 'list_contains',
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
  sequence: 'generate_series',
  json_extract_scalar: 'json_extract_string',
  to_unixtime: 'epoch',
  from_unixtime: 'to_timestamp',
  codepoint: 'unicode',
  rand: 'random',
  max_by: 'arg_max',
  min_by: 'arg_min',
  format: 'printf',
  listagg: 'string_agg',
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

function literalArg(node: Extract<Expr, { k: 'func' }>, index: number): string | undefined {
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
  };
  return format.replace(/%([A-Za-z%])/g, (all, c: string) => map[c] ?? all);
}

/** Joda patterns (format_datetime) → strftime, for the common letters. */
function jodaToStrftime(format: string): string {
  return format
    .replace(/yyyy/g, '%Y')
    .replace(/yy/g, '%y')
    .replace(/MMMM/g, '%B')
    .replace(/MMM/g, '%b')
    .replace(/MM/g, '%m')
    .replace(/dd/g, '%d')
    .replace(/HH/g, '%H')
    .replace(/hh/g, '%I')
    .replace(/mm/g, '%M')
    .replace(/ss/g, '%S')
    .replace(/SSS/g, '%g')
    .replace(/EEEE/g, '%A')
    .replace(/EEE/g, '%a')
    .replace(/a/g, '%p');
}

/** The literal unit (first argument) of date_add / date_diff. */
function unitArg(node: Extract<Expr, { k: 'func' }>): string {
  const unit = literalArg(node, 0)?.toLowerCase();
  if (!unit || !INTERVAL_UNITS.has(unit))
    throw new NotSupportedError(`${node.name} with a non-literal or unknown unit`, node.pos);
  return unit;
}

/** A call whose second argument is a literal pattern, rewritten as DuckDB's `strftime`/`strptime` pattern. */
function withFormat(duckdb: 'strftime' | 'strptime', convert: (format: string) => string): Translator {
  return (args, node) => {
    const format = literalArg(node, 1);
    if (format === undefined) throw new NotSupportedError(`${node.name} with a non-literal format`, node.pos);
    return `${duckdb}(${args[0]}, ${quote(convert(format))})`;
  };
}

const special: Record<string, Translator> = {
  from_iso8601_timestamp: ([s]) => `CAST(${s} AS TIMESTAMPTZ)`,
  from_iso8601_date: ([s]) => `CAST(${s} AS DATE)`,
  to_iso8601: ([x]) => `replace(CAST(${x} AS VARCHAR), ' ', 'T')`,
  date_add: (args, node) => `(${args[2]} + CAST(${args[1]} AS BIGINT) * INTERVAL 1 ${unitArg(node)})`,
  // Trino counts whole units elapsed; DuckDB's date_sub does the same (date_diff counts boundaries).
  date_diff: (args, node) => `date_sub(${quote(unitArg(node))}, ${args[1]}, ${args[2]})`,
  date_format: withFormat('strftime', mysqlToStrftime),
  format_datetime: withFormat('strftime', jodaToStrftime),
  date_parse: withFormat('strptime', mysqlToStrftime),
  regexp_extract: (args) => {
    // Trino returns NULL when nothing matches; DuckDB returns ''.
    const group = args[2] ?? '0';
    return `CASE WHEN regexp_matches(${args[0]}, ${args[1]}) THEN regexp_extract(${args[0]}, ${args[1]}, ${group}) END`;
  },
  regexp_replace: (args, node) => {
    // Trino replaces every match and writes groups as $1; DuckDB needs 'g' and \1.
    const replacement =
      node.args[2]?.k === 'string' ? quote(node.args[2].value.replace(/\$(\d)/g, '\\$1')) : (args[2] ?? "''");
    return `regexp_replace(${args[0]}, ${args[1]}, ${replacement}, 'g')`;
  },
  element_at: ([a, i]) => `${a}[${i}]`,
  mod: ([a, b]) => `(${a} % ${b})`,
  if: ([c, a, b]) => `CASE WHEN ${c} THEN ${a}${b === undefined ? '' : ` ELSE ${b}`} END`,
  bitwise_and: ([a, b]) => `(${a} & ${b})`,
  bitwise_or: ([a, b]) => `(${a} | ${b})`,
  try: ([x]) => x as string,
  last_day_of_month: ([x]) => `last_day(${x})`,
  year_of_week: ([x]) => `isoyear(${x})`,
  yow: ([x]) => `isoyear(${x})`,
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
]);

/** DuckDB SQL for a call of Trino function `name` (arguments already translated). */
export function translateFunctionCall(node: Extract<Expr, { k: 'func' }>, args: string[]): string {
  const name = node.name;
  if (unsupported.has(name)) throw new NotSupportedError(`Function ${name}`, node.pos);
  const translate = special[name];
  if (translate) return translate(args, node);
  const target = renamed[name] ?? name;
  const distinct = node.distinct ? 'DISTINCT ' : '';
  return `${target}(${distinct}${args.join(', ')})`;
}

/** The DuckDB name of a Trino function called with plain arguments (for calls with ORDER BY / IGNORE NULLS). */
export function duckdbFunctionName(node: Extract<Expr, { k: 'func' }>): string {
  if (unsupported.has(node.name) || node.name in special) {
    throw new NotSupportedError(`Function ${node.name} with ORDER BY or IGNORE NULLS`, node.pos);
  }
  return renamed[node.name] ?? node.name;
}
