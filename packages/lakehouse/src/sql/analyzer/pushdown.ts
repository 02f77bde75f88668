// Pruning predicates for a scan, taken from WHERE conjuncts that compare a column of that table with a constant.
// Conservative by design: anything not certainly equivalent (casts, functions, columns of other relations,
// constants whose type differs from the column's) is left out; the full WHERE still runs in DuckDB.
import type { Expression, IcebergPrimitive, Schema } from '../../contract';
import { aliasOf, type Expr, type Relation, type TableRelation } from '../tree/ast';

type Constant = string | number | boolean | Date | { interval: number };

const TIMESTAMP_TEXT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(UTC|Z|[+-]\d{2}:?\d{2})?$/i;

/** A timestamp literal's instant (zone-less values are UTC, Athena's session zone); null if not exact to the ms. */
export function parseTimestampLiteral(text: string): Date | null {
  const m = TIMESTAMP_TEXT.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone] = m;
  if (fraction.length > 3 && /[1-9]/.test(fraction.slice(3))) return null;
  let ms = Date.UTC(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h),
    Number(mi),
    Number(s),
    Number(fraction.slice(0, 3).padEnd(3, '0')),
  );
  if (zone && !/^(utc|z)$/i.test(zone)) {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return Number.isNaN(ms) ? null : new Date(ms);
}

const UNIT_MS: Record<string, number> = { day: 86_400_000, hour: 3_600_000, minute: 60_000, second: 1000 };

