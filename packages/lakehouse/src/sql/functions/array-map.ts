// Trino's array, map and lambda functions (https://trino.io/docs/current/functions/array.html, map.html,
// lambda.html) over DuckDB's lists and maps; where Trino's meaning depends on an argument's type (cardinality of a
// map or an array, contains on a CIDR or an array) the analyzer's type decides.
import { sqlString as quote } from '../../duckdb/duckdb-session';
import {
  BIGINT,
  BOOLEAN,
  UNKNOWN,
  VARCHAR,
  isCharacter,
  isExactInteger,
  typeName,
  type SqlType,
} from '../analyzer/types';
import { GenericUserError, NotSupportedError } from '../errors';
import { raise, sameAsFirst, type FunctionFamily, type TypeRule } from './function';
import { cidrContainsSql } from './ip-address';

/** A list without repeated elements, in the order of their first occurrence (Trino keeps it; DuckDB does not). */
const orderedDistinct = (list: string): string =>
  `list_filter(${list}, (e, i) -> list_position(${list}, e) = i)`;

/** An element of the array argument (array_max, array_min, array_first, array_last). */
const elementType: TypeRule = ([a0]) => (a0?.k === 'array' ? a0.element : undefined);

/** An array of the first argument's type (combinations, ngrams). */
const arrayOfFirst: TypeRule = ([a0]) => a0 && { k: 'array', element: a0 };

/** The array argument's type, or varchar for strings (reverse, concat). */
const arrayOrVarchar: TypeRule = ([a0]) => (a0?.k === 'array' ? a0 : a0 ? VARCHAR : undefined);

