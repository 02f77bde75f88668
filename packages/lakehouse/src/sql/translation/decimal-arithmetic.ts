// Trino's decimal division as DuckDB SQL (DuckDB divides decimals as doubles): the exact quotient at the result's
// scale, rounded half up (away from zero), as trinodb/trino DecimalOperators.divide computes it. The operands'
// unscaled values are HUGEINTs; the quotient is built back into a decimal of the analyzer's result type.
import type { DecimalType } from '../analyzer/arithmetic-types';
import { raise } from '../functions/function';

/** The unscaled value (value × 10^scale) of a decimal or exact integer operand, as a HUGEINT. */
function unscaled(x: string, scale: number): string {
  if (scale === 0) return `CAST(${x} AS HUGEINT)`;
  return `CAST(${x} * CAST(${powerOfTen(scale)} AS DECIMAL(${scale + 1},0)) AS HUGEINT)`;
}

const powerOfTen = (n: number): string => `1${'0'.repeat(n)}`;

export interface DecimalDivision {
  left: string;
  leftScale: number;
  right: string;
  rightScale: number;
  result: DecimalType;
  /** What a zero divisor gives: Trino's division error (NULL inside TRY), or NULL (an average of no rows). */
  onZero: 'error' | 'null';
  inTry: boolean;
}

/** `left / right` at `result`'s scale, rounded half up. */
export function decimalDivide(d: DecimalDivision): string {
  const scale = d.result.scale;
  // left × 10^ls ÷ (right × 10^rs) = q × 10^-scale  ⇒  q = left_unscaled × 10^(scale + rs - ls) ÷ right_unscaled.
  const shift = scale + d.rightScale - d.leftScale;
  const n = `(${unscaled(d.left, d.leftScale)} * CAST('${powerOfTen(shift)}' AS HUGEINT))`;
  const r = unscaled(d.right, d.rightScale);
  const rounding = `(CASE WHEN 2 * abs(${n} % ${r}) >= abs(${r}) THEN (CASE WHEN (${n} < 0) = (${r} < 0) THEN 1 ELSE -1 END) ELSE 0 END)`;
  const quotient = `CAST((${n} // ${r}) + ${rounding} AS DECIMAL(38,0))`;
  const value =
    scale === 0
      ? quotient
      : `(${quotient} * CAST('0.${'0'.repeat(scale - 1)}1' AS DECIMAL(${scale},${scale})))`;
  const zero = d.onZero === 'null' ? 'NULL' : raise(d, `'Division by zero'`);
  return `(CASE WHEN ${r} = 0 THEN ${zero} ELSE CAST(${value} AS DECIMAL(${d.result.precision},${scale})) END)`;
}
