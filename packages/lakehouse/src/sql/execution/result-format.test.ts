// Athena's value encoding of DuckDB results.
import { describe, expect, test } from '@jest/globals';
import { formatTimestampMicros, javaDouble, javaFloat } from './result-format';

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
