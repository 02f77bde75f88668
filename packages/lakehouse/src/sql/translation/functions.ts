// Trino functions whose DuckDB counterpart has another name, argument order or semantics (the date/time, JSON,
// URL and math families in modules of their own). Other Trino functions are passed through by name (most
// aggregate, math and string functions are the same); one DuckDB does not know then fails as NOT_SUPPORTED naming
// it (execution/duckdb-errors.ts), and a name Trino does not have fails before anything runs, as Trino's
// FUNCTION_NOT_FOUND. Where Trino's meaning depends on an argument's type (cardinality of a map or an array,
// contains on a CIDR or an array) the analyzer's type decides.
import { sqlString as quote } from '../../duckdb/duckdb-session';
import { isCharacter, typeName } from '../analyzer/types';
import { GenericUserError, NotSupportedError } from '../errors';
import { literalArg, raise, type Call, type CallContext, type Translator } from './call';
import { DATETIME_FUNCTIONS } from './datetime-functions';
import { cidrContainsSql, LUHN_CHECK, TITLE_CASE } from './engine-functions';
import { JSON_FUNCTIONS } from './json-functions';
import { MATH_FUNCTIONS } from './math-functions';
import { TRINO_FUNCTIONS } from './trino-functions';
import { URL_FUNCTIONS } from './url-functions';

export { raise, type CallContext } from './call';

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
  to_unixtime: 'epoch',
  codepoint: 'unicode',
  rand: 'random',
  max_by: 'arg_max',
  min_by: 'arg_min',
  listagg: 'string_agg',
  levenshtein_distance: 'levenshtein',
  hamming_distance: 'hamming',
  every: 'bool_and',
  bitwise_and_agg: 'bit_and',
  bitwise_or_agg: 'bit_or',
  geometric_mean: 'geomean',
  regexp_split: 'regexp_split_to_array',
  to_utf8: 'encode',
  from_utf8: 'decode',
};

/** NULL when any argument is NULL (Trino's greatest/least; DuckDB's skip NULLs). */
const nullIfAnyNull =
  (duckdb: string): Translator =>
  (args) =>
    `(CASE WHEN ${args.map((a) => `(${a}) IS NULL`).join(' OR ')} THEN NULL ELSE ${duckdb}(${args.join(', ')}) END)`;

