// Every Trino function the local engine knows, gathered from one file per family: the analyzer reads an entry's
// result type, the translation its SQL, execution registers its scalar function. A name in no family is Trino's
// FUNCTION_NOT_FOUND (DuckDB's own functions are not Athena's).
import { InternalEngineError } from '../errors';
import type { SqlType } from '../analyzer/types';
import { AGGREGATE_FUNCTIONS } from './aggregate';
import { ARRAY_MAP_FUNCTIONS } from './array-map';
import { BINARY_FUNCTIONS } from './binary';
import { CONDITIONAL_FUNCTIONS } from './conditional';
import { DATE_TIME_FUNCTIONS } from './date-time';
import { udfName, type Call, type EngineUdf, type FunctionFamily, type TrinoFunction } from './function';
import { IP_ADDRESS_UDFS } from './ip-address';
import { JSON_FUNCTIONS } from './json';
import { MATH_FUNCTIONS } from './math';
import { OTHER_FUNCTIONS } from './others';
import { STRING_FUNCTIONS } from './string';
import { URL_FUNCTIONS, URL_PART } from './url';
import { WINDOW_FUNCTIONS } from './window';

/** The families as one table; a name in two families is a mistake in this folder, refused when it loads. */
export function gatherFamilies(families: Record<string, FunctionFamily>): ReadonlyMap<string, TrinoFunction> {
  const table = new Map<string, TrinoFunction>();
  const home = new Map<string, string>();
  for (const [family, entries] of Object.entries(families)) {
    for (const [name, entry] of Object.entries(entries)) {
      const first = home.get(name);
      if (first !== undefined)
        throw new InternalEngineError(
          `Trino function ${name} is declared twice: in ${first} and in ${family}`,
        );
      home.set(name, family);
      table.set(name, entry);
    }
  }
  return table;
}

export const TRINO_FUNCTIONS = gatherFamilies({
  AGGREGATE_FUNCTIONS,
  ARRAY_MAP_FUNCTIONS,
  BINARY_FUNCTIONS,
  CONDITIONAL_FUNCTIONS,
  DATE_TIME_FUNCTIONS,
  JSON_FUNCTIONS,
  MATH_FUNCTIONS,
  OTHER_FUNCTIONS,
  STRING_FUNCTIONS,
  URL_FUNCTIONS,
  WINDOW_FUNCTIONS,
});

/** Trino's result type of a call, where its entry and the arguments' types tell it. */
export function functionType(call: Call, args: readonly (SqlType | undefined)[]): SqlType | undefined {
  const returns = TRINO_FUNCTIONS.get(call.name)?.returns;
  return typeof returns === 'function' ? returns(args, call) : returns;
}

/** The scalar functions the engine registers on each connection: the entries' and those casts and families share. */
export const ENGINE_UDFS: readonly EngineUdf[] = [
  ...IP_ADDRESS_UDFS,
  URL_PART,
  ...[...TRINO_FUNCTIONS].flatMap(([name, entry]) =>
    entry.udf ? [{ name: udfName(name), ...entry.udf }] : [],
  ),
];
