// Binding the contract's Expression to a schema: columns resolve to fields (by name → id), literals are
// coerced to the column's type, and NOT is pushed down to the leaves so evaluators stay monotone.
import type { Expression, Schema, SchemaField } from '../contract';
import { InvalidExpressionError } from '../errors';
import { findField } from '../metadata/schema';
import { CoercionError, coerceValue, type Literal } from '../metadata/values';

export type ComparisonOp = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte';

export type BoundLeaf =
  | { op: ComparisonOp; field: SchemaField; value: Literal | null }
  | { op: 'in' | 'not-in'; field: SchemaField; values: (Literal | null)[] }
  | { op: 'is-null' | 'not-null'; field: SchemaField };

export type BoundExpression =
  { op: 'true' } | { op: 'false' } | { op: 'and' | 'or'; args: BoundExpression[] } | BoundLeaf;

const NEGATED: Record<string, string> = {
  eq: 'neq',
  neq: 'eq',
  lt: 'gte',
  gte: 'lt',
  gt: 'lte',
  lte: 'gt',
  in: 'not-in',
  'not-in': 'in',
  'is-null': 'not-null',
  'not-null': 'is-null',
  true: 'false',
  false: 'true',
};

function literal(field: SchemaField, value: unknown): Literal | null {
  try {
    return coerceValue(field.type, value);
  } catch (error) {
    const reason = error instanceof CoercionError ? error.message : String(error);
    throw new InvalidExpressionError(
      `Cannot compare column '${field.name}' (${field.type}) with ${String(value)}: ${reason}.`,
      {
        value,
        cause: error,
      },
    );
  }
}

export function bindExpression(
  expression: Expression,
  schema: Schema,
  table?: string,
  negate = false,
): BoundExpression {
  switch (expression.op) {
    case 'true':
    case 'false':
      return { op: (negate ? NEGATED[expression.op] : expression.op) as 'true' | 'false' };
    case 'not':
      return bindExpression(expression.arg, schema, table, !negate);
    case 'and':
    case 'or': {
      const op = negate ? (expression.op === 'and' ? 'or' : 'and') : expression.op;
      if (!Array.isArray(expression.args)) {
        throw new InvalidExpressionError(`'${expression.op}' needs an args array.`, { value: expression });
      }
      return { op, args: expression.args.map((arg) => bindExpression(arg, schema, table, negate)) };
    }
    case 'eq':
    case 'neq':
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      const field = findField(schema, expression.column, table);
      const op = (negate ? NEGATED[expression.op] : expression.op) as ComparisonOp;
      return { op, field, value: literal(field, expression.value) };
    }
    case 'in':
    case 'not-in': {
      const field = findField(schema, expression.column, table);
      const op = (negate ? NEGATED[expression.op] : expression.op) as 'in' | 'not-in';
      return { op, field, values: expression.values.map((v) => literal(field, v)) };
    }
    case 'is-null':
    case 'not-null': {
      const field = findField(schema, expression.column, table);
      return { op: (negate ? NEGATED[expression.op] : expression.op) as 'is-null' | 'not-null', field };
    }
    default:
      throw new InvalidExpressionError(
        `Unknown expression operator '${String((expression as { op: unknown }).op)}'.`,
        {
          value: expression,
        },
      );
  }
}

/** Columns (field ids) an expression reads. */
export function referencedFieldIds(expression: BoundExpression): Set<number> {
  const ids = new Set<number>();
  const visit = (e: BoundExpression) => {
    if (e.op === 'and' || e.op === 'or') e.args.forEach(visit);
    else if ('field' in e) ids.add(e.field.id);
  };
  visit(expression);
  return ids;
}
