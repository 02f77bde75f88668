// Trino's casts to the exact integer types where DuckDB's differ: a double or real is rounded half away from zero
// (DuckDB rounds half to even: CAST(2.5e0 AS integer) is 3 in Trino, 2 in DuckDB), and text must be an optional
// sign and digits (Trino's VarcharOperators parse with Long.parseLong: '1.9' and ' 12 ' are not integers, where
// DuckDB rounds and trims them). A failure is Trino's INVALID_CAST_ARGUMENT `Cannot cast '1.9' to BIGINT`; TRY
// and TRY_CAST answer NULL instead.
import { sqlString as quote } from '../../duckdb/duckdb-session';
import { isCharacter, type SqlType } from '../analyzer/types';
import { raise } from '../functions/function';

/** Trino's name for each integer type in its cast messages (VarcharOperators: `to INT`). */
const CAST_NAMES: Record<string, { duckdb: string; message: string }> = {
  tinyint: { duckdb: 'TINYINT', message: 'TINYINT' },
  smallint: { duckdb: 'SMALLINT', message: 'SMALLINT' },
  integer: { duckdb: 'INTEGER', message: 'INT' },
  int: { duckdb: 'INTEGER', message: 'INT' },
  bigint: { duckdb: 'BIGINT', message: 'BIGINT' },
};

/** The text of the failure a cast of text to an integer type raises (read back by duckdb-run.ts). */
export const INTEGER_CAST_FAILURE = /^Cannot cast '.*' to (?:TINYINT|SMALLINT|INT|BIGINT)$/s;

/** CAST / TRY_CAST of `arg` (of type `source`) to integer type `target`; undefined where DuckDB's cast is Trino's. */
export function integerCast(
  arg: string,
  source: SqlType | undefined,
  target: string,
  options: { safe: boolean; inTry: boolean },
): string | undefined {
  const names = CAST_NAMES[target];
  if (!names || !source) return undefined;
  const cast = options.safe ? 'TRY_CAST' : 'CAST';
  if (source.k === 'double' || source.k === 'real') return `${cast}(round(${arg}) AS ${names.duckdb})`;
  if (!isCharacter(source)) return undefined;
  const failure = raise(
    { inTry: options.inTry || options.safe },
    `'Cannot cast ''' || ${arg} || ''' to ${names.message}'`,
  );
  return `(CASE WHEN ${arg} IS NULL THEN NULL WHEN regexp_full_match(${arg}, ${quote('[+-]?[0-9]+')}) THEN ${cast}(${arg} AS ${names.duckdb}) ELSE ${failure} END)`;
}
