// Trino's timestamp literal forms: the zone after the time with or without a space, precision from the digits.
import { describe, expect, test } from '@jest/globals';
import { parseTimestampLiteral } from './timestamp-literal';

describe('timestamp literals', () => {
  test('wall clock, zone and precision', () => {
    expect(parseTimestampLiteral('2020-05-11 23:15:05 +01:00')).toEqual({
      local: '2020-05-11 23:15:05',
      zone: '+01:00',
      precision: 0,
    });
    expect(parseTimestampLiteral('2020-05-11 23:15:05.123-04:00')).toEqual({
      local: '2020-05-11 23:15:05.123',
      zone: '-04:00',
      precision: 3,
    });
    expect(parseTimestampLiteral('2012-10-31 01:00 UTC')).toEqual({
      local: '2012-10-31 01:00:00',
      zone: 'UTC',
      precision: 0,
    });
    expect(parseTimestampLiteral('2020-05-11 11:15:05.055 America/New_York')?.zone).toBe('America/New_York');
    expect(parseTimestampLiteral('2020-05-11T1:2:3Z')).toEqual({
      local: '2020-05-11 01:02:03',
      zone: 'UTC',
      precision: 0,
    });
    expect(parseTimestampLiteral('2020-05-11')).toEqual({ local: '2020-05-11 00:00:00', precision: 0 });
    expect(parseTimestampLiteral('2020-05-11 23:15:05.123456789')?.precision).toBe(9);
    expect(parseTimestampLiteral('yesterday')).toBeUndefined();
  });
});