export const ARRAY_MAP_FUNCTIONS: FunctionFamily = {
  all_match: { returns: BOOLEAN, sql: ([a, f]) => `list_bool_and(list_transform(${a}, ${f}))` },
  any_match: { returns: BOOLEAN, sql: ([a, f]) => `list_bool_or(list_transform(${a}, ${f}))` },
  array_distinct: { returns: sameAsFirst, sql: ([a]) => orderedDistinct(a as string) },
  array_except: {
    returns: sameAsFirst,
    sql: ([a, b]) => orderedDistinct(`list_filter(${a}, e -> NOT list_contains(${b}, e))`),
  },
  array_first: { returns: elementType },
  array_histogram: {},
  array_intersect: { returns: sameAsFirst, sql: 'list_intersect' },
  array_join: {
    returns: VARCHAR,
    sql: ([a, d, replacement]) =>
      replacement === undefined
        ? `array_to_string(${a}, ${d})`
        : `array_to_string(list_transform(${a}, x -> coalesce(CAST(x AS VARCHAR), ${replacement})), ${d})`,
  },
  array_last: { returns: elementType },
  array_max: { returns: elementType, sql: 'list_max' },
  array_min: { returns: elementType, sql: 'list_min' },
  array_position: {
    returns: BIGINT,
    sql: ([a, x]) => `(CASE WHEN ${a} IS NULL THEN NULL ELSE coalesce(list_position(${a}, ${x}), 0) END)`,
  },
  array_remove: { returns: sameAsFirst, sql: ([a, x]) => `list_filter(${a}, e -> e IS DISTINCT FROM ${x})` },
  array_sort: {
    returns: sameAsFirst,
    sql: (args, node) => {
      if (args.length > 1) throw new NotSupportedError('array_sort with a comparator function', node.pos);
      return `list_sort(${args[0]}, 'ASC', 'NULLS LAST')`;
    },
  },
  array_union: { returns: sameAsFirst, sql: ([a, b]) => orderedDistinct(`list_concat(${a}, ${b})`) },
  arrays_overlap: { returns: BOOLEAN, sql: 'list_has_any' },
  cardinality: {
    returns: BIGINT,
    sql: ([x], _node, ctx) =>
      ctx.argTypes[0]?.k === 'map' ? `CAST(cardinality(${x}) AS BIGINT)` : `len(${x})`,
  },
  combinations: { returns: arrayOfFirst, unsupported: true },
  concat: {
    returns: arrayOrVarchar,
    sql: (args, _node, ctx) =>
      ctx.argTypes[0]?.k === 'array' ? `list_concat(${args.join(', ')})` : `concat(${args.join(', ')})`,
  },
  contains: {
    returns: BOOLEAN,
    sql: (args, node, ctx) => {
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
  },
  contains_sequence: { returns: BOOLEAN, unsupported: true },
  // NULL for a missing key or an index past either end (DuckDB's subscript), unlike Trino's [] operator; an
  // array index of 0 is Trino's error.
  element_at: {
    returns: ([a0]) => {
      if (a0?.k === 'array') return a0.element;
      return a0?.k === 'map' ? a0.value : undefined;
    },
    sql: ([a, i], _node, ctx) =>
      ctx.argTypes[0]?.k === 'map'
        ? `${a}[${i}]`
        : `(CASE WHEN (${i}) = 0 THEN ${raise(ctx, quote('SQL array indices start at 1'))} ELSE ${a}[${i}] END)`,
  },
  filter: { returns: sameAsFirst, sql: 'list_filter' },
  flatten: { returns: ([a0]) => (a0?.k === 'array' ? a0.element : undefined) },
  map: {
    returns: (args) => {
      const [a0, a1] = args;
      if (args.length === 0) return { k: 'map', key: UNKNOWN, value: UNKNOWN };
      return a0?.k === 'array' && a1?.k === 'array'
        ? { k: 'map', key: a0.element, value: a1.element }
        : undefined;
    },
  },
  map_concat: { returns: sameAsFirst },
  map_entries: {
    returns: ([a0]) =>
      a0?.k === 'map'
        ? { k: 'array', element: { k: 'row', fields: [{ type: a0.key }, { type: a0.value }] } }
        : undefined,
    sql: ([m]) => `list_transform(map_entries(${m}), e -> struct_pack(field0 := e.key, field1 := e.value))`,
  },
  map_filter: { returns: sameAsFirst },
  map_from_entries: {
    returns: ([a0]) => {
      const row = a0?.k === 'array' ? a0.element : undefined;
      return row?.k === 'row' && row.fields.length === 2
        ? {
            k: 'map',
            key: (row.fields[0] as { type: SqlType }).type,
            value: (row.fields[1] as { type: SqlType }).type,
          }
        : undefined;
    },
  },
  map_keys: { returns: ([a0]) => (a0?.k === 'map' ? { k: 'array', element: a0.key } : undefined) },
  map_values: { returns: ([a0]) => (a0?.k === 'map' ? { k: 'array', element: a0.value } : undefined) },
  map_zip_with: { unsupported: true },
  multimap_from_entries: { unsupported: true },
  ngrams: { returns: arrayOfFirst, unsupported: true },
  none_match: { returns: BOOLEAN, sql: ([a, f]) => `NOT list_bool_or(list_transform(${a}, ${f}))` },
  reduce: { unsupported: true },
  repeat: {
    returns: ([a0]) => a0 && { k: 'array', element: a0 },
    sql: ([x, n]) => `list_transform(generate_series(1, ${n}), i -> ${x})`,
  },
  reverse: {
    returns: arrayOrVarchar,
    sql: ([x], _node, ctx) => (ctx.argTypes[0]?.k === 'array' ? `list_reverse(${x})` : `reverse(${x})`),
  },
  sequence: {
    returns: ([a0]) => a0 && { k: 'array', element: isExactInteger(a0) ? BIGINT : a0 },
    sql: (args, _node, ctx) => {
      const [start, stop, step] = args;
      if (ctx.argTypes[0]?.k === 'date') {
        const range = `generate_series(CAST(${start} AS TIMESTAMP), CAST(${stop} AS TIMESTAMP), ${step ?? `(CASE WHEN ${start} <= ${stop} THEN INTERVAL 1 DAY ELSE INTERVAL -1 DAY END)`})`;
        return `CAST(${range} AS DATE[])`;
      }
      // Trino counts down when start > stop; DuckDB's default step is 1 either way.
      return `generate_series(${start}, ${stop}, ${step ?? `(CASE WHEN ${start} <= ${stop} THEN 1 ELSE -1 END)`})`;
    },
  },
  shuffle: { returns: sameAsFirst },
  slice: {
    returns: sameAsFirst,
    sql: ([a, start, length]) => `list_slice(${a}, ${start}, ${start} + ${length} - 1)`,
  },
  transform: { returns: ([, a1]) => a1 && { k: 'array', element: a1 }, sql: 'list_transform' },
  transform_keys: {},
  transform_values: {},
  trim_array: { returns: sameAsFirst, sql: ([a, n]) => `list_slice(${a}, 1, len(${a}) - ${n})` },
  zip: {
    returns: (args) => {
      return args.every((t) => t?.k === 'array')
        ? {
            k: 'array',
            element: {
              k: 'row',
              fields: args.map((t) => ({ type: (t as { element: SqlType }).element })),
            },
          }
        : undefined;
    },
    sql: (args) =>
      `list_transform(list_zip(${args.join(', ')}), e -> struct_pack(${args.map((_, i) => `field${i} := struct_extract(e, ${i + 1})`).join(', ')}))`,
  },
  zip_with: { unsupported: true },
};
