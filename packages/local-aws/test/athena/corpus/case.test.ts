// The corpus's judge: a result that contradicts the documented one, a gap that stopped failing, a wrong error,
// each must be judged a failure.
import { describe, expect, test } from '@jest/globals';
import { judge, type CaseOutcome, type CorpusCase } from './case';

const base: CorpusCase = {
  id: 'x/y',
  family: 'conversion',
  source: 'https://trino.io/docs/current/functions/conversion.html',
  sql: 'SELECT 1',
  rows: [['1'], ['2']],
  types: ['integer'],
};
const ok = (rows: (string | null)[][], type = 'integer'): CaseOutcome => ({
  state: 'SUCCEEDED',
  columns: [{ name: '_col0', type }],
  rows,
});
const failed = (reason: string): CaseOutcome => ({ state: 'FAILED', reason, columns: [], rows: [] });

describe('judge', () => {
  test('the documented rows and types pass; any other rows, order or type fail', () => {
    expect(judge(base, ok([['1'], ['2']])).kind).toBe('pass');
    expect(judge(base, ok([['1'], ['3']])).kind).toBe('fail');
    expect(judge(base, ok([['2'], ['1']])).kind).toBe('fail');
    expect(judge({ ...base, unordered: true }, ok([['2'], ['1']])).kind).toBe('pass');
    expect(judge(base, ok([['1'], ['2']], 'bigint')).kind).toBe('fail');
    expect(judge(base, failed('SYNTAX_ERROR: x')).kind).toBe('fail');
  });

  test('maps compare entry by entry only when their order is not defined', () => {
    const maps: CorpusCase = { ...base, types: undefined, rows: [['{a=1, b={c=2, d=3}}']] };
    expect(judge(maps, ok([['{b={c=2, d=3}, a=1}']])).kind).toBe('fail');
    expect(judge({ ...maps, unorderedMaps: true }, ok([['{b={c=2, d=3}, a=1}']])).kind).toBe('pass');
    expect(judge({ ...maps, unorderedMaps: true }, ok([['{b={c=2, d=4}, a=1}']])).kind).toBe('fail');
  });

  test('an expected error must be that error', () => {
    const errorCase: CorpusCase = { ...base, error: 'DIVISION_BY_ZERO: Division by zero' };
    expect(judge(errorCase, failed('DIVISION_BY_ZERO: Division by zero')).kind).toBe('pass');
    expect(judge(errorCase, failed('GENERIC_INTERNAL_ERROR: x')).kind).toBe('fail');
    expect(judge(errorCase, ok([['1']])).kind).toBe('fail');
  });

  test('a gap passes as a gap only with its NOT_SUPPORTED error, and fails once it starts to succeed', () => {
    const gap: CorpusCase = {
      ...base,
      gap: { error: /^NOT_SUPPORTED: .*reduce/, reason: 'no DuckDB reduce' },
    };
    expect(judge(gap, failed('NOT_SUPPORTED: line 1:8: Function reduce is not supported')).kind).toBe('gap');
    expect(judge(gap, failed('SYNTAX_ERROR: line 1:8: mismatched input')).kind).toBe('fail');
    expect(judge(gap, ok([['1'], ['2']])).kind).toBe('fail');
  });

  test('a refusal at submission must be that refusal, not a failed query', () => {
    const refused: CorpusCase = { ...base, refusedAtSubmission: true, error: /^line 1:1: mismatched input/ };
    const outcome = (state: string, reason: string): CaseOutcome => ({
      state,
      reason,
      columns: [],
      rows: [],
    });
    expect(judge(refused, outcome('REFUSED', "line 1:1: mismatched input 'SELEC'")).kind).toBe('pass');
    expect(judge(refused, outcome('FAILED', "line 1:1: mismatched input 'SELEC'")).kind).toBe('fail');
    expect(judge(refused, outcome('REFUSED', 'WorkGroup x is not found.')).kind).toBe('fail');
  });
});
