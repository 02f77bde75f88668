// Rendering a bound expression as a DuckDB predicate over the table's current column names.
import { sqlIdent } from '../duckdb/duckdb-session';
import { literalToSql } from '../metadata/values';
import type { Expression, Schema } from '../contract';
import { bindExpression, type BoundExpression } from './bind';

const OPERATORS = { eq: '=', neq: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

export function boundToSql(expression: BoundExpression, qualifier?: string): string {
  const column = (name: string) => (qualifier ? `${qualifier}.${sqlIdent(name)}` : sqlIdent(name));
  switch (expression.op) {
    case 'true':
      return 'TRUE';
    case 'false':
      return 'FALSE';
    case 'and':
    case 'or':
      if (expression.args.length === 0) return expression.op === 'and' ? 'TRUE' : 'FALSE';
      return `(${expression.args.map((a) => boundToSql(a, qualifier)).join(expression.op === 'and' ? ' AND ' : ' OR ')})`;
    case 'is-null':
      return `(${column(expression.field.name)} IS NULL)`;
    case 'not-null':
      return `(${column(expression.field.name)} IS NOT NULL)`;
    case 'in':
    case 'not-in': {
      if (expression.values.length === 0) return expression.op === 'in' ? 'FALSE' : 'TRUE';
      const list = expression.values.map((v) => literalToSql(expression.field.type, v)).join(', ');
      return `(${column(expression.field.name)} ${expression.op === 'in' ? 'IN' : 'NOT IN'} (${list}))`;
    }
    default:
      return `(${column(expression.field.name)} ${OPERATORS[expression.op]} ${literalToSql(expression.field.type, expression.value)})`;
  }
}

/** Binds `expression` to `schema` and renders it (unknown columns or bad values throw named errors). */
export function expressionToSql(expression: Expression, schema: Schema, qualifier?: string): string {
  return boundToSql(bindExpression(expression, schema), qualifier);
}
