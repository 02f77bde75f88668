// Trino's function return types, as far as the arguments tell them: name sets for the functions whose result type is
// fixed (BIGINT_FUNCTIONS … BOOLEAN_FUNCTIONS), those that return their first argument's type (SAME_AS_FIRST), and a
// rule per function for the rest (functionType). ExpressionTypes (expression-types.ts) asks it for each call; a
// function with no rule here is left untyped, so DuckDB's own typing applies.
import type { Expr } from '../tree/ast';
import {
  BIGINT,
  BOOLEAN,
  DATE,
  DOUBLE,
  INTEGER,
  UNKNOWN,
  VARCHAR,
  isExactInteger,
  isNumeric,
  type SqlType,
} from './types';

/** The type values share (CASE results, array items, a VALUES column): their kind, the wider integer or DOUBLE among
 * numbers; unknown when only unknowns are known; undefined when no rule applies. */
export function commonType(types: (SqlType | undefined)[]): SqlType | undefined {
  const known = types.filter((t): t is SqlType => t !== undefined && t.k !== 'unknown');
  if (known.length === 0) return types.some((t) => t?.k === 'unknown') ? UNKNOWN : undefined;
  const first = known[0] as SqlType;
  if (known.every((t) => t.k === first.k)) {
    if (first.k === 'timestamp') {
      const stamps = known as Extract<SqlType, { k: 'timestamp' }>[];
      return { ...first, precision: Math.max(...stamps.map((t) => t.precision)) };
    }
    if (first.k === 'varchar') return VARCHAR;
    return first;
  }
  if (known.every((t) => isExactInteger(t))) return known.some((t) => t.k === 'bigint') ? BIGINT : INTEGER;
  if (known.every((t) => isNumeric(t)) && known.some((t) => t.k === 'double' || t.k === 'real'))
    return DOUBLE;
  return undefined;
}

const BIGINT_FUNCTIONS = new Set([
  'count',
  'count_if',
  'approx_distinct',
  'length',
  'strpos',
  'levenshtein_distance',
  'hamming_distance',
  'cardinality',
  'array_position',
  'year',
  'quarter',
  'month',
  'week',
  'week_of_year',
  'day',
  'day_of_month',
  'day_of_week',
  'dow',
  'day_of_year',
  'doy',
  'year_of_week',
  'yow',
  'hour',
  'minute',
  'second',
  'millisecond',
  'date_diff',
  'regexp_count',
  'row_number',
  'rank',
  'dense_rank',
  'ntile',
  'grouping',
  'to_milliseconds',
  'json_array_length',
  'json_size',
  'bitwise_and',
  'bitwise_or',
  'bitwise_xor',
  'bitwise_not',
  'bit_count',
  'crc32',
]);
const VARCHAR_FUNCTIONS = new Set([
  'lower',
  'upper',
  'trim',
  'ltrim',
  'rtrim',
  'substr',
  'substring',
  'replace',
  'lpad',
  'rpad',
  'concat_ws',
  'split_part',
  'regexp_extract',
  'regexp_replace',
  'format',
  'to_iso8601',
  'date_format',
  'format_datetime',
  'to_hex',
  'to_base64',
  'chr',
  'json_extract_scalar',
  'json_format',
  'translate',
  'soundex',
  'array_join',
  'listagg',
  'typeof',
  'normalize',
  'from_utf8',
  'url_extract_host',
  'url_extract_path',
  'url_extract_protocol',
  'url_extract_query',
  'url_extract_parameter',
  'url_encode',
  'url_decode',
  'current_timezone',
  'format_number',
  'human_readable_seconds',
  'title_case',
  'word_stem',
  'timezone',
]);
const DOUBLE_FUNCTIONS = new Set([
  'sqrt',
  'cbrt',
  'ln',
  'log',
  'log2',
  'log10',
  'exp',
  'pow',
  'power',
  'sin',
  'cos',
  'tan',
  'asin',
  'acos',
  'atan',
  'atan2',
  'sinh',
  'cosh',
  'tanh',
  'radians',
  'degrees',
  'pi',
  'e',
  'rand',
  'random',
  'to_unixtime',
  'stddev',
  'stddev_samp',
  'stddev_pop',
  'variance',
  'var_samp',
  'var_pop',
  'corr',
  'covar_samp',
  'covar_pop',
  'geometric_mean',
  'percent_rank',
  'cume_dist',
  'cosine_similarity',
  'euclidean_distance',
  'dot_product',
]);
const BOOLEAN_FUNCTIONS = new Set([
  'contains',
  'arrays_overlap',
  'all_match',
  'any_match',
  'none_match',
  'starts_with',
  'ends_with',
  'regexp_like',
  'is_nan',
  'is_finite',
  'is_infinite',
  'bool_and',
  'bool_or',
  'every',
  'luhn_check',
  'contains_sequence',
  'is_json_scalar',
]);
const SAME_AS_FIRST = new Set([
  'min',
  'max',
  'arbitrary',
  'any_value',
  'first_value',
  'last_value',
  'nth_value',
  'lag',
  'lead',
  'nullif',
  'min_by',
  'max_by',
  'abs',
  'round',
  'ceil',
  'ceiling',
  'floor',
  'truncate',
  'sign',
  'mod',
  'try',
  'filter',
  'array_distinct',
  'array_sort',
  'array_remove',
  'slice',
  'shuffle',
  'array_intersect',
  'array_union',
  'array_except',
  'trim_array',
  'map_filter',
  'map_concat',
]);

