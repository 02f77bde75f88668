// Trino's result types of arithmetic (+ - * / %): exact integers stay exact at the wider type, an exact value
// with a decimal is decimal, anything with a real or double is approximate; decimal results take the precision
// and scale of Trino's decimal operators. Scales as https://trino.io/docs/current/functions/decimal.html gives them;
// the division's precision as Trino computes it (trinodb/trino DecimalOperators: `min(38, a_precision + b_scale +
// max(b_scale - a_scale, 0))`; the page's formula, `xp + ys-xs + max(0, ys-xs)`, can be too small for the
// quotient, e.g. 1.0 / 0.01).
import { BIGINT, DOUBLE, isExactInteger, isNumeric, type SqlType } from './types';

export type DecimalType = Extract<SqlType, { k: 'decimal' }>;

const INTEGER_WIDTH = ['tinyint', 'smallint', 'integer', 'bigint'];
/** The decimal an exact integer converts to (Trino's implicit coercion). */
const INTEGER_DECIMAL: Record<string, number> = { tinyint: 3, smallint: 5, integer: 10, bigint: 19 };

/** A number as a decimal operand: a decimal itself, an exact integer as Trino coerces it. */
export function decimalOf(t: SqlType): DecimalType | undefined {
  if (t.k === 'decimal') return t;
  const precision = INTEGER_DECIMAL[t.k];
  return precision === undefined ? undefined : { k: 'decimal', precision, scale: 0 };
}

/**
 * A decimal literal's type (Trino's Decimals.parse: `1.50` is decimal(3,2), `0.5` decimal(1,1)); a `DECIMAL '...'`
 * literal counts its leading zeros too (https://trino.io/docs/current/functions/decimal.html:
 * `DECIMAL '0000012345.1234500000'` is DECIMAL(20, 10)).
 */
export function decimalLiteralType(text: string, countLeadingZeros: boolean): DecimalType {
  const [whole = '', fraction = ''] = text.trim().replace(/^[-+]/, '').split('.');
  const integral = countLeadingZeros ? whole : whole.replace(/^0+/, '');
  return { k: 'decimal', precision: Math.max(1, integral.length + fraction.length), scale: fraction.length };
}

/** Trino's decimal operator result for `x op y`. */
export function decimalResult(op: string, x: DecimalType, y: DecimalType): DecimalType {
  const [xp, xs, yp, ys] = [x.precision, x.scale, y.precision, y.scale];
  const scale = Math.max(xs, ys);
  switch (op) {
    case '*':
      return { k: 'decimal', precision: Math.min(38, xp + yp), scale: xs + ys };
    case '/':
      return { k: 'decimal', precision: Math.min(38, xp + ys + Math.max(ys - xs, 0)), scale };
    case '%':
      return { k: 'decimal', precision: Math.min(xp - xs, yp - ys) + scale, scale };
    default:
      return { k: 'decimal', precision: Math.min(38, 1 + scale + Math.max(xp - xs, yp - ys)), scale };
  }
}

export function arithmeticType(
  op: string,
  left: SqlType | undefined,
  right: SqlType | undefined,
): SqlType | undefined {
  if (!left || !right) return undefined;
  if (left.k === 'time') return right.k === 'interval day to second' ? left : undefined;
  if (left.k === 'timestamp' || left.k === 'date') {
    if (op === '-' && right.k === left.k) return { k: 'interval day to second' };
    return right.k.startsWith('interval') ? left : undefined;
  }
  if (right.k === 'timestamp' || right.k === 'date') return op === '+' ? right : undefined;
  if (!isNumeric(left) || !isNumeric(right)) return undefined;
  if (isExactInteger(left) && isExactInteger(right)) {
    const wider = Math.max(INTEGER_WIDTH.indexOf(left.k), INTEGER_WIDTH.indexOf(right.k));
    return wider === 3 ? BIGINT : { k: INTEGER_WIDTH[wider] as 'integer' };
  }
  if (left.k === 'double' || right.k === 'double') return DOUBLE;
  if (left.k === 'real' || right.k === 'real') return { k: 'real' };
  const x = decimalOf(left);
  const y = decimalOf(right);
  return x && y ? decimalResult(op, x, y) : undefined;
}
