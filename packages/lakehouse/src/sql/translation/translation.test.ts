// The translator (Trino → DuckDB) without a warehouse: each bound table reference stands for an in-memory
// relation, the analyzer's types come from the statement itself.
import { describe, expect, test } from '@jest/globals';
import { ExpressionTypes } from '../analyzer/expression-types';
import { parseStatement } from '../parser/parse-statement';
import { DuckdbWriter } from './duckdb-writer';

const bindings = {
  relationOf: (ref: { name: { parts: { name: string }[] } }) =>
    `(SELECT * FROM mem_${ref.name.parts.map((p) => p.name).join('_')})`,
};

function translate(sql: string): string {
  const s = parseStatement(sql);
  if (s.k !== 'query') throw new Error(s.k);
  const types = new ExpressionTypes({ columnsOf: () => undefined });
  types.query(s.query);
  return new DuckdbWriter(bindings, types).query(s.query);
}

describe('Trino → DuckDB translation', () => {
  test('functions that differ are translated', () => {
    expect(
      translate(
        "SELECT from_iso8601_timestamp('2024-01-01T00:00:00Z'), cardinality(a), approx_distinct(x), date_add('hour', 2, ts) FROM t",
      ),
    ).toBe(
      `SELECT CAST('2024-01-01T00:00:00Z' AS TIMESTAMPTZ) AS "_col0", len("a") AS "_col1", approx_count_distinct("x") AS "_col2", ("ts" + CAST(2 AS BIGINT) * INTERVAL 1 hour) AS "_col3" FROM (SELECT * FROM mem_t) AS "t"`,
    );
    expect(
      translate("SELECT regexp_replace(s, '(a)', '$1$1'), date_format(ts, '%Y-%m-%d %H:%i') FROM t"),
    ).toContain(`regexp_replace("s", '(a)', '\\1\\1', 'g') AS "_col0", strftime("ts", '%Y-%m-%d %H:%M')`);
  });

  test('types, typed literals and intervals', () => {
    expect(
      translate(
        "SELECT CAST('x' AS varchar), CAST(y AS array(bigint)), TIMESTAMP '2024-01-01 10:00:00', TIMESTAMP '2024-01-01 10:00:00 UTC', DECIMAL '12.50', INTERVAL '3' DAY",
      ),
    ).toBe(
      `SELECT CAST('x' AS VARCHAR) AS "_col0", CAST("y" AS BIGINT[]) AS "_col1", TIMESTAMP '2024-01-01 10:00:00' AS "_col2", CAST(TIMESTAMP '2024-01-01 10:00:00' AS TIMESTAMPTZ) AS "_col3", CAST('12.50' AS DECIMAL(4,2)) AS "_col4", INTERVAL '3' DAY AS "_col5"`,
    );
  });

  test('unaliased select items are named like Trino: column name, else _colN', () => {
    expect(translate('SELECT a, t.b, a + 1, count(*) AS n FROM t')).toBe(
      `SELECT "a" AS "a", "t"."b" AS "b", ("a" + 1) AS "_col2", count(*) AS "n" FROM (SELECT * FROM mem_t) AS "t"`,
    );
  });

  test('set operations, window frames and NULL ordering are explicit', () => {
    expect(translate('SELECT a FROM t EXCEPT ALL SELECT a FROM u ORDER BY a')).toBe(
      `(SELECT "a" AS "a" FROM (SELECT * FROM mem_t) AS "t") EXCEPT ALL (SELECT "a" AS "a" FROM (SELECT * FROM mem_u) AS "u") ORDER BY "a" ASC NULLS LAST`,
    );
    expect(
      translate('SELECT sum(x) OVER (ORDER BY y ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM t'),
    ).toContain(
      'sum("x") OVER (ORDER BY "y" ASC NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)',
    );
  });

  test('constructs without a faithful translation fail clearly', () => {
    expect(() => translate('SELECT ts AT TIME ZONE zone FROM t')).toThrow(
      'NOT_SUPPORTED: line 1:11: AT TIME ZONE with a non-literal zone',
    );
    expect(() => translate('SELECT multimap_agg(k, v) FROM t')).toThrow(
      'NOT_SUPPORTED: line 1:8: Function multimap_agg',
    );
    // DuckDB's own functions are not Athena's: a name Trino does not have is Trino's FUNCTION_NOT_FOUND.
    expect(() => translate('SELECT list_value(1), array_sum(ARRAY[1])')).toThrow(
      "FUNCTION_NOT_FOUND: line 1:8: Function 'list_value' not registered",
    );
    // A function the engine computes itself takes the arguments its entry declares, named as the caller wrote it.
    expect(() => translate("SELECT luhn_check('1', '2')")).toThrow(
      'FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (varchar(1), varchar(1)) for function luhn_check. Expected: luhn_check(varchar)',
    );
    expect(translate("SELECT from_base('ff', 16)")).toContain(`__loglake_from_base('ff', 16)`);
    // The table is looked up by the name as written: an object's own property names are no Trino functions.
    for (const name of ['constructor', 'hasOwnProperty', '__proto__', 'toString'])
      expect(() => translate(`SELECT ${name}(1)`)).toThrow(
        `FUNCTION_NOT_FOUND: line 1:8: Function '${name.toLowerCase()}' not registered`,
      );
  });

  test("where Trino's meaning depends on a type, the analyzer's type decides the translation", () => {
    // A map subscript fails on a missing key; an array's past its end (DuckDB would answer NULL for both).
    expect(translate("SELECT MAP(ARRAY['a'], ARRAY[1])['b']")).toContain(
      "ELSE error('Key not present in map: '",
    );
    expect(translate('SELECT ARRAY[1, 2][3]')).toContain(
      "'Array subscript must be less than or equal to array length: '",
    );
    // Inside TRY the checks yield NULL: DuckDB's TRY refuses error().
    expect(translate("SELECT try(MAP(ARRAY['a'], ARRAY[1])['b'])")).not.toContain('error(');
    // contains() on a CIDR is an IP test; on an array, list membership.
    expect(translate("SELECT contains('10.0.0.0/8', IPADDRESS '10.1.1.1')")).toContain(
      '__loglake_ip_contains',
    );
    expect(translate('SELECT contains(ARRAY[1], 1)')).toContain('list_contains');
    // cardinality of a map and of an array.
    expect(translate("SELECT cardinality(MAP(ARRAY['a'], ARRAY[1])), cardinality(ARRAY[1])")).toMatch(
      /cardinality\(.*len\(/,
    );
    // date + interval stays a date.
    expect(translate("SELECT DATE '2024-01-01' + INTERVAL '1' DAY")).toContain('AS DATE)');
    expect(translate("SELECT date_add('day', 1, DATE '2024-01-31')")).toMatch(/^SELECT CAST\(.* AS DATE\)/);
    // A literal's fixed offset is minutes (DuckDB's TIMESTAMPTZ literal reads no `+01:00` after a space);
    // a named zone is DuckDB's ICU zone.
    expect(translate("SELECT TIMESTAMP '2020-05-11 23:15:05 +01:00'")).toContain(
      "CAST(TIMESTAMP '2020-05-11 23:15:05' - INTERVAL (60) MINUTE AS TIMESTAMPTZ)",
    );
    expect(translate("SELECT TIMESTAMP '2020-05-11 23:15 America/New_York'")).toContain(
      "timezone('America/New_York', TIMESTAMP '2020-05-11 23:15:00')",
    );
    // Decimal division is exact at Trino's scale, not DuckDB's double.
    expect(translate('SELECT 1.0 / 3')).toContain('AS DECIMAL(2,1))');
    // A double cast to an integer rounds half away from zero; text must be digits.
    expect(translate('SELECT CAST(2.5e0 AS integer)')).toContain('CAST(round(2.5e0) AS INTEGER)');
    expect(translate("SELECT CAST('1.9' AS bigint)")).toContain(
      "'Cannot cast ''' || '1.9' || ''' to BIGINT'",
    );
    expect(translate("SELECT TRY_CAST('1.9' AS bigint)")).not.toContain('error(');
  });
});
