// Trino's mathematical and bitwise functions (https://trino.io/docs/current/functions/math.html, bitwise.html):
// DuckDB's under the same or another name, a translation where the semantics differ, and from_base/to_base (bigints
// written in base 2–36, with Trino's messages for a bad radix or digits, MathFunctions) computed here.
import { BIGINT, BOOLEAN, DOUBLE, VARCHAR } from '../analyzer/types';
import { raise, sameAsFirst, type FunctionFamily, type Translator } from './function';

/**
 * width_bucket(x, bound1, bound2, n): the bucket of x among n equal buckets between the bounds (0 below, n + 1
 * above; counted from bound1, so bounds given high to low count down), as Trino's MathFunctions.widthBucket;
 * width_bucket(x, bins): how many of the ascending bins are at most x.
 */
const widthBucket: Translator = (args, _node, ctx) => {
  const [x, b1, b2, n] = args as [string, string, string | undefined, string | undefined];
  if (b2 === undefined) return `CAST(len(list_filter(${b1}, b -> b <= ${x})) AS BIGINT)`;
  const lo = `least(${b1}, ${b2})`;
  const hi = `greatest(${b1}, ${b2})`;
  const bucket = `(CASE WHEN ${x} < ${lo} THEN 0 WHEN ${x} >= ${hi} THEN (${n}) + 1 ELSE CAST(trunc(CAST(${n} AS DOUBLE) * (${x} - ${lo}) / (${hi} - ${lo}) + 1) AS BIGINT) END)`;
  return (
    `(CASE WHEN (${n}) <= 0 THEN ${raise(ctx, "'bucketCount must be greater than 0'")} ` +
    `WHEN (${b1}) = (${b2}) THEN ${raise(ctx, "'bounds cannot equal each other'")} ` +
    `WHEN (${b1}) > (${b2}) THEN CAST((${n}) - ${bucket} + 1 AS BIGINT) ELSE CAST(${bucket} AS BIGINT) END)`
  );
};

/** Trino's from_base(string, radix): a bigint written in base 2–36. */
export function fromBase(text: string, radix: number): bigint {
  if (radix < 2 || radix > 36) throw new Error('Radix must be between 2 and 36');
  const digits = text.replace(/^[-+]/, '');
  const valid = digits.length > 0 && [...digits.toLowerCase()].every((d) => parseInt(d, 36) < radix);
  const value = valid ? BigInt(text.startsWith('-') ? -1 : 1) * parseBigInt(digits, radix) : undefined;
  if (value === undefined || value > 9223372036854775807n || value < -9223372036854775808n)
    throw new Error(`Not a valid base-${radix} number: ${text}`);
  return value;
}

function parseBigInt(digits: string, radix: number): bigint {
  let value = 0n;
  for (const d of digits.toLowerCase()) value = value * BigInt(radix) + BigInt(parseInt(d, 36));
  return value;
}

/** Trino's to_base(x, radix): x written in base 2–36, lower-case digits. */
export function toBase(value: bigint, radix: number): string {
  if (radix < 2 || radix > 36) throw new Error('Radix must be between 2 and 36');
  return value.toString(radix);
}

export const MATH_FUNCTIONS: FunctionFamily = {
  abs: { returns: sameAsFirst },
  acos: { returns: DOUBLE },
  asin: { returns: DOUBLE },
  atan: { returns: DOUBLE },
  atan2: { returns: DOUBLE },
  beta_cdf: {},
  // bit_count(x, bits): the 1 bits of x in `bits`-bit two's complement.
  bit_count: {
    returns: BIGINT,
    sql: ([x, bits], _node, ctx) => {
      const value = `CAST(${x} AS BIGINT)`;
      return (
        `(CASE WHEN (${bits}) NOT BETWEEN 2 AND 64 THEN ${raise(ctx, `'Bits specified in bit_count must be between 2 and 64, got ' || CAST(${bits} AS VARCHAR)`)} ` +
        `WHEN (${bits}) = 64 THEN CAST(bit_count(${value}) AS BIGINT) ` +
        `ELSE CAST(bit_count(${value} & ((CAST(1 AS BIGINT) << (${bits})) - 1)) AS BIGINT) END)`
      );
    },
  },
  bitwise_and: { returns: BIGINT, sql: ([a, b]) => `(${a} & ${b})` },
  bitwise_left_shift: { sql: ([x, n]) => `(${x} << ${n})` },
  bitwise_not: { returns: BIGINT, sql: ([x]) => `(~(${x}))` },
  bitwise_or: { returns: BIGINT, sql: ([a, b]) => `(${a} | ${b})` },
  bitwise_right_shift: {},
  bitwise_right_shift_arithmetic: {},
  bitwise_xor: { returns: BIGINT, sql: ([a, b]) => `xor(${a}, ${b})` },
  cbrt: { returns: DOUBLE },
  ceil: { returns: sameAsFirst },
  ceiling: { returns: sameAsFirst },
  cos: { returns: DOUBLE },
  cosh: { returns: DOUBLE },
  cosine_distance: {},
  cosine_similarity: { returns: DOUBLE },
  degrees: { returns: DOUBLE },
  e: { returns: DOUBLE },
  exp: { returns: DOUBLE },
  floor: { returns: sameAsFirst },
  from_base: {
    returns: BIGINT,
    udf: {
      params: ['VARCHAR', 'BIGINT'],
      result: 'BIGINT',
      compute: (text: string, radix: bigint) => fromBase(text, Number(radix)),
    },
  },
  infinity: {},
  inverse_beta_cdf: {},
  inverse_normal_cdf: {},
  is_finite: { returns: BOOLEAN },
  is_infinite: { returns: BOOLEAN },
  is_nan: { returns: BOOLEAN },
  ln: { returns: DOUBLE },
  log: { returns: DOUBLE },
  log10: { returns: DOUBLE },
  log2: { returns: DOUBLE },
  mod: { returns: sameAsFirst, sql: ([a, b]) => `(${a} % ${b})` },
  nan: {},
  normal_cdf: {},
  pi: { returns: DOUBLE },
  pow: { returns: DOUBLE },
  power: { returns: DOUBLE },
  radians: { returns: DOUBLE },
  rand: { returns: DOUBLE, sql: 'random' },
  random: { returns: DOUBLE },
  round: { returns: sameAsFirst },
  sign: { returns: sameAsFirst },
  sin: { returns: DOUBLE },
  sinh: { returns: DOUBLE },
  sqrt: { returns: DOUBLE },
  tan: { returns: DOUBLE },
  tanh: { returns: DOUBLE },
  to_base: {
    returns: VARCHAR,
    udf: {
      params: ['BIGINT', 'BIGINT'],
      result: 'VARCHAR',
      compute: (value: bigint, radix: bigint) => toBase(value, Number(radix)),
    },
  },
  truncate: { returns: sameAsFirst, sql: 'trunc' },
  width_bucket: { returns: BIGINT, sql: widthBucket },
  wilson_interval_lower: {},
  wilson_interval_upper: {},
};