function constant(e: Expr): Constant | undefined {
  switch (e.k) {
    case 'string':
      return e.value;
    case 'number':
      return /^\d+$/.test(e.text) && Number.isSafeInteger(Number(e.text))
        ? Number(e.text)
        : /e/i.test(e.text)
          ? Number(e.text)
          : undefined;
    case 'bool':
      return e.value;
    case 'typed':
      if (e.type === 'timestamp' || e.type === 'date') return parseTimestampLiteral(e.value) ?? undefined;
      return undefined;
    case 'interval': {
      const unit = UNIT_MS[e.from];
      if (!unit || e.to || !/^\d+$/.test(e.value.trim())) return undefined;
      return { interval: (e.negative ? -1 : 1) * Number(e.value) * unit };
    }
    case 'unary':
      if (e.op === '-') {
        const inner = constant(e.arg);
        return typeof inner === 'number' ? -inner : undefined;
      }
      return undefined;
    case 'func':
      if (
        e.name === 'from_iso8601_timestamp' &&
        e.args.length === 1 &&
        e.args[0]?.k === 'string' &&
        !e.over
      ) {
        return parseTimestampLiteral(e.args[0].value) ?? undefined;
      }
      return undefined;
    case 'binary': {
      if (e.op !== '+' && e.op !== '-') return undefined;
      const left = constant(e.left);
      const right = constant(e.right);
      if (left instanceof Date && right && typeof right === 'object' && 'interval' in right) {
        return new Date(left.getTime() + (e.op === '+' ? 1 : -1) * right.interval);
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** The constant as a value of the column's Iceberg type, or undefined when the comparison would need a cast. */
function valueFor(
  type: IcebergPrimitive,
  value: Constant,
  sourceType: Expr['k'],
  literalType?: string,
): unknown {
  switch (type) {
    case 'timestamp':
    case 'timestamptz':
      return value instanceof Date && literalType === 'timestamp' ? value : undefined;
    case 'date':
      return value instanceof Date && literalType === 'date' ? value : undefined;
    case 'int':
    case 'long':
      return typeof value === 'number' && Number.isInteger(value) && sourceType !== 'string'
        ? value
        : undefined;
    case 'float':
    case 'double':
      return typeof value === 'number' ? value : undefined;
    case 'string':
      return typeof value === 'string' && sourceType === 'string' ? value : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    default:
      return undefined;
  }
}

function literalType(e: Expr): string | undefined {
  if (e.k === 'typed') return e.type;
  if (e.k === 'func' && e.name === 'from_iso8601_timestamp') return 'timestamp';
  if (e.k === 'binary') return literalType(e.left);
  return undefined;
}

const FLIP: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '=': '=', '<>': '<>' };
const OPS: Record<string, 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte'> = {
  '=': 'eq',
  '<>': 'neq',
  '<': 'lt',
  '<=': 'lte',
  '>': 'gt',
  '>=': 'gte',
};

export interface ColumnMatcher {
  /** The table column an expression names, if it is certainly a column of this scan. */
  (expr: Expr): string | undefined;
}

export function columnMatcher(ref: TableRelation, schema: Schema, allowUnqualified: boolean): ColumnMatcher {
  const alias = aliasOf(ref);
  const columns = new Set(schema.fields.map((f) => f.name.toLowerCase()));
  return (expr) => {
    if (expr.k !== 'column' || ref.columnAliases) return undefined;
    const parts = expr.parts.map((p) => p.name);
    const column = parts[parts.length - 1] as string;
    if (!columns.has(column)) return undefined;
    if (parts.length === 1) return allowUnqualified ? column : undefined;
    return parts[parts.length - 2] === alias ? column : undefined;
  };
}

function convert(
  e: Expr,
  match: ColumnMatcher,
  types: Map<string, IcebergPrimitive>,
): Expression | undefined {
  const typeOf = (column: string): IcebergPrimitive => types.get(column) as IcebergPrimitive;
  switch (e.k) {
    case 'binary': {
      if (e.op === 'and' || e.op === 'or') {
        const left = convert(e.left, match, types);
        const right = convert(e.right, match, types);
        if (e.op === 'and') return left && right ? { op: 'and', args: [left, right] } : (left ?? right);
        return left && right ? { op: 'or', args: [left, right] } : undefined;
      }
      const op = OPS[e.op];
      if (!op) return undefined;
      let column = match(e.left);
      let other = e.right;
      let operator = e.op;
      if (!column) {
        column = match(e.right);
        other = e.left;
        operator = FLIP[e.op] as string;
      }
      if (!column) return undefined;
      const c = constant(other);
      if (c === undefined) return undefined;
      const value = valueFor(typeOf(column), c, other.k, literalType(other));
      return value === undefined ? undefined : { op: OPS[operator] as 'eq', column, value };
    }
    case 'between': {
      const column = match(e.arg);
      if (!column || e.not) return undefined;
      const low = constant(e.low);
      const high = constant(e.high);
      if (low === undefined || high === undefined) return undefined;
      const lowValue = valueFor(typeOf(column), low, e.low.k, literalType(e.low));
      const highValue = valueFor(typeOf(column), high, e.high.k, literalType(e.high));
      if (lowValue === undefined || highValue === undefined) return undefined;
      return {
        op: 'and',
        args: [
          { op: 'gte', column, value: lowValue },
          { op: 'lte', column, value: highValue },
        ],
      };
    }
    case 'in-list': {
      const column = match(e.arg);
      if (!column) return undefined;
      const values: unknown[] = [];
      for (const item of e.list) {
        const c = constant(item);
        const value = c === undefined ? undefined : valueFor(typeOf(column), c, item.k, literalType(item));
        if (value === undefined) return undefined;
        values.push(value);
      }
      return { op: e.not ? 'not-in' : 'in', column, values };
    }
    case 'is-null': {
      const column = match(e.arg);
      return column ? { op: e.not ? 'not-null' : 'is-null', column } : undefined;
    }
    default:
      return undefined;
  }
}

/** The pruning filter for one scan from a WHERE clause, or undefined when nothing is certain. */
export function pushdownFilter(
  where: Expr | undefined,
  match: ColumnMatcher,
  schema: Schema,
): Expression | undefined {
  if (!where) return undefined;
  const types = new Map(schema.fields.map((f) => [f.name.toLowerCase(), f.type]));
  return convert(where, match, types);
}

/** Table references whose rows a WHERE clause over `from` may prune (not on the null-extended side of an outer join). */
export function preservedTables(from: Relation[]): TableRelation[] {
  const out: TableRelation[] = [];
  const visit = (rel: Relation): void => {
    if (rel.k === 'table') out.push(rel);
    else if (rel.k === 'join') {
      if (rel.type === 'inner' || rel.type === 'cross' || rel.type === 'left') visit(rel.left);
      if (rel.type === 'inner' || rel.type === 'cross' || rel.type === 'right') visit(rel.right);
    }
  };
  from.forEach(visit);
  return out;
}
