// Trino's string and regular-expression functions (https://trino.io/docs/current/functions/string.html,
// regexp.html): DuckDB's under the same or another name, translations where Trino's edges differ, and luhn_check
// and title_case computed here.
import { sqlString as quote } from '../../duckdb/duckdb-session';
import { BIGINT, BOOLEAN, INTEGER, VARCHAR } from '../analyzer/types';
import { NotSupportedError } from '../errors';
import { literalArg, raise, type FunctionFamily, type Translator } from './function';

/** The arguments a Java format string converts with `%s`, as text (DuckDB's printf wants a string for %s). */
function formatArguments(format: string | undefined, args: string[]): string[] {
  if (format === undefined) return args;
  const out = [...args];
  let next = 1;
  for (const m of format.matchAll(/%(?:(\d+)\$)?[-#+ 0,(]*\d*(?:\.\d+)?([a-zA-Z%])/g)) {
    if (m[2] === '%' || m[2] === 'n') continue;
    const index = m[1] ? Number(m[1]) : next++;
    if ((m[2] === 's' || m[2] === 'S') && out[index] !== undefined)
      out[index] = `CAST(${out[index]} AS VARCHAR)`;
  }
  return out;
}

/** substr(s, start[, length]) with Trino's edges: '' for a start of 0 or one before the string's beginning. */
const substring: Translator = ([s, start, length]) => {
  const call = `substr(${s}, ${start}${length === undefined ? '' : `, ${length}`})`;
  return `(CASE WHEN (${start}) = 0 OR (${start}) < -length(${s}) THEN '' ELSE ${call} END)`;
};

/** Trino's title_case: each word's first letter upper case, the rest lower case; words end at non-alphanumerics. */
export function titleCase(text: string): string {
  return text
    .toLowerCase()
    .replace(
      /(^|[^\p{L}\p{N}])(\p{L})/gu,
      (_m, before: string, letter: string) => before + letter.toUpperCase(),
    );
}

/** Trino's luhn_check: the Luhn (mod 10) checksum of a string of digits; false for anything else. */
export function luhnCheck(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export const STRING_FUNCTIONS: FunctionFamily = {
  char2hexint: {},
  chr: { returns: VARCHAR },
  codepoint: { returns: INTEGER, sql: 'unicode' },
  concat_ws: { returns: VARCHAR },
  ends_with: { returns: BOOLEAN },
  format: {
    returns: VARCHAR,
    sql: (args, node) => `printf(${formatArguments(literalArg(node, 0), args).join(', ')})`,
  },
  format_number: { returns: VARCHAR, unsupported: true },
  from_utf8: { returns: VARCHAR, sql: 'decode' },
  hamming_distance: { returns: BIGINT, sql: 'hamming' },
  index: {},
  length: { returns: BIGINT },
  levenshtein_distance: { returns: BIGINT, sql: 'levenshtein' },
  lower: { returns: VARCHAR },
  lpad: { returns: VARCHAR },
  ltrim: { returns: VARCHAR },
  luhn_check: { returns: BOOLEAN, udf: { params: ['VARCHAR'], result: 'BOOLEAN', compute: luhnCheck } },
  // Trino's normalize(s[, form]) (NFC by default); DuckDB normalizes to NFC only.
  normalize: {
    returns: VARCHAR,
    sql: ([s], node) => {
      const form = node.args[1]?.k === 'string' ? node.args[1].value.toUpperCase() : 'NFC';
      if (form !== 'NFC') throw new NotSupportedError(`normalize to ${form}`, node.pos);
      return `nfc_normalize(${s})`;
    },
  },
  overlay: {
    sql: ([s, r, start, length]) =>
      `(substring(${s}, 1, ${start} - 1) || ${r} || substring(${s}, ${start} + ${length ?? `length(${r})`}))`,
  },
  position: {},
  regexp_count: { returns: BIGINT, sql: ([s, p]) => `len(regexp_extract_all(${s}, ${p}))` },
  regexp_extract: {
    returns: VARCHAR,
    sql: (args) => {
      // Trino returns NULL when nothing matches; DuckDB returns ''.
      const group = args[2] ?? '0';
      return `CASE WHEN regexp_matches(${args[0]}, ${args[1]}) THEN regexp_extract(${args[0]}, ${args[1]}, ${group}) END`;
    },
  },
  regexp_extract_all: { returns: { k: 'array', element: VARCHAR } },
  regexp_like: { returns: BOOLEAN, sql: 'regexp_matches' },
  regexp_position: {
    returns: INTEGER,
    sql: ([s, p, start, occurrence], node) => {
      if (occurrence !== undefined)
        throw new NotSupportedError('regexp_position with an occurrence argument', node.pos);
      // Trino: 1-based index of the first match at or after `start`, -1 when none.
      const from = start ?? '1';
      const tail = `substr(${s}, ${from})`;
      return `(CASE WHEN regexp_matches(${tail}, ${p}) THEN CAST(strpos(${tail}, regexp_extract(${tail}, ${p})) + ${from} - 1 AS INTEGER) ELSE -1 END)`;
    },
  },
  regexp_replace: {
    returns: VARCHAR,
    sql: (args, node) => {
      // Trino replaces every match and writes groups as $1; DuckDB needs 'g' and \1.
      if (node.args[2]?.k === 'lambda') throw new NotSupportedError('regexp_replace with a lambda', node.pos);
      const replacement =
        node.args[2]?.k === 'string'
          ? quote(node.args[2].value.replace(/\$(\d)/g, '\\$1'))
          : (args[2] ?? "''");
      return `regexp_replace(${args[0]}, ${args[1]}, ${replacement}, 'g')`;
    },
  },
  regexp_split: { returns: { k: 'array', element: VARCHAR }, sql: 'regexp_split_to_array' },
  replace: {
    returns: VARCHAR,
    sql: ([s, search, replacement]) => `replace(${s}, ${search}, ${replacement ?? "''"})`,
  },
  rpad: { returns: VARCHAR },
  rtrim: { returns: VARCHAR },
  soundex: { returns: VARCHAR },
  split: {
    returns: { k: 'array', element: VARCHAR },
    sql: ([s, d, limit]) => {
      if (limit === undefined) return `string_split(${s}, ${d})`;
      // At most `limit` fields; the last one keeps the rest of the string.
      const parts = `string_split(${s}, ${d})`;
      return `(CASE WHEN len(${parts}) <= ${limit} THEN ${parts} ELSE list_append(${parts}[1:${limit} - 1], array_to_string(${parts}[${limit}:], ${d})) END)`;
    },
  },
  split_part: {
    returns: VARCHAR,
    sql: ([s, d, i], _node, ctx) =>
      // Trino: NULL past the last field, an error for an index below 1.
      `(CASE WHEN (${i}) < 1 THEN ${raise(ctx, quote('Index must be greater than zero'))} WHEN (${i}) > len(string_split(${s}, ${d})) THEN NULL ELSE split_part(${s}, ${d}, ${i}) END)`,
  },
  split_to_map: {
    returns: { k: 'map', key: VARCHAR, value: VARCHAR },
    sql: ([s, entry, keyValue]) => {
      const parts = `string_split(${s}, ${entry})`;
      return `map(list_transform(${parts}, p -> split_part(p, ${keyValue}, 1)), list_transform(${parts}, p -> split_part(p, ${keyValue}, 2)))`;
    },
  },
  split_to_multimap: {},
  starts_with: { returns: BOOLEAN },
  strpos: {
    returns: BIGINT,
    sql: (args, node) => {
      if (args.length > 2) throw new NotSupportedError('strpos with an instance argument', node.pos);
      return `strpos(${args.join(', ')})`;
    },
  },
  // Trino: a start of 0, or before the beginning, gives ''; DuckDB counts 0 as the first character.
  substr: { returns: VARCHAR, sql: substring },
  substring: { returns: VARCHAR, sql: substring },
  title_case: { returns: VARCHAR, udf: { params: ['VARCHAR'], result: 'VARCHAR', compute: titleCase } },
  to_utf8: { returns: { k: 'varbinary' }, sql: 'encode' },
  translate: { returns: VARCHAR },
  trim: {
    returns: VARCHAR,
    sql: ([s, chars]) => (chars === undefined ? `trim(${s})` : `trim(${s}, ${chars})`),
  },
  upper: { returns: VARCHAR },
  word_stem: { returns: VARCHAR },
};
