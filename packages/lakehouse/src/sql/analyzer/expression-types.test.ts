// Trino's types of expressions before running them, and the operator checks Trino's analyzer makes.
import { describe, expect, test } from '@jest/globals';
import type { Schema } from '../../contract';
import { parseStatement } from '../parser/parse-statement';
import { columnTypes } from './column-types';
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
  return new ExpressionTypes({ columnsOf: () => columnTypes(undefined, flows) })
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

  test('decimal arithmetic has the decimal types Trino gives it; avg of a decimal is that decimal', () => {
    expect(
      outputTypes(
        "SELECT 1.0 / 3, DECIMAL '10' / DECIMAL '4', 1.0 / 0.01, 2.5 * 1.25, 1.5 + 2, 7.5 % 2, 1.5 + 2e0, 1.5 + REAL '1', DECIMAL '-10'",
      ),
    ).toEqual([
      'decimal(2,1)',
      'decimal(2,0)',
      'decimal(5,2)',
      'decimal(5,3)',
      'decimal(12,1)',
      'decimal(2,1)',
      'double',
      'real',
      'decimal(2,0)',
    ]);
    expect(outputTypes('SELECT avg(x), avg(srcport) FROM (VALUES (1.25, 1)) t(x, srcport)')).toEqual([
      'decimal(3,2)',
      'double',
    ]);
  });

  test("timestamp literals take their zone after the time with or without a space; current_timestamp(p)'s precision", () => {
    expect(
      outputTypes(
        "SELECT TIMESTAMP '2020-05-11 23:15:05 +01:00', TIMESTAMP '2020-05-11 23:15:05.12-04:00', TIMESTAMP '2020-05-11 23:15 Z', current_timestamp(6), current_timestamp",
      ),
    ).toEqual([
      'timestamp(0) with time zone',
      'timestamp(2) with time zone',
      'timestamp(0) with time zone',
      'timestamp(6) with time zone',
      'timestamp(3) with time zone',
    ]);
  });

  test('an IPADDRESS is not compared with text (no implicit cast)', () => {
    expect(() => outputTypes("SELECT IPADDRESS '10.0.0.1' = '10.0.0.1'")).toThrow(
      'TYPE_MISMATCH: line 1:29: Cannot apply operator: ipaddress = varchar(8)',
    );
    expect(outputTypes("SELECT IPADDRESS '10.0.0.1' = CAST('10.0.0.1' AS ipaddress)")).toEqual(['boolean']);
  });

  test('concat, || and length take text; LIKE compares text', () => {
    expect(() => outputTypes("SELECT 'port ' || 443")).toThrow(
      'FUNCTION_NOT_FOUND: line 1:16: Unexpected parameters (varchar(5), integer) for function concat. Expected: ',
    );
    expect(() => outputTypes("SELECT concat('a', srcport) FROM flows")).toThrow(
      'Unexpected parameters (varchar(1), integer) for function concat',
    );
    expect(() => outputTypes('SELECT length(123)')).toThrow(
      'Unexpected parameters (integer) for function length',
    );
    expect(() => outputTypes("SELECT 'abc' LIKE 1")).toThrow(
      'TYPE_MISMATCH: line 1:19: Pattern for LIKE expression must evaluate to a varchar (actual: integer)',
    );
    expect(outputTypes("SELECT 'a' || NULL, concat('a', 'b'), ARRAY[1] || 2, 'a' LIKE 'b'")).toEqual([
      'varchar',
      'varchar',
      'array(integer)',
      'boolean',
    ]);
  });

  test('SELECT * and t.* read the types of the columns they expand to, a USING join once per column', () => {
    expect(outputTypes('SELECT * FROM flows')).toEqual(['integer', 'timestamp(6)']);
    expect(outputTypes('SELECT f.*, 1 AS one FROM flows f')).toEqual(['integer', 'timestamp(6)', 'integer']);
    expect(outputTypes('WITH c AS (SELECT * FROM flows) SELECT * FROM c')).toEqual([
      'integer',
      'timestamp(6)',
    ]);
    expect(outputTypes('SELECT * FROM flows a JOIN flows b USING (srcport)')).toEqual([
      'integer',
      'timestamp(6)',
      'timestamp(6)',
    ]);
    expect(outputTypes('SELECT * FROM flows, (SELECT nope(1) AS x) s')).toEqual([
      'integer',
      'timestamp(6)',
      'unknown to the analyzer',
    ]);
  });
});