export function functionType(
  e: Extract<Expr, { k: 'func' }>,
  args: (SqlType | undefined)[],
): SqlType | undefined {
  const [a0, a1, a2] = args;
  const name = e.name;
  if (BIGINT_FUNCTIONS.has(name)) return BIGINT;
  if (VARCHAR_FUNCTIONS.has(name)) return VARCHAR;
  if (DOUBLE_FUNCTIONS.has(name)) return DOUBLE;
  if (BOOLEAN_FUNCTIONS.has(name)) return BOOLEAN;
  if (SAME_AS_FIRST.has(name)) {
    if (['min', 'max', 'min_by', 'max_by'].includes(name) && e.args.length === (name.endsWith('_by') ? 3 : 2))
      return a0 && { k: 'array', element: a0 };
    return a0;
  }
  switch (name) {
    case 'regexp_position':
    case 'codepoint':
      return INTEGER;
    case 'coalesce':
    case 'greatest':
    case 'least':
      return commonType(args);
    case 'if':
      return commonType([a1, a2 ?? UNKNOWN]);
    case 'sum':
      if (a0 && isExactInteger(a0)) return BIGINT;
      if (a0?.k === 'real' || a0?.k === 'double') return a0;
      if (a0?.k === 'decimal') return { k: 'decimal', precision: 38, scale: a0.scale };
      return undefined;
    case 'avg':
      // Trino: avg of a decimal(p,s) is decimal(p,s) (DecimalAverageAggregation); of anything else numeric, double.
      if (a0?.k === 'decimal') return a0;
      return a0 && (isExactInteger(a0) || a0.k === 'double' || a0.k === 'real') ? DOUBLE : undefined;
    case 'array_agg':
      return a0 && { k: 'array', element: a0 };
    case 'histogram':
      return a0 && { k: 'map', key: a0, value: BIGINT };
    case 'map_agg':
      return a0 && a1 && { k: 'map', key: a0, value: a1 };
    case 'map':
      if (args.length === 0) return { k: 'map', key: UNKNOWN, value: UNKNOWN };
      return a0?.k === 'array' && a1?.k === 'array'
        ? { k: 'map', key: a0.element, value: a1.element }
        : undefined;
    case 'map_keys':
      return a0?.k === 'map' ? { k: 'array', element: a0.key } : undefined;
    case 'map_values':
      return a0?.k === 'map' ? { k: 'array', element: a0.value } : undefined;
    case 'map_entries':
      return a0?.k === 'map'
        ? { k: 'array', element: { k: 'row', fields: [{ type: a0.key }, { type: a0.value }] } }
        : undefined;
    case 'map_from_entries': {
      const row = a0?.k === 'array' ? a0.element : undefined;
      return row?.k === 'row' && row.fields.length === 2
        ? {
            k: 'map',
            key: (row.fields[0] as { type: SqlType }).type,
            value: (row.fields[1] as { type: SqlType }).type,
          }
        : undefined;
    }
    case 'element_at':
      if (a0?.k === 'array') return a0.element;
      return a0?.k === 'map' ? a0.value : undefined;
    case 'array_max':
    case 'array_min':
    case 'array_first':
    case 'array_last':
      return a0?.k === 'array' ? a0.element : undefined;
    case 'flatten':
      return a0?.k === 'array' ? a0.element : undefined;
    case 'split':
    case 'regexp_extract_all':
    case 'regexp_split':
      return { k: 'array', element: VARCHAR };
    case 'transform':
      return a1 && { k: 'array', element: a1 };
    case 'repeat':
      return a0 && { k: 'array', element: a0 };
    case 'sequence':
      return a0 && { k: 'array', element: isExactInteger(a0) ? BIGINT : a0 };
    case 'reverse':
    case 'concat':
      return a0?.k === 'array' ? a0 : a0 ? VARCHAR : undefined;
    case 'combinations':
    case 'ngrams':
      return a0 && { k: 'array', element: a0 };
    case 'zip':
      return args.every((t) => t?.k === 'array')
        ? {
            k: 'array',
            element: {
              k: 'row',
              fields: args.map((t) => ({ type: (t as { element: SqlType }).element })),
            },
          }
        : undefined;
    case 'date_trunc':
      return a1;
    case 'date_add':
      return a2;
    case 'date':
    case 'from_iso8601_date':
    case 'last_day_of_month':
      return DATE;
    case 'from_iso8601_timestamp': {
      const text = e.args[0]?.k === 'string' ? e.args[0].value : undefined;
      const offset = text === undefined ? undefined : /(?:[+-]\d{2}:?\d{2}|Z)$/i.exec(text.trim())?.[0];
      const zone = offset === undefined || /^z$/i.test(offset) ? 'UTC' : offset;
      return text === undefined ? undefined : { k: 'timestamp', precision: 3, zone };
    }
    case 'date_parse':
      return { k: 'timestamp', precision: 3 };
    case 'parse_duration':
      return { k: 'interval day to second' };
    case 'parse_datetime':
      return { k: 'timestamp', precision: 3, zone: 'UTC' };
    case 'from_unixtime_nanos':
      return { k: 'timestamp', precision: 9, zone: 'UTC' };
    case 'url_extract_port':
    case 'width_bucket':
    case 'from_base':
    case 'timezone_hour':
    case 'timezone_minute':
      return BIGINT;
    case 'to_base':
      return VARCHAR;
    case 'json_array_get':
      return { k: 'json' };
    case 'from_unixtime':
      return { k: 'timestamp', precision: 3, zone: e.args[1]?.k === 'string' ? e.args[1].value : 'UTC' };
    case 'now':
      return { k: 'timestamp', precision: 3, zone: 'UTC' };
    case 'at_timezone':
    case 'with_timezone': {
      const zone = e.args[1]?.k === 'string' ? e.args[1].value : undefined;
      return zone === undefined
        ? undefined
        : { k: 'timestamp', precision: a0?.k === 'timestamp' ? a0.precision : 3, zone };
    }
    case 'split_to_map':
      return { k: 'map', key: VARCHAR, value: VARCHAR };
    case 'parse_data_size':
      return { k: 'decimal', precision: 38, scale: 0 };
    case 'approx_percentile':
      return a1?.k === 'array' ? a0 && { k: 'array', element: a0 } : a0;
    case 'json_extract':
    case 'json_parse':
      return { k: 'json' };
    case 'to_utf8':
    case 'from_hex':
    case 'from_base64':
    case 'md5':
    case 'sha1':
    case 'sha256':
    case 'sha512':
      return { k: 'varbinary' };
    default:
      return undefined;
  }
}
