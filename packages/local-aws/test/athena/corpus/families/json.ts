// Trino's JSON functions: the examples of the page's "Other JSON functions", json_format / json_parse and the
// casts from JSON, with their documented results (a JSON value prints as its text).
import { pageCases, type CorpusCase } from '../case';

const PAGE = 'https://trino.io/docs/current/functions/json.html';

const c = pageCases('json', PAGE);

export const JSON_FUNCTIONS: CorpusCase[] = [
  c('is-json-scalar', "SELECT is_json_scalar('1'), is_json_scalar('[1, 2, 3]')", [['true', 'false']], {
    types: ['boolean', 'boolean'],
  }),
  c('json-array-contains', "SELECT json_array_contains('[1, 2, 3]', 2)", [['true']], { types: ['boolean'] }),
  c(
    'json-array-get',
    `SELECT json_array_get('["a", [3, 9], "c"]', 0), json_array_get('["a", [3, 9], "c"]', 1),
            json_array_get('["c", [3, 9], "a"]', -1), json_array_get('["c", [3, 9], "a"]', -2)`,
    [['a', '[3,9]', 'a', '[3,9]']],
    {
      types: ['json', 'json', 'json', 'json'],
      note: 'the page: a string element comes out unquoted (invalid JSON)',
    },
  ),
  c(
    'json-array-get-missing',
    `SELECT json_array_get('[]', 0), json_array_get('["a", "b", "c"]', 10), json_array_get('["c", "b", "a"]', -10)`,
    [[null, null, null]],
  ),
  c('json-array-length', "SELECT json_array_length('[1, 2, 3]')", [['3']], { types: ['bigint'] }),
  c(
    'json-format',
    `SELECT json_format(JSON '{"a": 1, "b": 2}'), json_format(JSON '[1, 2, 3]'), json_format(JSON '"abc"'),
            json_format(JSON '42'), json_format(JSON 'true'), json_format(JSON 'null')`,
    [['{"a":1,"b":2}', '[1,2,3]', '"abc"', '42', 'true', 'null']],
  ),
  c(
    'json-parse',
    `SELECT json_parse('[1, 2, 3]'), json_parse('"abc"'), json_parse('42'), json_parse('true'), json_parse('null')`,
    [['[1,2,3]', '"abc"', '42', 'true', 'null']],
    { types: ['json', 'json', 'json', 'json', 'json'] },
  ),
  c('json-parse-invalid', "SELECT json_parse('not_json')", [], {
    error: /^INVALID_FUNCTION_ARGUMENT: /,
    ours: 'the page says only "ERROR!": the error name is ours',
  }),
  c(
    'cast-varchar-to-json',
    "SELECT CAST('not_json' AS JSON), CAST('[1, 2, 3]' AS JSON), CAST('42' AS JSON)",
    [['"not_json"', '"[1, 2, 3]"', '"42"']],
  ),
  c(
    'cast-json-to-varchar',
    `SELECT CAST(JSON '"abc"' AS VARCHAR), CAST(JSON '42' AS VARCHAR), CAST(JSON 'true' AS VARCHAR), CAST(JSON 'null' AS VARCHAR)`,
    [['abc', '42', 'true', null]],
  ),
  c('cast-json-array-to-varchar', "SELECT CAST(JSON '[1, 2, 3]' AS VARCHAR)", [], {
    error: /^INVALID_CAST_ARGUMENT: /,
    ours: 'the page says only "ERROR!": the error name is ours',
  }),
  c(
    'cast-from-json',
    `SELECT CAST(JSON '1' AS INTEGER), CAST(JSON '9223372036854775807' AS BIGINT), CAST(JSON 'true' AS BOOLEAN),
            CAST(JSON '1.234' AS DOUBLE), CAST(JSON '[1,23,456]' AS ARRAY(INTEGER)),
            CAST(JSON '{"k1":1,"k2":23,"k3":456}' AS MAP(VARCHAR, INTEGER))`,
    [['1', '9223372036854775807', 'true', '1.234', '[1, 23, 456]', '{k1=1, k2=23, k3=456}']],
    { unorderedMaps: true },
  ),
  c(
    'json-size',
    `SELECT json_size('{"x": {"a": 1, "b": 2}}', '$.x'), json_size('{"x": [1, 2, 3]}', '$.x'),
            json_size('{"x": {"a": 1, "b": 2}}', '$.x.a')`,
    [['2', '3', '0']],
    { types: ['bigint', 'bigint', 'bigint'] },
  ),
];
