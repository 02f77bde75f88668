// Trino's JSON functions (https://trino.io/docs/current/functions/json.html) over DuckDB's json extension: a JSON
// value is its text; json_parse and json_format write it compactly, as Trino does.
import { BIGINT, BOOLEAN, VARCHAR, isCharacter } from '../analyzer/types';
import { raise, type FunctionFamily } from './function';

/** `x` as DuckDB JSON (parsed and minified). */
const json = (x: string): string => `json(${x})`;

export const JSON_FUNCTIONS: FunctionFamily = {
  is_json_scalar: {
    returns: BOOLEAN,
    sql: ([j]) => `(json_type(${json(j as string)}) NOT IN ('ARRAY', 'OBJECT'))`,
  },
  json: {},
  json_array: {},
  // Whether the array holds the value: a JSON boolean, number or string equal to it (NULL when not an array).
  json_array_contains: {
    sql: ([j, value], _node, ctx) => {
      const type = ctx.argTypes[1];
      const matches =
        type?.k === 'boolean'
          ? `json_type(e) = 'BOOLEAN' AND CAST(e AS BOOLEAN) = ${value}`
          : type && isCharacter(type)
            ? `json_type(e) = 'VARCHAR' AND json_extract_string(e, '$') = ${value}`
            : `json_type(e) IN ('BIGINT', 'UBIGINT', 'DOUBLE') AND CAST(e AS DOUBLE) = ${value}`;
      const array = json(j as string);
      return `(CASE WHEN json_type(${array}) = 'ARRAY' THEN coalesce(list_bool_or(list_transform(CAST(${array} AS JSON[]), e -> ${matches})), false) END)`;
    },
  },
  // A negative index counts from the end (DuckDB's `$[#-1]`); a string element comes out unquoted, as the page
  // warns Trino's does ("JSON 'a' (invalid JSON)").
  json_array_get: {
    returns: { k: 'json' },
    sql: ([j, i]) => {
      const path = `CASE WHEN (${i}) < 0 THEN '$[#' || CAST(${i} AS VARCHAR) || ']' ELSE '$[' || CAST(${i} AS VARCHAR) || ']' END`;
      const element = `json_extract(${json(j as string)}, ${path})`;
      // (Text, not DuckDB JSON, which would refuse the unquoted string; the analyzer's type names the column json.)
      return `(CASE WHEN json_type(${element}) = 'VARCHAR' THEN json_extract_string(${json(j as string)}, ${path}) ELSE CAST(${element} AS VARCHAR) END)`;
    },
  },
  // NULL for a value that is not an array (DuckDB answers 0).
  json_array_length: {
    returns: BIGINT,
    sql: ([j]) =>
      `(CASE WHEN json_type(${json(j as string)}) = 'ARRAY' THEN CAST(json_array_length(${json(j as string)}) AS BIGINT) END)`,
  },
  json_exists: {},
  json_extract: { returns: { k: 'json' } },
  // The scalar at the path as text; NULL for an array or object (DuckDB would give its JSON text).
  json_extract_scalar: {
    returns: VARCHAR,
    sql: ([j, path]) => {
      const value = `json_extract(${json(j as string)}, ${path})`;
      return `(CASE WHEN json_type(${value}) IN ('ARRAY', 'OBJECT') THEN NULL ELSE json_extract_string(${json(j as string)}, ${path}) END)`;
    },
  },
  json_format: { returns: VARCHAR, sql: ([j]) => `CAST(${json(j as string)} AS VARCHAR)` },
  json_object: {},
  json_parse: { returns: { k: 'json' }, sql: ([s]) => json(s as string) },
  json_query: {},
  json_scalar: {},
  json_serialize: {},
  // The number of elements or members at the path; 0 for a scalar.
  json_size: {
    returns: BIGINT,
    sql: ([j, path]) => {
      const value = `json_extract(${json(j as string)}, ${path})`;
      return `CAST(CASE json_type(${value}) WHEN 'ARRAY' THEN json_array_length(${value}) WHEN 'OBJECT' THEN len(json_keys(${value})) ELSE 0 END AS BIGINT)`;
    },
  },
  json_value: {},
};

/**
 * CAST(string AS JSON) is a JSON string holding the text (the page: `CAST('[1, 2, 3]' AS JSON)` is
 * `JSON '"[1, 2, 3]"'`); CAST(json AS varchar) is a scalar's value (`JSON '"abc"'` is `abc`), and an array or
 * object fails.
 */
export const jsonFromText = (x: string): string => `to_json(${x})`;

export function jsonToText(x: string, inTry: boolean): string {
  return `(CASE WHEN json_type(${x}) IN ('ARRAY', 'OBJECT') THEN ${raise({ inTry }, `'Cannot cast ''' || CAST(${x} AS VARCHAR) || ''' to VARCHAR'`)} ELSE json_extract_string(${x}, '$') END)`;
}
