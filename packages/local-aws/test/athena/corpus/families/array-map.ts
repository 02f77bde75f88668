// Trino's array and map functions and operators: the pages' examples (constructors, subscripts, ||, filter,
// transform, reduce, zip, map_filter...), with arrays and maps printed as Athena prints them (`[a, b]`, `{k=v}`,
// NULL inside a value as `null`; the pages' CLI output writes `NULL`, `{k -> v}` and `ROW(...)`).
import { familyCases, type CorpusCase } from '../case';

const ARRAY = 'https://trino.io/docs/current/functions/array.html';
const MAP = 'https://trino.io/docs/current/functions/map.html';

const c = familyCases('array-map');

const noDuckdb = (what: string) => ({
  error: new RegExp(`^NOT_SUPPORTED: .*${what}`),
  reason: `${what} has no DuckDB counterpart in the front end's translation`,
});

export const ARRAY_MAP: CorpusCase[] = [
  c('array-constructor', ARRAY, 'SELECT ARRAY[1, 2, 4]', [['[1, 2, 4]']], { types: ['array(integer)'] }),
  c('array-of-varchar', ARRAY, "SELECT ARRAY['foo', 'bar', 'bazz']", [['[foo, bar, bazz]']]),
  c('array-with-nulls', ARRAY, 'SELECT ARRAY[1, 2, NULL, -4, NULL]', [['[1, 2, null, -4, null]']]),
  c('subscript', ARRAY, 'SELECT ARRAY[1, 1.2, 4][2]', [['1.2']]),
  c('subscript-past-the-end', ARRAY, 'SELECT ARRAY[1, 2, 3][4]', [], {
    error: /^INVALID_FUNCTION_ARGUMENT: Array subscript must be less than or equal to array length: 4 > 3/,
    note: 'the page: element_at "returns NULL when accessing an index larger than array length, whereas the subscript operator would fail"',
  }),
  c('concat-arrays', ARRAY, 'SELECT ARRAY[1] || ARRAY[2]', [['[1, 2]']]),
  c('append-element', ARRAY, 'SELECT ARRAY[1] || 2', [['[1, 2]']]),
  c('prepend-element', ARRAY, 'SELECT 2 || ARRAY[1]', [['[2, 1]']]),
  c('concat-function', ARRAY, 'SELECT concat(ARRAY[1, 2], ARRAY[3])', [['[1, 2, 3]']]),
  c('array-distinct', ARRAY, 'SELECT array_distinct(ARRAY[1, 2, 2, 1, 3])', [['[1, 2, 3]']]),
  c('array-intersect', ARRAY, 'SELECT array_sort(array_intersect(ARRAY[1, 2, 3], ARRAY[2, 3, 4]))', [
    ['[2, 3]'],
  ]),
  c('array-union', ARRAY, 'SELECT array_sort(array_union(ARRAY[1, 2], ARRAY[2, 3]))', [['[1, 2, 3]']]),
  c('array-except', ARRAY, 'SELECT array_except(ARRAY[1, 2, 3], ARRAY[2])', [['[1, 3]']]),
  c('array-join', ARRAY, "SELECT array_join(ARRAY[1, NULL, 2], ',')", [['1,2']], {
    note: 'the page: "Null elements are omitted in the result"',
  }),
  c('array-join-null-replacement', ARRAY, "SELECT array_join(ARRAY['a', NULL, 'b'], ',', 'N')", [['a,N,b']]),
  c('array-max-min', ARRAY, 'SELECT array_max(ARRAY[3, 9, 1]), array_min(ARRAY[3, 9, 1])', [['9', '1']]),
  c('array-position', ARRAY, "SELECT array_position(ARRAY['a', 'b'], 'b'), array_position(ARRAY['a'], 'z')", [
    ['2', '0'],
  ]),
  c('array-remove', ARRAY, 'SELECT array_remove(ARRAY[1, 2, 1, 3], 1)', [['[2, 3]']]),
  c('array-sort', ARRAY, 'SELECT array_sort(ARRAY[3, NULL, 1, 2])', [['[1, 2, 3, null]']], {
    note: 'the page: "Null elements will be placed at the end of the returned array"',
  }),
  c(
    'array-sort-comparator',
    ARRAY,
    'SELECT array_sort(ARRAY[3, 2, 5, 1, 2], (x, y) -> IF(x < y, 1, IF(x = y, 0, -1)))',
    [['[5, 3, 2, 2, 1]']],
    { gap: noDuckdb('array_sort with a comparator') },
  ),
  c(
    'arrays-overlap',
    ARRAY,
    'SELECT arrays_overlap(ARRAY[1, 2], ARRAY[2, 3]), arrays_overlap(ARRAY[1], ARRAY[3])',
    [['true', 'false']],
  ),
  c('cardinality', ARRAY, 'SELECT cardinality(ARRAY[1, 2, 3])', [['3']], { types: ['bigint'] }),
  c('contains', ARRAY, "SELECT contains(ARRAY['a', 'b'], 'b'), contains(ARRAY[1], 2)", [['true', 'false']]),
  c(
    'element-at',
    ARRAY,
    'SELECT element_at(ARRAY[1, 2, 3], 2), element_at(ARRAY[1, 2, 3], 5), element_at(ARRAY[1, 2, 3], -1)',
    [['2', null, '3']],
  ),
  c('filter-empty', ARRAY, 'SELECT filter(ARRAY[], x -> true)', [['[]']]),
  c('filter-positive', ARRAY, 'SELECT filter(ARRAY[5, -6, NULL, 7], x -> x > 0)', [['[5, 7]']]),
  c('filter-not-null', ARRAY, 'SELECT filter(ARRAY[5, NULL, 7, NULL], x -> x IS NOT NULL)', [['[5, 7]']]),
  c('flatten', ARRAY, 'SELECT flatten(ARRAY[ARRAY[1, 2], ARRAY[3]])', [['[1, 2, 3]']]),
  c('repeat', ARRAY, "SELECT repeat('x', 3)", [['[x, x, x]']]),
  c('reverse', ARRAY, 'SELECT reverse(ARRAY[1, 2, 3])', [['[3, 2, 1]']]),
  c('sequence', ARRAY, 'SELECT sequence(1, 5), sequence(5, 1), sequence(1, 10, 3)', [
    ['[1, 2, 3, 4, 5]', '[5, 4, 3, 2, 1]', '[1, 4, 7, 10]'],
  ]),
  c('slice', ARRAY, 'SELECT slice(ARRAY[1, 2, 3, 4], 2, 2)', [['[2, 3]']]),
  c('trim-array-1', ARRAY, 'SELECT trim_array(ARRAY[1, 2, 3, 4], 1)', [['[1, 2, 3]']]),
  c('trim-array-2', ARRAY, 'SELECT trim_array(ARRAY[1, 2, 3, 4], 2)', [['[1, 2]']]),
  c('transform-empty', ARRAY, 'SELECT transform(ARRAY[], x -> x + 1)', [['[]']]),
  c('transform-plus-one', ARRAY, 'SELECT transform(ARRAY[5, 6], x -> x + 1)', [['[6, 7]']]),
  c('transform-coalesce', ARRAY, 'SELECT transform(ARRAY[5, NULL, 6], x -> coalesce(x, 0) + 1)', [
    ['[6, 1, 7]'],
  ]),
  c('transform-concat', ARRAY, "SELECT transform(ARRAY['x', 'abc', 'z'], x -> x || '0')", [
    ['[x0, abc0, z0]'],
  ]),
  c(
    'transform-nested',
    ARRAY,
    'SELECT transform(ARRAY[ARRAY[1, NULL, 2], ARRAY[3, NULL]], a -> filter(a, x -> x IS NOT NULL))',
    [['[[1, 2], [3]]']],
  ),
  c(
    'any-all-none-match',
    ARRAY,
    'SELECT any_match(ARRAY[1, 2], x -> x > 1), all_match(ARRAY[1, 2], x -> x > 1), none_match(ARRAY[1, 2], x -> x > 5)',
    [['true', 'false', 'true']],
  ),
  c('reduce', ARRAY, 'SELECT reduce(ARRAY[5, 20, 50], 0, (s, x) -> s + x, s -> s)', [['75']]),
  c('reduce-empty', ARRAY, 'SELECT reduce(ARRAY[], 0, (s, x) -> s + x, s -> s)', [['0']]),
  c('reduce-null-element', ARRAY, 'SELECT reduce(ARRAY[5, 20, NULL, 50], 0, (s, x) -> s + x, s -> s)', [
    [null],
  ]),
  c(
    'reduce-coalesce',
    ARRAY,
    'SELECT reduce(ARRAY[5, 20, NULL, 50], 0, (s, x) -> s + coalesce(x, 0), s -> s)',
    [['75']],
  ),
  c('zip', ARRAY, "SELECT zip(ARRAY[1, 2], ARRAY['1b', null, '3b'])", [
    ['[{field0=1, field1=1b}, {field0=2, field1=null}, {field0=null, field1=3b}]'],
  ]),
  c('zip-with', ARRAY, 'SELECT zip_with(ARRAY[1, 2], ARRAY[3, 4], (x, y) -> x + y)', [['[4, 6]']]),
  c(
    'zip-with-concat',
    ARRAY,
    "SELECT zip_with(ARRAY['a', 'b', 'c'], ARRAY['d', 'e', 'f'], (x, y) -> concat(x, y))",
    [['[ad, be, cf]']],
  ),
  c(
    'zip-with-padded',
    ARRAY,
    "SELECT zip_with(ARRAY['a'], ARRAY['d', null, 'f'], (x, y) -> coalesce(x, y))",
    [['[a, null, f]']],
  ),
  c('combinations', ARRAY, 'SELECT combinations(ARRAY[1, 2, 3], 2)', [['[[1, 2], [1, 3], [2, 3]]']], {
    gap: noDuckdb('combinations'),
  }),
  c('map-constructor', MAP, "SELECT MAP(ARRAY['key1', 'key2', 'key3' ], ARRAY[2373, 3463, 45837])", [
    ['{key1=2373, key2=3463, key3=45837}'],
  ]),
  c('map-of-varchar', MAP, "SELECT MAP(ARRAY['key1', 'key2', 'key3' ], ARRAY['v1', 'v2', 'v3'])", [
    ['{key1=v1, key2=v2, key3=v3}'],
  ]),
  c('map-with-null', MAP, "SELECT MAP(ARRAY['key1', 'key2', 'key3' ], ARRAY['v1', NULL, 'v3'])", [
    ['{key1=v1, key2=null, key3=v3}'],
  ]),
  c('map-subscript', MAP, "SELECT MAP(ARRAY['key1', 'key2', 'key3' ], ARRAY['v1', 'v2', 'v3'])['key2']", [
    ['v2'],
  ]),
  c('map-subscript-missing', MAP, "SELECT MAP(ARRAY['key1'], ARRAY['v1'])['key9']", [], {
    error: /^INVALID_FUNCTION_ARGUMENT: Key not present in map: key9/,
    note: 'the page: "This operator throws an error if the key is not contained in the map"',
  }),
  c('map-cardinality', MAP, "SELECT cardinality(MAP(ARRAY['a', 'b'], ARRAY[1, 2]))", [['2']], {
    types: ['bigint'],
  }),
  c(
    'map-element-at',
    MAP,
    "SELECT element_at(MAP(ARRAY['a'], ARRAY[1]), 'a'), element_at(MAP(ARRAY['a'], ARRAY[1]), 'z')",
    [['1', null]],
  ),
  c('map-empty', MAP, 'SELECT map()', [['{}']]),
  c('map-of-integers', MAP, 'SELECT map(ARRAY[1,3], ARRAY[2,4])', [['{1=2, 3=4}']]),
  c('map-from-entries', MAP, "SELECT map_from_entries(ARRAY[(1, 'x'), (2, 'y')])", [['{1=x, 2=y}']]),
  c('map-entries', MAP, "SELECT map_entries(MAP(ARRAY[1, 2], ARRAY['x', 'y']))", [
    ['[{field0=1, field1=x}, {field0=2, field1=y}]'],
  ]),
  c(
    'map-keys-values',
    MAP,
    "SELECT map_keys(MAP(ARRAY['a', 'b'], ARRAY[1, 2])), map_values(MAP(ARRAY['a', 'b'], ARRAY[1, 2]))",
    [['[a, b]', '[1, 2]']],
  ),
  c(
    'map-concat',
    MAP,
    "SELECT map_concat(MAP(ARRAY['a'], ARRAY[1]), MAP(ARRAY['a', 'b'], ARRAY[2, 3]))",
    [['{a=2, b=3}']],
    {
      unorderedMaps: true,
      note: 'the page: a key\'s value "comes from the last one of those maps"',
    },
  ),
  c(
    'map-filter',
    MAP,
    "SELECT map_filter(MAP(ARRAY['k1', 'k2', 'k3'], ARRAY[20, 3, 15]), (k, v) -> v > 10)",
    [['{k1=20, k3=15}']],
  ),
  c(
    'map-filter-nulls',
    MAP,
    "SELECT map_filter(MAP(ARRAY[10, 20, 30], ARRAY['a', NULL, 'c']), (k, v) -> v IS NOT NULL)",
    [['{10=a, 30=c}']],
  ),
  c(
    'transform-values',
    MAP,
    'SELECT transform_values(MAP(ARRAY [1, 2, 3], ARRAY [10, 20, 30]), (k, v) -> v + k)',
    [['{1=11, 2=22, 3=33}']],
  ),
  c(
    'transform-keys',
    MAP,
    "SELECT transform_keys(MAP(ARRAY [1, 2, 3], ARRAY ['a', 'b', 'c']), (k, v) -> k + 1)",
    [['{2=a, 3=b, 4=c}']],
  ),
  c(
    'multimap-from-entries',
    MAP,
    "SELECT multimap_from_entries(ARRAY[(1, 'x'), (2, 'y'), (1, 'z')])",
    [['{1=[x, z], 2=[y]}']],
    { gap: noDuckdb('multimap_from_entries') },
  ),
];
