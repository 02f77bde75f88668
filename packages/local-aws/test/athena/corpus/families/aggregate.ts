// Trino's aggregate functions: the page's examples (listagg, FILTER, ordering during aggregation), and its stated
// semantics for the rest (what each returns, null handling), exercised on small VALUES relations.
import { pageCases, type CorpusCase } from '../case';

const PAGE = 'https://trino.io/docs/current/functions/aggregate.html';
const ATHENA_V3 = 'https://docs.aws.amazon.com/athena/latest/ug/engine-versions-reference-0003.html';

const c = pageCases('aggregate', PAGE);

const NUMBERS = '(VALUES 1, 2, 3, 4, NULL) AS t(x)';

export const AGGREGATE: CorpusCase[] = [
  c(
    'listagg',
    "SELECT listagg(value, ',') WITHIN GROUP (ORDER BY value) csv_value FROM (VALUES 'a', 'c', 'b') t(value)",
    [['a,b,c']],
    { source: ATHENA_V3 },
  ),
  c(
    'listagg-grouped',
    "SELECT id, listagg(value, ',') WITHIN GROUP (ORDER BY o) csv_value FROM (VALUES (100, 1, 'a'), (200, 3, 'c'), (200, 2, 'b')) t(id, o, value) GROUP BY id ORDER BY id",
    [
      ['100', 'a'],
      ['200', 'b,c'],
    ],
  ),
  c(
    'listagg-filter',
    `SELECT country, listagg(city, ',') WITHIN GROUP (ORDER BY population DESC) FILTER (WHERE population >= 10_000_000) megacities
     FROM (VALUES ('India', 'Bangalore', 13_700_000), ('India', 'Chennai', 12_200_000), ('India', 'Ranchi', 1_547_000),
                  ('Austria', 'Vienna', 1_897_000), ('Poland', 'Warsaw', 1_765_000)) t(country, city, population)
     GROUP BY country ORDER BY country`,
    [
      ['Austria', null],
      ['India', 'Bangalore,Chennai'],
      ['Poland', null],
    ],
  ),
  c(
    'filter-keeps-groups',
    "SELECT species, count(*) FILTER (WHERE petal_length_cm > 4) AS count FROM (VALUES ('setosa', 1.4), ('virginica', 5.1), ('versicolor', 4.5), ('versicolor', 3.9)) AS iris(species, petal_length_cm) GROUP BY species",
    [
      ['setosa', '0'],
      ['versicolor', '1'],
      ['virginica', '1'],
    ],
    {
      unordered: true,
      note: 'the page\'s iris example on four rows: "Using a filter you retain all information"',
    },
  ),
  c(
    'array-agg-filter-order',
    "SELECT array_agg(name ORDER BY name DESC) FILTER (WHERE name IS NOT NULL) FROM (VALUES 'EUROPE', NULL, 'ASIA', 'AFRICA') AS region(name)",
    [['[EUROPE, ASIA, AFRICA]']],
  ),
  c('count-star-and-column', `SELECT count(*), count(x) FROM ${NUMBERS}`, [['5', '4']], {
    types: ['bigint', 'bigint'],
  }),
  c('count-if', 'SELECT count_if(x > 2) FROM (VALUES 1, 2, 3, 4) AS t(x)', [['2']]),
  c('sum-avg-min-max', `SELECT sum(x), avg(x), min(x), max(x) FROM ${NUMBERS}`, [['10', '2.5', '1', '4']], {
    types: ['bigint', 'double', 'integer', 'integer'],
  }),
  c('sum-of-nothing-is-null', 'SELECT sum(x), count(x) FROM (VALUES 1) AS t(x) WHERE x > 1', [[null, '0']], {
    note: 'the page: "sum returns null rather than zero"',
  }),
  c('bool-and-or-every', 'SELECT bool_and(b), bool_or(b), every(b) FROM (VALUES true, false, true) AS t(b)', [
    ['false', 'true', 'false'],
  ]),
  c(
    'max-by-min-by',
    "SELECT max_by(name, score), min_by(name, score) FROM (VALUES ('a', 3), ('b', 9), ('c', 1)) AS t(name, score)",
    [['b', 'c']],
  ),
  c('max-n', 'SELECT max(x, 2), min(x, 2) FROM (VALUES 5, 1, 9, 3) AS t(x)', [['[9, 5]', '[1, 3]']]),
  c('arbitrary', 'SELECT arbitrary(x), any_value(x) FROM (VALUES 7) AS t(x)', [['7', '7']]),
  c('count-distinct', 'SELECT count(DISTINCT x) FROM (VALUES 1, 1, 2, NULL) AS t(x)', [['2']]),
  c('approx-distinct', "SELECT approx_distinct(x) FROM (VALUES 'a', 'b', 'a', NULL) AS t(x)", [['2']], {
    types: ['bigint'],
  }),
  c('approx-percentile', 'SELECT approx_percentile(x, 0.5) FROM (VALUES 1, 2, 3, 4, 5) AS t(x)', [['3']]),
  c('histogram', "SELECT histogram(x) FROM (VALUES 'a', 'b', 'a') AS t(x)", [['{a=2, b=1}']], {
    unorderedMaps: true,
  }),
  c('map-agg', "SELECT map_agg(k, v) FROM (VALUES ('a', 1), ('b', 2)) AS t(k, v)", [['{a=1, b=2}']], {
    unorderedMaps: true,
  }),
  c(
    'multimap-agg',
    "SELECT multimap_agg(k, v) FROM (VALUES ('a', 1), ('a', 2), ('b', 3)) AS t(k, v)",
    [['{a=[1, 2], b=[3]}']],
    {
      unorderedMaps: true,
      gap: { error: /^NOT_SUPPORTED: .*multimap_agg/, reason: 'multimap_agg has no DuckDB counterpart' },
    },
  ),
  c('bitwise-aggregates', 'SELECT bitwise_and_agg(x), bitwise_or_agg(x) FROM (VALUES 12, 10) AS t(x)', [
    ['8', '14'],
  ]),
  c('stddev-pop', 'SELECT stddev_pop(x), var_pop(x) FROM (VALUES 1, 2, 3, 4) AS t(x)', [
    ['1.118033988749895', '1.25'],
  ]),
  c('geometric-mean', 'SELECT geometric_mean(x) FROM (VALUES 2, 8) AS t(x)', [['4.0']]),
  c('checksum', 'SELECT checksum(x) FROM (VALUES 1) AS t(x)', [], {
    note: 'the page gives no value: the case checks only the listed gap',
    gap: {
      error: /^NOT_SUPPORTED: .*checksum/,
      reason: "checksum is Trino's own hash: DuckDB has no equivalent",
    },
  }),
];
