// Trino's mathematical and bitwise functions DuckDB has not under the same name
// (https://trino.io/docs/current/functions/math.html, bitwise.html).
import { raise, type Translator } from './call';
import { FROM_BASE, TO_BASE } from './engine-functions';

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

export const MATH_FUNCTIONS: Record<string, Translator> = {
  width_bucket: widthBucket,
  from_base: ([s, radix]) => `${FROM_BASE}(${s}, ${radix})`,
  to_base: ([x, radix]) => `${TO_BASE}(${x}, ${radix})`,
  bitwise_not: ([x]) => `(~(${x}))`,
  // bit_count(x, bits): the 1 bits of x in `bits`-bit two's complement.
  bit_count: ([x, bits], _node, ctx) => {
    const value = `CAST(${x} AS BIGINT)`;
    return (
      `(CASE WHEN (${bits}) NOT BETWEEN 2 AND 64 THEN ${raise(ctx, `'Bits specified in bit_count must be between 2 and 64, got ' || CAST(${bits} AS VARCHAR)`)} ` +
      `WHEN (${bits}) = 64 THEN CAST(bit_count(${value}) AS BIGINT) ` +
      `ELSE CAST(bit_count(${value} & ((CAST(1 AS BIGINT) << (${bits})) - 1)) AS BIGINT) END)`
    );
  },
  bitwise_left_shift: ([x, n]) => `(${x} << ${n})`,
};
