// The translator (Trino → DuckDB), the pushdown extraction and Athena's value encoding, without a warehouse.
import { describe, expect, test } from '@jest/globals';
import type { Schema } from '../contract';
import type { Expr } from './ast';
import { DuckdbWriter, type TableRelation } from './duckdb-writer';
import { parseStatement } from './parse-statement';
import { columnMatcher, parseTimestampLiteral, pushdownFilter } from './pushdown';
import { javaDouble, javaFloat, formatTimestampMicros } from './result-format';

const writer = new DuckdbWriter({
  relation: (ref) =>
    `(SELECT * FROM mem_${ref.name.parts.map((p) => p.name).join('_')}) AS "${ref.alias?.name ?? 't'}"`,
});

function translate(sql: string): string {
  const s = parseStatement(sql);
  if (s.k !== 'query') throw new Error(s.k);
  return writer.query(s.query);
}

function whereOf(sql: string): { where: Expr; ref: TableRelation } {
  const s = parseStatement(sql);
  if (s.k !== 'query' || s.query.body.k !== 'select' || !s.query.body.where) throw new Error('no where');
  return { where: s.query.body.where, ref: s.query.body.from[0] as TableRelation };
}

const schema: Schema = {
  'schema-id': 0,
  type: 'struct',
  fields: [
    { id: 1, name: 'start_time', type: 'timestamp', required: false },
    { id: 2, name: 'srcaddr', type: 'string', required: false },
    { id: 3, name: 'bytes', type: 'long', required: false },
  ],
};

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
      `SELECT CAST('x' AS VARCHAR) AS "_col0", CAST("y" AS BIGINT[]) AS "_col1", TIMESTAMP '2024-01-01 10:00:00' AS "_col2", TIMESTAMPTZ '2024-01-01 10:00:00 UTC' AS "_col3", CAST('12.50' AS DECIMAL(4,2)) AS "_col4", INTERVAL '3' DAY AS "_col5"`,
    );
  });

  test('unaliased select items are named like Trino: column name, else _colN', () => {
    expect(translate('SELECT a, t.b, a + 1, count(*) AS n FROM t')).toBe(
      `SELECT "a" AS "a", "t"."b" AS "b", ("a" + 1) AS "_col2", count(*) AS "n" FROM (SELECT * FROM mem_t) AS "t"`,
    );
  });

  test('set operations, window frames and NULL ordering are explicit', () => {
    expect(translate('SELECT a FROM t EXCEPT ALL SELECT a FROM u ORDER BY a')).toBe(
      `(SELECT "a" AS "a" FROM (SELECT * FROM mem_t) AS "t") EXCEPT ALL (SELECT "a" AS "a" FROM (SELECT * FROM mem_u) AS "t") ORDER BY "a" ASC NULLS LAST`,
    );
    expect(
      translate('SELECT sum(x) OVER (ORDER BY y ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM t'),
    ).toContain(
      'sum("x") OVER (ORDER BY "y" ASC NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)',
    );
  });

  test('constructs without a faithful translation fail clearly', () => {
    expect(() => translate("SELECT ts AT TIME ZONE 'Europe/Paris' FROM t")).toThrow(
      "NOT_SUPPORTED: line 1:11: AT TIME ZONE other than 'UTC'",
    );
    expect(() => translate('SELECT map_agg(k, v) FROM t')).toThrow(
      'NOT_SUPPORTED: line 1:8: Function map_agg',
    );
  });
});

describe('pushdown filters for pruning', () => {
  test('column-vs-constant conjuncts become the contract Expression; the rest is left to DuckDB', () => {
    const { where, ref } = whereOf(
      "SELECT * FROM flows WHERE start_time >= TIMESTAMP '2024-05-01 10:00:00' AND start_time < TIMESTAMP '2024-05-01 10:00:00' + INTERVAL '1' HOUR AND lower(srcaddr) = 'x' AND bytes IN (1, 2)",
    );
    expect(pushdownFilter(where, columnMatcher(ref, schema, true), schema)).toEqual({
      op: 'and',
      args: [
        {
          op: 'and',
          args: [
            { op: 'gte', column: 'start_time', value: new Date(Date.UTC(2024, 4, 1, 10)) },
            { op: 'lt', column: 'start_time', value: new Date(Date.UTC(2024, 4, 1, 11)) },
          ],
        },
        { op: 'in', column: 'bytes', values: [1, 2] },
      ],
    });
  });

  test('conservative: mismatched types, other tables, half-convertible ORs yield nothing', () => {
    const cases = [
      "SELECT * FROM flows WHERE start_time >= '2024-05-01'",
      "SELECT * FROM flows WHERE bytes = '5'",
      "SELECT * FROM flows f WHERE other.srcaddr = 'a'",
      "SELECT * FROM flows WHERE srcaddr = 'a' OR lower(srcaddr) = 'b'",
      'SELECT * FROM flows WHERE bytes = 1.5',
    ];
    for (const sql of cases) {
      const { where, ref } = whereOf(sql);
      expect(pushdownFilter(where, columnMatcher(ref, schema, !ref.alias), schema)).toBeUndefined();
    }
  });

  test('flipped comparisons, BETWEEN, IS NULL, qualified columns', () => {
    const { where, ref } = whereOf(
      'SELECT * FROM flows f WHERE 10 < f.bytes AND f.bytes BETWEEN 1 AND 99 AND f.srcaddr IS NOT NULL',
    );
    expect(pushdownFilter(where, columnMatcher(ref, schema, false), schema)).toEqual({
      op: 'and',
      args: [
        {
          op: 'and',
          args: [
            { op: 'gt', column: 'bytes', value: 10 },
            {
              op: 'and',
              args: [
                { op: 'gte', column: 'bytes', value: 1 },
                { op: 'lte', column: 'bytes', value: 99 },
              ],
            },
          ],
        },
        { op: 'not-null', column: 'srcaddr' },
      ],
    });
  });

  test('timestamp literals: zones, and sub-millisecond values are not pushed', () => {
    expect(parseTimestampLiteral('2024-05-01 10:00:00 UTC')).toEqual(new Date(Date.UTC(2024, 4, 1, 10)));
    expect(parseTimestampLiteral('2024-05-01 12:00:00 +02:00')).toEqual(new Date(Date.UTC(2024, 4, 1, 10)));
    expect(parseTimestampLiteral('2024-05-01 10:00:00.123456')).toBeNull();
    expect(parseTimestampLiteral('2024-05-01')).toEqual(new Date(Date.UTC(2024, 4, 1)));
  });
});

describe("Athena's value encoding", () => {
  test('doubles and reals print like Java', () => {
    expect([1, 1.5, 0.001, 0.0001, 1e7, 12345678.9, -2.5e-7, NaN, Infinity].map(javaDouble)).toEqual([
      '1.0',
      '1.5',
      '0.001',
      '1.0E-4',
      '1.0E7',
      '1.23456789E7',
      '-2.5E-7',
      'NaN',
      'Infinity',
    ]);
    expect(javaFloat(Math.fround(0.1))).toBe('0.1');
  });

  test('timestamps at millisecond precision, before 1970 too', () => {
    expect(formatTimestampMicros(1_714_557_600_123_456n)).toBe('2024-05-01 10:00:00.123');
    expect(formatTimestampMicros(-1n)).toBe('1969-12-31 23:59:59.999');
  });
});
