import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { DuckDbSession } from '../duckdb/duckdb-session';
import { icebergHash } from './murmur3';
import {
  applyTransform,
  parseTransform,
  partitionPathValue,
  transformTextSql,
  validateTransform,
} from './transforms';
import { coerceValue, type Literal } from './values';

describe('murmur3 bucket hashing (spec appendix B vectors)', () => {
  test.each<[string, unknown, number]>([
    ['int', 34, 2017239379],
    ['long', 34n, 2017239379],
    ['decimal(4,2)', '14.20', -500754589],
    ['date', '2017-11-16', -653330422],
    ['time', '22:31:08', -662762989],
    ['timestamp', '2017-11-16T22:31:08', -2047944441],
    ['timestamptz', '2017-11-16T14:31:08-08:00', -2047944441],
    ['string', 'iceberg', 1210000089],
    ['uuid', 'f79c3e09-677c-4bbd-a479-3f349cb785e7', 1488055340],
    ['binary', new Uint8Array([0, 1, 2, 3]), -188683207],
  ])('%s %p hashes to %d', (type, value, expected) => {
    // Prepare
    const literal = coerceValue(type, value) as Literal;
    // Act / Assess
    expect(icebergHash(type, literal)).toBe(expected);
  });

  test('bucket[N] = (hash & MAX_INT) % N', () => {
    expect(applyTransform(parseTransform('bucket[16]'), 'int', 34)).toBe((2017239379 & 0x7fffffff) % 16);
    expect(applyTransform(parseTransform('bucket[16]'), 'string', 'iceberg')).toBe(1210000089 % 16);
  });
});

describe('time and truncate transforms', () => {
  const ts = (text: string) => coerceValue('timestamp', text) as Literal;

  test('hour, day, month and year floor towards minus infinity (also before 1970)', () => {
    expect(applyTransform(parseTransform('hour'), 'timestamp', ts('1970-01-01 01:00:00'))).toBe(1);
    expect(applyTransform(parseTransform('hour'), 'timestamp', ts('1969-12-31 23:30:00'))).toBe(-1);
    expect(applyTransform(parseTransform('day'), 'timestamp', ts('1969-12-31 23:30:00'))).toBe(-1);
    expect(applyTransform(parseTransform('month'), 'timestamp', ts('2017-11-16 22:31:08'))).toBe(
      47 * 12 + 10,
    );
    expect(applyTransform(parseTransform('year'), 'date', coerceValue('date', '2017-11-16'))).toBe(47);
    expect(applyTransform(parseTransform('month'), 'date', coerceValue('date', '1969-12-01'))).toBe(-1);
  });

  test('truncate keeps the floor of ints and decimals and the prefix of strings', () => {
    expect(applyTransform(parseTransform('truncate[10]'), 'int', -1)).toBe(-10);
    expect(applyTransform(parseTransform('truncate[10]'), 'long', 19n)).toBe(10n);
    expect(
      applyTransform(parseTransform('truncate[50]'), 'decimal(9,2)', coerceValue('decimal(9,2)', '10.65')),
    ).toBe(1050n);
    expect(applyTransform(parseTransform('truncate[3]'), 'string', 'iceberg')).toBe('ice');
  });

  test('partition paths are human-readable', () => {
    expect(partitionPathValue(parseTransform('hour'), 'int', 474_000)).toBe('2024-01-28-00');
    expect(partitionPathValue(parseTransform('month'), 'int', 47 * 12 + 10)).toBe('2017-11');
    expect(partitionPathValue(parseTransform('day'), 'date', 0)).toBe('1970-01-01');
    // Java's TransformUtil writes years with %04d.
    expect(partitionPathValue(parseTransform('year'), 'int', 999 - 1970)).toBe('0999');
    expect(partitionPathValue(parseTransform('month'), 'int', (999 - 1970) * 12 + 2)).toBe('0999-03');
    expect(partitionPathValue(parseTransform('year'), 'int', -1 - 1970)).toBe('-001');
  });

  test('invalid transforms are named errors naming the column and the accepted types', () => {
    expect(() => validateTransform('hour', 'date', 'd')).toThrow(
      expect.objectContaining({ name: 'InvalidTransformError' }),
    );
    expect(() => validateTransform('bucket[0]', 'int', 'i')).toThrow(/positive/);
    expect(() => validateTransform('minute', 'timestamp', 't')).toThrow(
      /Unknown partition transform 'minute'/,
    );
    expect(() => validateTransform('truncate[4]', 'double', 'x')).toThrow(
      /cannot apply to column 'x' of type double/,
    );
  });
});

describe('DuckDB forms agree with the JS transforms', () => {
  let session: DuckDbSession;
  beforeAll(async () => {
    session = await DuckDbSession.open();
  });
  afterAll(() => session.close());

  test.each<[string, string, string]>([
    ['hour', 'timestamp', "TIMESTAMP '1969-12-31 23:30:00'"],
    ['hour', 'timestamptz', "TIMESTAMPTZ '2024-05-01 10:59:59+00'"],
    ['day', 'timestamp', "TIMESTAMP '1969-12-31 23:30:00'"],
    ['month', 'date', "DATE '1969-12-01'"],
    ['year', 'timestamp', "TIMESTAMP '2017-11-16 22:31:08'"],
    ['truncate[10]', 'int', '-1'],
    ['truncate[3]', 'string', "'iceberg'"],
  ])('%s on %s %s', async (transform, type, sqlValue) => {
    // Prepare
    const t = parseTransform(transform);
    const sql = transformTextSql(t, type, `v`)!;
    // Act
    const [row] = await session.all(
      `SELECT ${sql} AS p, CAST(v AS VARCHAR) AS v FROM (SELECT ${sqlValue} AS v)`,
    );
    // Assess
    const resultType = t.kind === 'day' ? 'date' : t.kind === 'truncate' ? type : 'int';
    const expected = applyTransform(t, type, coerceValue(type, row?.['v']));
    expect(coerceValue(resultType, row?.['p'])).toEqual(expected);
  });
});
