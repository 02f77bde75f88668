// Numbers as the Java side of the house prints them: Trino (Athena's results, metadata tables) and CloudWatch's
// alarm reasons both print doubles with Java's Double.toString, and decimals as plain digits at their scale.

/**
 * Java's Double.toString (https://docs.oracle.com/en/java/javase/21/docs/api/java.base/java/lang/Double.html#toString(double)):
 * a decimal point always; plain digits for magnitudes in [1e-3, 1e7), computerized scientific notation
 * (`1.0E7`, `1.0E-4`) outside it; `NaN`, `Infinity`, `-Infinity`, and `-0.0` for negative zero.
 */
export function javaDouble(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(value);
  if (abs >= 1e-3 && abs < 1e7) {
    const text = String(value);
    return text.includes('.') ? text : `${text}.0`;
  }
  const [mantissa = '', exponent = ''] = value.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${exponent.replace('+', '')}`;
}

/** Java's Float.toString (Trino `real`): the shortest decimal that round-trips through float32. */
export function javaFloat(value: number): string {
  if (!Number.isFinite(value) || value === 0) return javaDouble(value);
  const target = Math.fround(value);
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(target.toPrecision(digits));
    if (Math.fround(candidate) === target) return javaDouble(candidate);
  }
  return javaDouble(target);
}

/** A decimal's unscaled value at its scale, as Trino prints it (`-0.05` for -5 at scale 2). */
export function formatDecimal(unscaled: bigint, scale: number): string {
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const text = scale > 0 ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return negative ? `-${text}` : text;
}
