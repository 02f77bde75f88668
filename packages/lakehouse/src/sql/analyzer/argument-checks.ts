// Trino's analyzer refuses a call whose argument types match none of the function's signatures, and a LIKE
// whose operands are not text: the checks for the functions whose arguments Trino does not convert implicitly
// and DuckDB would (concat and `||` of a number, length of a number). Only known types are checked: an
// argument whose type the analyzer could not tell is left to DuckDB.
import { GenericUserError, type SourcePosition } from '../errors';
import { isCharacter, typeName, type SqlType } from './types';

/** Trino's FUNCTION_NOT_FOUND for argument types no signature takes (FunctionResolver). */
function unexpectedParameters(
  name: string,
  args: SqlType[],
  expected: string[],
  position: SourcePosition,
): GenericUserError {
  return new GenericUserError(
    'FUNCTION_NOT_FOUND',
    `Unexpected parameters (${args.map(typeName).join(', ')}) for function ${name}. Expected: ${expected.join(', ')}`,
    { position, value: name },
  );
}

/** concat's signatures as Trino lists them (the `||` operator is concat). */
const CONCAT = [
  'concat(E, array(E)) E',
  'concat(array(E)) E',
  'concat(array(E), E) E',
  'concat(char(x), char(y))',
  'concat(varbinary)',
  'concat(varchar)',
];
const LENGTH = ['length(char(x))', 'length(varbinary)', 'length(varchar(x))'];

const textual = (t: SqlType) => isCharacter(t) || t.k === 'unknown';
const binary = (t: SqlType) => t.k === 'varbinary' || t.k === 'unknown';

/** concat(a, b, ...) and a || b: all text, or all varbinary, or array concatenation. */
export function checkConcat(args: (SqlType | undefined)[], position: SourcePosition): void {
  if (args.some((t) => t === undefined || t.k === 'array')) return;
  const known = args as SqlType[];
  if (known.every(textual) || known.every(binary)) return;
  throw unexpectedParameters('concat', known, CONCAT, position);
}

/** Argument checks of other functions by name. */
export function checkArguments(name: string, args: (SqlType | undefined)[], position: SourcePosition): void {
  if (name === 'concat') return checkConcat(args, position);
  const [first] = args;
  if (name === 'length' && args.length === 1 && first && !textual(first) && !binary(first))
    throw unexpectedParameters(name, [first], LENGTH, position);
}

/**
 * LIKE's operands must be text (Trino's ExpressionAnalyzer.visitLikePredicate coerces them to varchar:
 * `Pattern for LIKE expression must evaluate to a varchar (actual: integer)`).
 */
export function checkLike(
  operands: { role: string; type: SqlType | undefined; position: SourcePosition }[],
): void {
  for (const { role, type, position } of operands) {
    if (type && !textual(type))
      throw new GenericUserError(
        'TYPE_MISMATCH',
        `${role} for LIKE expression must evaluate to a varchar (actual: ${typeName(type)})`,
        { position, value: type },
      );
  }
}
