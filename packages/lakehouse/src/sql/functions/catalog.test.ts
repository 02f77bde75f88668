import { describe, expect, test } from '@jest/globals';
import { TRINO_FUNCTION_LIST } from '../../../test/sql/trino-function-list';
import { InternalEngineError } from '../errors';
import { parseStatement } from '../parser/parse-statement';
import { BIGINT, BOOLEAN } from '../analyzer/types';
import { ENGINE_UDFS, TRINO_FUNCTIONS, functionType, gatherFamilies } from './catalog';
import type { Call } from './function';

/** The call of the first SELECT item of `sql`. */
function callOf(sql: string): Call {
  const statement = parseStatement(sql) as unknown as { query: { body: { items: { expr: Call }[] } } };
  return statement.query.body.items[0]!.expr;
}

describe('the function table', () => {
  test("has an entry for each name of Trino's function list, and for nothing else", () => {
    const names = [...TRINO_FUNCTIONS.keys()];
    expect(names.filter((n) => !TRINO_FUNCTION_LIST.has(n))).toEqual([]);
    expect([...TRINO_FUNCTION_LIST].filter((n) => !TRINO_FUNCTIONS.has(n))).toEqual([]);
  });

  test('refuses a name declared in two families', () => {
    const gather = () => gatherFamilies({ A: { luhn_check: {} }, B: { luhn_check: {} } });
    expect(gather).toThrow(InternalEngineError);
    expect(gather).toThrow('Trino function luhn_check is declared twice: in A and in B');
  });

  test('gives each engine function one name', () => {
    const names = ENGINE_UDFS.map((u) => u.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('__loglake_luhn_check');
  });

  test("reads an entry's result type: fixed, by rule, or none", () => {
    expect(functionType(callOf("SELECT luhn_check('1')"), [undefined])).toEqual(BOOLEAN);
    expect(functionType(callOf('SELECT sum(x)'), [{ k: 'integer' }])).toEqual(BIGINT);
    expect(functionType(callOf('SELECT max(x, 2)'), [BIGINT, BIGINT])).toEqual({
      k: 'array',
      element: BIGINT,
    });
    expect(functionType(callOf('SELECT st_area(x)'), [undefined])).toBeUndefined();
  });
});
