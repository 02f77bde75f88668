// Trino's aggregate functions (https://trino.io/docs/current/functions/aggregate.html): most are DuckDB's under the
// same or another name.
import { BIGINT, BOOLEAN, DOUBLE, VARCHAR, isExactInteger } from '../analyzer/types';
import { minMaxType, sameAsFirst, type FunctionFamily } from './function';

export const AGGREGATE_FUNCTIONS: FunctionFamily = {
  any_value: { returns: sameAsFirst },
  approx_distinct: { returns: BIGINT, sql: 'approx_count_distinct' },
  approx_most_frequent: {},
  approx_percentile: {
    returns: ([a0, a1]) => (a1?.k === 'array' ? a0 && { k: 'array', element: a0 } : a0),
    sql: 'approx_quantile',
  },
  arbitrary: { returns: sameAsFirst, sql: 'any_value' },
  array_agg: { returns: ([a0]) => a0 && { k: 'array', element: a0 } },
  avg: {
    returns: ([a0]) => {
      if (a0?.k === 'decimal') return a0;
      return a0 && (isExactInteger(a0) || a0.k === 'double' || a0.k === 'real') ? DOUBLE : undefined;
    },
  },
  bitwise_and_agg: { sql: 'bit_and' },
  bitwise_or_agg: { sql: 'bit_or' },
  bool_and: { returns: BOOLEAN },
  bool_or: { returns: BOOLEAN },
  checksum: { unsupported: true },
  corr: { returns: DOUBLE },
  count: { returns: BIGINT },
  count_if: { returns: BIGINT },
  covar_pop: { returns: DOUBLE },
  covar_samp: { returns: DOUBLE },
  every: { returns: BOOLEAN, sql: 'bool_and' },
  geometric_mean: { returns: DOUBLE, sql: 'geomean' },
  grouping: { returns: BIGINT },
  histogram: {
    returns: ([a0]) => a0 && { k: 'map', key: a0, value: BIGINT },
    withOrderBy: 'histogram',
    sql: ([x]) => {
      // DuckDB counts in UBIGINT; Trino's histogram values are bigint.
      const h = `histogram(${x})`;
      return `map(map_keys(${h}), list_transform(map_values(${h}), v -> CAST(v AS BIGINT)))`;
    },
  },
  kurtosis: {},
  listagg: { returns: VARCHAR, sql: 'string_agg' },
  map_agg: {
    returns: ([a0, a1]) => a0 && a1 && { k: 'map', key: a0, value: a1 },
    sql: ([k, v]) => `map(list(${k}), list(${v}))`,
  },
  map_union: { unsupported: true },
  max: { returns: minMaxType },
  max_by: { returns: minMaxType, sql: 'arg_max' },
  min: { returns: minMaxType },
  min_by: { returns: minMaxType, sql: 'arg_min' },
  multimap_agg: { unsupported: true },
  numeric_histogram: {},
  reduce_agg: {},
  regr_intercept: {},
  regr_slope: {},
  skewness: {},
  stddev: { returns: DOUBLE },
  stddev_pop: { returns: DOUBLE },
  stddev_samp: { returns: DOUBLE },
  sum: {
    returns: ([a0]) => {
      if (a0 && isExactInteger(a0)) return BIGINT;
      if (a0?.k === 'real' || a0?.k === 'double') return a0;
      if (a0?.k === 'decimal') return { k: 'decimal', precision: 38, scale: a0.scale };
      return undefined;
    },
  },
  var_pop: { returns: DOUBLE },
  var_samp: { returns: DOUBLE },
  variance: { returns: DOUBLE },
};
