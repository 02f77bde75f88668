import { describe, expect, test } from '@jest/globals';
import { coerceValue, compareLiterals, decodeBound, encodeBound, literalToText } from './values';

describe('coercion of caller values to Iceberg literals', () => {
  test('timestamps: ISO with zone, space-separated, Date; micros kept', () => {
    expect(coerceValue('timestamp', '2024-05-01 10:00:00.123456')).toBe(1714557600123456n);
    expect(coerceValue('timestamptz', '2024-05-01T12:00:00+02:00')).toBe(1714557600000000n);
    expect(coerceValue('timestamp', new Date('2024-05-01T10:00:00Z'))).toBe(1714557600000000n);
    expect(() => coerceValue('timestamp', 1714557600)).toThrow(/expected a timestamp/);
    expect(() => coerceValue('timestamp', '2024-02-30 00:00:00')).toThrow(/invalid date/);
    expect(coerceValue('date', '2024-02-29')).toBe(19782);
    expect(coerceValue('date', '2000-02-29')).toBe(11016);
    expect(coerceValue('date', '1969-12-31')).toBe(-1);
    expect(() => coerceValue('date', '1900-02-29')).toThrow(/invalid date/);
    expect(() => coerceValue('date', '2023-02-29')).toThrow(/invalid date/);
  });

  test('integers: range-checked, digit strings accepted, fractions refused', () => {
    expect(coerceValue('int', '42')).toBe(42);
    expect(coerceValue('long', 9007199254740993n)).toBe(9007199254740993n);
    expect(() => coerceValue('int', 2 ** 31)).toThrow(/out of range for int/);
    expect(() => coerceValue('int', 1.5)).toThrow(/not an integer/);
  });

  test('decimals keep the unscaled value and refuse extra precision', () => {
    expect(coerceValue('decimal(10,2)', '12.5')).toBe(1250n);
    expect(coerceValue('decimal(10,2)', -0.07)).toBe(-7n);
    expect(() => coerceValue('decimal(4,2)', '123.45')).toThrow(/does not fit/);
    expect(() => coerceValue('decimal(4,2)', '1.234')).toThrow(/more than 2 decimal places/);
  });

  test('texts round-trip through coercion', () => {
    for (const [type, value] of [
      ['timestamp', '1969-12-31 23:59:59.999999'],
      ['timestamptz', '2024-05-01 10:00:00.000000+00'],
      ['date', '0999-01-31'],
      ['decimal(6,3)', '-1.005'],
      ['time', '23:59:59.500000'],
    ] as const) {
      const literal = coerceValue(type, value)!;
      expect(coerceValue(type, literalToText(type, literal))).toEqual(literal);
    }
  });
});

describe('single-value bound encoding', () => {
  test.each<[string, unknown, string]>([
    ['int', 1, '01000000'],
    ['long', 1n, '0100000000000000'],
    ['date', '1970-01-02', '01000000'],
    ['timestamp', '1970-01-01 00:00:01', '40420f0000000000'],
    ['double', 1, '000000000000f03f'],
    ['string', 'é', 'c3a9'],
    ['decimal(5,2)', '-1.00', '9c'],
    ['boolean', true, '01'],
  ])('%s %p → %s and back', (type, value, hex) => {
    // Prepare
    const literal = coerceValue(type, value)!;
    // Act
    const bytes = encodeBound(type, literal);
    // Assess
    expect(Buffer.from(bytes).toString('hex')).toBe(hex);
    expect(decodeBound(type, bytes)).toEqual(literal);
  });

  test('bounds written before a promotion (int → long, float → double) read at the wider type', () => {
    expect(decodeBound('long', encodeBound('int', -7))).toBe(-7n);
    expect(decodeBound('double', encodeBound('float', 1.5))).toBe(1.5);
  });

  test('strings compare by UTF-8 bytes', () => {
    expect(compareLiterals('\uffff', '\u{1f600}')).toBeLessThan(0);
    expect(compareLiterals(2n, 10n)).toBeLessThan(0);
  });
});
