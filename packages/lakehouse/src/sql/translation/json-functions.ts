// Trino's JSON functions (https://trino.io/docs/current/functions/json.html) over DuckDB's json extension: a JSON
// value is its text; json_parse and json_format write it compactly, as Trino does.
import type { Translator } from './call';

/** `x` as DuckDB JSON (parsed and minified). */
const json = (x: string): string => `json(${x})`;

export const JSON_FUNCTIONS: Record<string, Translator> = {
  json_parse: ([s]) => json(s as string),
  json_format: ([j]) => `CAST(${json(j as string)} AS VARCHAR)`,
  is_json_scalar: ([j]) => `(json_type(${json(j as string)}) NOT IN ('ARRAY', 'OBJECT'))`,
  // NULL for a value that is not an array (DuckDB answers 0).
  json_array_length: ([j]) =>
    `(CASE WHEN json_type(${json(j as string)}) = 'ARRAY' THEN CAST(json_array_length(${json(j as string)}) AS BIGINT) END)`,
  // A negative index counts from the end (DuckDB's `$[#-1]`).
  json_array_get: ([j, i]) =>
    `json_extract(${json(j as string)}, CASE WHEN (${i}) < 0 THEN '$[#' || CAST(${i} AS VARCHAR) || ']' ELSE '$[' || CAST(${i} AS VARCHAR) || ']' END)`,
  // The scalar at the path as text; NULL for an array or object (DuckDB would give its JSON text).
  json_extract_scalar: ([j, path]) => {
    const value = `json_extract(${json(j as string)}, ${path})`;
    return `(CASE WHEN json_type(${value}) IN ('ARRAY', 'OBJECT') THEN NULL ELSE json_extract_string(${json(j as string)}, ${path}) END)`;
  },
  // The number of elements or members at the path; 0 for a scalar.
  json_size: ([j, path]) => {
    const value = `json_extract(${json(j as string)}, ${path})`;
    return `CAST(CASE json_type(${value}) WHEN 'ARRAY' THEN json_array_length(${value}) WHEN 'OBJECT' THEN len(json_keys(${value})) ELSE 0 END AS BIGINT)`;
  },
};
