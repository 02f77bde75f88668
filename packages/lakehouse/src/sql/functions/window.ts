// Trino's window functions (https://trino.io/docs/current/functions/window.html): DuckDB has each under the same
// name; only their result types are Trino's.
import { BIGINT, DOUBLE } from '../analyzer/types';
import { sameAsFirst, type FunctionFamily } from './function';

export const WINDOW_FUNCTIONS: FunctionFamily = {
  cume_dist: { returns: DOUBLE },
  dense_rank: { returns: BIGINT },
  first_value: { returns: sameAsFirst },
  lag: { returns: sameAsFirst },
  last_value: { returns: sameAsFirst },
  lead: { returns: sameAsFirst },
  nth_value: { returns: sameAsFirst },
  ntile: { returns: BIGINT },
  percent_rank: { returns: DOUBLE },
  rank: { returns: BIGINT },
  row_number: { returns: BIGINT },
};
