// Trino's conditional expressions written as functions (https://trino.io/docs/current/functions/conditional.html),
// with try and typeof.
import { sqlString as quote } from '../../duckdb/duckdb-session';
import { commonType, typeName, UNKNOWN, VARCHAR } from '../analyzer/types';
import { sameAsFirst, type FunctionFamily, type Translator } from './function';

/** NULL when any argument is NULL (Trino's greatest/least; DuckDB's skip NULLs). */
const nullIfAnyNull =
  (duckdb: string): Translator =>
  (args) =>
    `(CASE WHEN ${args.map((a) => `(${a}) IS NULL`).join(' OR ')} THEN NULL ELSE ${duckdb}(${args.join(', ')}) END)`;

export const CONDITIONAL_FUNCTIONS: FunctionFamily = {
  coalesce: { returns: commonType },
  greatest: { returns: commonType, sql: nullIfAnyNull('greatest') },
  if: {
    returns: ([, a1, a2]) => commonType([a1, a2 ?? UNKNOWN]),
    sql: ([c, a, b]) => `CASE WHEN ${c} THEN ${a}${b === undefined ? '' : ` ELSE ${b}`} END`,
  },
  least: { returns: commonType, sql: nullIfAnyNull('least') },
  nullif: { returns: sameAsFirst },
  try: { returns: sameAsFirst, sql: ([x]) => `try(${x})` },
  // Trino's type names where the analyzer knows the type (typeof('cat') is varchar(3)), else DuckDB's.
  typeof: {
    returns: VARCHAR,
    sql: ([x], _node, ctx) => {
      const type = ctx.argTypes[0];
      return type && type.k !== 'unknown' ? quote(typeName(type)) : `lower(typeof(${x}))`;
    },
  },
};
