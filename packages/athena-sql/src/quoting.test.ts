import { describe, expect, test } from '@jest/globals';
import { sqlIdentifier, sqlString } from './quoting';

describe('SQL quoting', () => {
  test('string literals double their single quotes; null is NULL', () => {
    expect(sqlString("o'brien")).toBe("'o''brien'");
    expect(sqlString("'; DROP TABLE t; --")).toBe("'''; DROP TABLE t; --'");
    expect(sqlString(42)).toBe("'42'");
    expect(sqlString(null)).toBe('NULL');
    expect(sqlString(undefined)).toBe('NULL');
  });

  test('identifiers are double-quoted with their double quotes doubled', () => {
    expect(sqlIdentifier('vpc_flow_logs')).toBe('"vpc_flow_logs"');
    expect(sqlIdentifier('s3tablescatalog/loglake-01-tables')).toBe('"s3tablescatalog/loglake-01-tables"');
    expect(sqlIdentifier('a"b')).toBe('"a""b"');
  });
});
