// Generic traversal of queries, relations and expressions, with the CTE names visible at each table reference.
import type { Expr, Query, QueryBody, QuerySpec, Relation, SortItem, TableRelation, WindowSpec } from './ast';

export interface AstVisitor {
  expr?(expr: Expr): void;
  /** A table reference (also `TABLE t` bodies) and whether its single-part name is a CTE in scope. */
  table?(ref: TableRelation, isCte: boolean): void;
  spec?(spec: QuerySpec): void;
}

export function walkQuery(query: Query, visitor: AstVisitor, ctes: ReadonlySet<string> = new Set()): void {
  let scope = ctes;
  if (query.with) {
    const names = new Set(ctes);
    for (const cte of query.with.ctes) {
      if (query.with.recursive) names.add(cte.name.name);
      walkQuery(cte.query, visitor, names);
      names.add(cte.name.name);
    }
    scope = names;
  }
  walkBody(query.body, visitor, scope);
  walkSort(query.orderBy, visitor, scope);
  if (query.limit) walkExpr(query.limit, visitor, scope);
  if (query.offset) walkExpr(query.offset, visitor, scope);
}

function walkBody(body: QueryBody, visitor: AstVisitor, ctes: ReadonlySet<string>): void {
  switch (body.k) {
    case 'select':
      visitor.spec?.(body);
      for (const item of body.items) walkExpr(item.expr, visitor, ctes);
      for (const rel of body.from) walkRelation(rel, visitor, ctes);
      if (body.where) walkExpr(body.where, visitor, ctes);
      for (const e of body.groupBy?.items ?? []) walkExpr(e, visitor, ctes);
      if (body.having) walkExpr(body.having, visitor, ctes);
      for (const w of body.windows ?? []) walkWindow(w.spec, visitor, ctes);
      return;
    case 'setop':
      walkBody(body.left, visitor, ctes);
      walkBody(body.right, visitor, ctes);
      return;
    case 'values':
      for (const row of body.rows) walkExpr(row, visitor, ctes);
      return;
    case 'table':
      visitor.table?.({ k: 'table', name: body.name, pos: body.pos }, isCteName(body.name.parts, ctes));
      return;
    case 'nested':
      walkQuery(body.query, visitor, ctes);
  }
}

function isCteName(parts: { name: string }[], ctes: ReadonlySet<string>): boolean {
  return parts.length === 1 && ctes.has((parts[0] as { name: string }).name);
}

export function walkRelation(
  rel: Relation,
  visitor: AstVisitor,
  ctes: ReadonlySet<string> = new Set(),
): void {
  switch (rel.k) {
    case 'table':
      visitor.table?.(rel, isCteName(rel.name.parts, ctes));
      if (rel.version) walkExpr(rel.version.expr, visitor, ctes);
      return;
    case 'subquery':
      walkQuery(rel.query, visitor, ctes);
      return;
    case 'join':
      walkRelation(rel.left, visitor, ctes);
      walkRelation(rel.right, visitor, ctes);
      if (rel.on) walkExpr(rel.on, visitor, ctes);
      for (const u of rel.using ?? []) visitor.expr?.({ k: 'column', parts: [u], pos: u.pos });
      return;
    case 'unnest':
      for (const arg of rel.args) walkExpr(arg, visitor, ctes);
  }
}

function walkSort(items: SortItem[] | undefined, visitor: AstVisitor, ctes: ReadonlySet<string>): void {
  for (const item of items ?? []) walkExpr(item.expr, visitor, ctes);
}

function walkWindow(spec: WindowSpec, visitor: AstVisitor, ctes: ReadonlySet<string>): void {
  for (const e of spec.partitionBy) walkExpr(e, visitor, ctes);
  walkSort(spec.orderBy, visitor, ctes);
  if (spec.frame?.start.offset) walkExpr(spec.frame.start.offset, visitor, ctes);
  if (spec.frame?.end?.offset) walkExpr(spec.frame.end.offset, visitor, ctes);
}

export function walkExpr(expr: Expr, visitor: AstVisitor, ctes: ReadonlySet<string> = new Set()): void {
  visitor.expr?.(expr);
  const sub = (e: Expr | undefined): void => {
    if (e) walkExpr(e, visitor, ctes);
  };
  switch (expr.k) {
    case 'func':
      expr.args.forEach(sub);
      walkSort(expr.orderBy, visitor, ctes);
      sub(expr.filter);
      if (expr.over) walkWindow(expr.over, visitor, ctes);
      return;
    case 'binary':
      sub(expr.left);
      sub(expr.right);
      return;
    case 'unary':
    case 'is-null':
    case 'extract':
      sub(expr.arg);
      return;
    case 'between':
      sub(expr.arg);
      sub(expr.low);
      sub(expr.high);
      return;
    case 'in-list':
      sub(expr.arg);
      expr.list.forEach(sub);
      return;
    case 'in-query':
      sub(expr.arg);
      walkQuery(expr.query, visitor, ctes);
      return;
    case 'like':
      sub(expr.arg);
      sub(expr.pattern);
      sub(expr.escape);
      return;
    case 'is-distinct':
      sub(expr.left);
      sub(expr.right);
      return;
    case 'case':
      sub(expr.operand);
      for (const w of expr.whens) {
        sub(w.when);
        sub(w.then);
      }
      sub(expr.else);
      return;
    case 'cast':
      sub(expr.arg);
      return;
    case 'subquery':
    case 'exists':
      walkQuery(expr.query, visitor, ctes);
      return;
    case 'quantified':
      sub(expr.arg);
      walkQuery(expr.query, visitor, ctes);
      return;
    case 'array':
    case 'row':
      expr.items.forEach(sub);
      return;
    case 'subscript':
      sub(expr.arg);
      sub(expr.index);
      return;
    case 'dereference':
      sub(expr.arg);
      return;
    case 'lambda':
      sub(expr.body);
      return;
    case 'at-time-zone':
      sub(expr.arg);
      sub(expr.zone);
      return;
    case 'grouping-sets':
      for (const set of expr.sets) set.forEach(sub);
      return;
    default:
      return;
  }
}
