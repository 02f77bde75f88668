import { describe, expect, test } from '@jest/globals';
import { formatDecimal, javaDouble } from './number-text';

describe('numbers as Java prints them', () => {
  test('doubles follow Double.toString: scientific notation from 1e7 up and below 1e-3, -0.0 for negative zero', () => {
    // Prepare: Java's documented output for each (java.lang.Double#toString(double))
    const java: [number, string][] = [
      [1e7, '1.0E7'],
      [12345678.9, '1.23456789E7'],
      [9999999, '9999999.0'],
      [1e-3, '0.001'],
      [1e-4, '1.0E-4'],
      [NaN, 'NaN'],
      [Infinity, 'Infinity'],
      [-Infinity, '-Infinity'],
      [-0, '-0.0'],
      [0, '0.0'],
      [5, '5.0'],
    ];

    // Act / Assess
    expect(java.map(([n]) => javaDouble(n))).toEqual(java.map(([, text]) => text));
  });

  test('decimals print their unscaled digits at the scale', () => {
    expect([formatDecimal(-5n, 2), formatDecimal(12345n, 2), formatDecimal(7n, 0)]).toEqual([
      '-0.05',
      '123.45',
      '7',
    ]);
  });
});