/** The arguments a Java format string converts with `%s`, as text (DuckDB's printf wants a string for %s). */
function formatArguments(format: string | undefined, args: string[]): string[] {
  if (format === undefined) return args;
  const out = [...args];
  let next = 1;
  for (const m of format.matchAll(/%(?:(\d+)\$)?[-#+ 0,(]*\d*(?:\.\d+)?([a-zA-Z%])/g)) {
    if (m[2] === '%' || m[2] === 'n') continue;
    const index = m[1] ? Number(m[1]) : next++;
    if ((m[2] === 's' || m[2] === 'S') && out[index] !== undefined)
      out[index] = `CAST(${out[index]} AS VARCHAR)`;
  }
  return out;
}

/** A list without repeated elements, in the order of their first occurrence (Trino keeps it; DuckDB does not). */
const orderedDistinct = (list: string): string =>
  `list_filter(${list}, (e, i) -> list_position(${list}, e) = i)`;

/** substr(s, start[, length]) with Trino's edges: '' for a start of 0 or one before the string's beginning. */
const substring: Translator = ([s, start, length]) => {
  const call = `substr(${s}, ${start}${length === undefined ? '' : `, ${length}`})`;
  return `(CASE WHEN (${start}) = 0 OR (${start}) < -length(${s}) THEN '' ELSE ${call} END)`;
};

const PARSE_DATA_SIZE = '^([0-9]+(?:\\.[0-9]+)?)\\s*([a-zA-Z]+)$';

const special: Record<string, Translator> = {
  ...DATETIME_FUNCTIONS,
  ...JSON_FUNCTIONS,
  ...MATH_FUNCTIONS,
  ...URL_FUNCTIONS,
  trim: ([s, chars]) => (chars === undefined ? `trim(${s})` : `trim(${s}, ${chars})`),
  overlay: ([s, r, start, length]) =>
    `(substring(${s}, 1, ${start} - 1) || ${r} || substring(${s}, ${start} + ${length ?? `length(${r})`}))`,
  replace: ([s, search, replacement]) => `replace(${s}, ${search}, ${replacement ?? "''"})`,
  split: ([s, d, limit]) => {
    if (limit === undefined) return `string_split(${s}, ${d})`;
    // At most `limit` fields; the last one keeps the rest of the string.
    const parts = `string_split(${s}, ${d})`;
    return `(CASE WHEN len(${parts}) <= ${limit} THEN ${parts} ELSE list_append(${parts}[1:${limit} - 1], array_to_string(${parts}[${limit}:], ${d})) END)`;
  },
  split_to_map: ([s, entry, keyValue]) => {
    const parts = `string_split(${s}, ${entry})`;
    return `map(list_transform(${parts}, p -> split_part(p, ${keyValue}, 1)), list_transform(${parts}, p -> split_part(p, ${keyValue}, 2)))`;
  },
  luhn_check: ([s]) => `${LUHN_CHECK}(${s})`,
  title_case: ([s]) => `${TITLE_CASE}(${s})`,
  map_agg: ([k, v]) => `map(list(${k}), list(${v}))`,
  map_entries: ([m]) =>
    `list_transform(map_entries(${m}), e -> struct_pack(field0 := e.key, field1 := e.value))`,
  zip: (args) =>
    `list_transform(list_zip(${args.join(', ')}), e -> struct_pack(${args.map((_, i) => `field${i} := struct_extract(e, ${i + 1})`).join(', ')}))`,
  repeat: ([x, n]) => `list_transform(generate_series(1, ${n}), i -> ${x})`,
  sequence: (args, _node, ctx) => {
    const [start, stop, step] = args;
    if (ctx.argTypes[0]?.k === 'date') {
      const range = `generate_series(CAST(${start} AS TIMESTAMP), CAST(${stop} AS TIMESTAMP), ${step ?? `(CASE WHEN ${start} <= ${stop} THEN INTERVAL 1 DAY ELSE INTERVAL -1 DAY END)`})`;
      return `CAST(${range} AS DATE[])`;
    }
    // Trino counts down when start > stop; DuckDB's default step is 1 either way.
    return `generate_series(${start}, ${stop}, ${step ?? `(CASE WHEN ${start} <= ${stop} THEN 1 ELSE -1 END)`})`;
  },
  array_distinct: ([a]) => orderedDistinct(a as string),
  array_union: ([a, b]) => orderedDistinct(`list_concat(${a}, ${b})`),
  array_except: ([a, b]) => orderedDistinct(`list_filter(${a}, e -> NOT list_contains(${b}, e))`),
  array_position: ([a, x]) =>
    `(CASE WHEN ${a} IS NULL THEN NULL ELSE coalesce(list_position(${a}, ${x}), 0) END)`,
  array_sort: (args, node) => {
    if (args.length > 1) throw new NotSupportedError('array_sort with a comparator function', node.pos);
    return `list_sort(${args[0]}, 'ASC', 'NULLS LAST')`;
  },
  parse_data_size: ([s]) => {
    const number = `CAST(regexp_extract(${s}, '${PARSE_DATA_SIZE}', 1) AS DECIMAL(38,10))`;
    const unit = `list_position(['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'], regexp_extract(${s}, '${PARSE_DATA_SIZE}', 2))`;
    return `CAST(floor(${number} * CAST(power(1024, ${unit} - 1) AS DECIMAL(38,0))) AS DECIMAL(38,0))`;
  },
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
  regexp_position: ([s, p, start, occurrence], node) => {
    if (occurrence !== undefined)
      throw new NotSupportedError('regexp_position with an occurrence argument', node.pos);
    // Trino: 1-based index of the first match at or after `start`, -1 when none.
    const from = start ?? '1';
    const tail = `substr(${s}, ${from})`;
    return `(CASE WHEN regexp_matches(${tail}, ${p}) THEN CAST(strpos(${tail}, regexp_extract(${tail}, ${p})) + ${from} - 1 AS INTEGER) ELSE -1 END)`;
  },
  // NULL for a missing key or an index past either end (DuckDB's subscript), unlike Trino's [] operator; an
  // array index of 0 is Trino's error.
  element_at: ([a, i], _node, ctx) =>
    ctx.argTypes[0]?.k === 'map'
      ? `${a}[${i}]`
      : `(CASE WHEN (${i}) = 0 THEN ${raise(ctx, quote('SQL array indices start at 1'))} ELSE ${a}[${i}] END)`,
  // Trino: a start of 0, or before the beginning, gives ''; DuckDB counts 0 as the first character.
  substr: substring,
  substring,
  // Trino's normalize(s[, form]) (NFC by default); DuckDB normalizes to NFC only.
  normalize: ([s], node) => {
    const form = node.args[1]?.k === 'string' ? node.args[1].value.toUpperCase() : 'NFC';
    if (form !== 'NFC') throw new NotSupportedError(`normalize to ${form}`, node.pos);
    return `nfc_normalize(${s})`;
  },
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
  slice: ([a, start, length]) => `list_slice(${a}, ${start}, ${start} + ${length} - 1)`,
  trim_array: ([a, n]) => `list_slice(${a}, 1, len(${a}) - ${n})`,
  any_match: ([a, f]) => `list_bool_or(list_transform(${a}, ${f}))`,
  all_match: ([a, f]) => `list_bool_and(list_transform(${a}, ${f}))`,
  none_match: ([a, f]) => `NOT list_bool_or(list_transform(${a}, ${f}))`,
  format: (args, node) => `printf(${formatArguments(literalArg(node, 0), args).join(', ')})`,
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
  'multimap_agg',
  'map_union',
  'combinations',
  'ngrams',
  'format_number',
  'reduce',
  'zip_with',
  'ip_prefix',
  'contains_sequence',
  'checksum',
  'learn_classifier',
  'map_zip_with',
  'multimap_from_entries',
]);

/** DuckDB SQL for a call of Trino function `name` (arguments already translated). */
/**
 * A call of a name Trino does not have is Trino's FUNCTION_NOT_FOUND (DuckDB's own functions are not Athena's); a
 * Trino function the local engine cannot run is NOT_SUPPORTED, naming it.
 */
function checkKnown(node: Call): void {
  if (!TRINO_FUNCTIONS.has(node.name))
    throw new GenericUserError('FUNCTION_NOT_FOUND', `Function '${node.name}' not registered`, {
      position: node.pos,
      value: node.name,
    });
  if (unsupported.has(node.name)) throw new NotSupportedError(`Function ${node.name}`, node.pos);
}

export function translateFunctionCall(node: Call, args: string[], ctx: CallContext): string {
  const name = node.name;
  checkKnown(node);
  const translate = special[name];
  if (translate) return translate(args, node, ctx);
  const target = renamed[name] ?? name;
  const distinct = node.distinct ? 'DISTINCT ' : '';
  return `${target}(${distinct}${args.join(', ')})`;
}

/** The DuckDB name of a Trino function called with plain arguments (for calls with ORDER BY / IGNORE NULLS). */
export function duckdbFunctionName(node: Call): string {
  checkKnown(node);
  if (node.name in special && !['histogram'].includes(node.name)) {
    throw new NotSupportedError(`Function ${node.name} with ORDER BY or IGNORE NULLS`, node.pos);
  }
  return renamed[node.name] ?? node.name;
}
