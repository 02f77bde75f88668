// Trino's types of expressions before running them, and the operator checks Trino's analyzer makes.
import { describe, expect, test } from '@jest/globals';
import type { Schema } from '../../contract';
import { parseStatement } from '../parser/parse-statement';
import { ExpressionTypes } from './expression-types';
import { typeName } from './types';

const flows: Schema = {
  'schema-id': 0,
  type: 'struct',
  fields: [
    { id: 1, name: 'srcport', type: 'int', required: false },
    { id: 2, name: 'start_time', type: 'timestamp', required: false },
  ],
};

function outputTypes(sql: string): string[] {
  const s = parseStatement(sql);
  if (s.k !== 'query') throw new Error(s.k);
  return new ExpressionTypes({ schemaOf: () => flows })
    .query(s.query)
    .map((t) => (t ? typeName(t) : 'unknown to the analyzer'));
}

describe('expression types', () => {
  test('literals, columns, casts and functions have Trino types', () => {
    expect(
      outputTypes(
        "SELECT 'cat', 1, 1.50, TIMESTAMP '2024-01-01 00:00:00.321', TIMESTAMP '2024-01-01 00:00:00 UTC', start_time, CAST(start_time AS timestamp), date_trunc('hour', start_time), srcport + 1 FROM flows",
      ),
    ).toEqual([
      'varchar(3)',
      'integer',
      'decimal(3,2)',
      'timestamp(3)',
      'timestamp(0) with time zone',
      'timestamp(6)',
      'timestamp(3)',
      'timestamp(6)',
      'integer',
    ]);
    expect(outputTypes("SELECT start_time AT TIME ZONE 'America/New_York' FROM flows")).toEqual([
      'timestamp(6) with time zone',
    ]);
    expect(outputTypes('SELECT nope(srcport) FROM flows')).toEqual(['unknown to the analyzer']);
  });

  test('a character value is never compared with a number or a timestamp; like types compare', () => {
    expect(() => outputTypes("SELECT 'a' = 1")).toThrow(
      'TYPE_MISMATCH: line 1:12: Cannot apply operator: varchar(1) = integer',
    );
    expect(() => outputTypes("SELECT count(*) FROM flows WHERE srcport = '443'")).toThrow(
      'Cannot apply operator: integer = varchar(3)',
    );
    expect(() => outputTypes("SELECT count(*) FROM flows WHERE start_time > '2024-01-01'")).toThrow(
      'Cannot apply operator: timestamp(6) > varchar(10)',
    );
    expect(
      outputTypes("SELECT 'a' = 'b', srcport = 443, start_time > TIMESTAMP '2024-01-01 00:00:00' FROM flows"),
    ).toEqual(['boolean', 'boolean', 'boolean']);
  });
});
