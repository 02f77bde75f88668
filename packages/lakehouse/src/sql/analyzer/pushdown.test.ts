// Pruning filters from WHERE clauses, without a warehouse.
import { describe, expect, test } from '@jest/globals';
import type { Schema } from '../../contract';
import { parseStatement } from '../parser/parse-statement';
import type { Expr, TableRelation } from '../tree/ast';
import { columnMatcher, parseTimestampLiteral, pushdownFilter } from './pushdown';

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
