// Trino's from_base / to_base (https://trino.io/docs/current/functions/math.html): bigints written in base 2-36,
// with Trino's messages for a bad radix or digits (MathFunctions).

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
