// Where each named column and function first appears in a statement, so an error found while running it (a
// DuckDB message naming a column) can carry Athena's `line L:C` of the construct.
import type { SourcePosition } from '../errors';
import type { Statement } from '../tree/ast';
import { walkExpr, walkQuery, type AstVisitor } from '../tree/ast-walk';

const EXPR_KINDS = new Set([
  'string',
  'number',
  'bool',
  'null',
  'typed',
  'interval',
  'column',
  'star',
  'func',
  'binary',
  'unary',
  'between',
  'in-list',
  'in-query',
  'like',
  'is-null',
  'is-distinct',
  'case',
  'cast',
  'extract',
  'subquery',
  'exists',
  'quantified',
  'array',
  'row',
  'subscript',
  'dereference',
  'lambda',
  'at-time-zone',
  'current',
  'grouping-sets',
]);

/** Built on the first lookup: most statements run without an error to place, so most never walk their tree. */
export class PositionIndex {
  private index?: { columns: Map<string, SourcePosition>; functions: Map<string, SourcePosition> };

  constructor(private readonly statement: Statement) {}

  private get columns(): Map<string, SourcePosition> {
    return this.built().columns;
  }

  private get functions(): Map<string, SourcePosition> {
    return this.built().functions;
  }

  private built(): { columns: Map<string, SourcePosition>; functions: Map<string, SourcePosition> } {
    if (this.index) return this.index;
    const columns = new Map<string, SourcePosition>();
    const functions = new Map<string, SourcePosition>();
    const visitor: AstVisitor = {
      expr: (e) => {
        if (e.k === 'column') {
          const name = (e.parts[e.parts.length - 1] as { name: string }).name;
          if (!columns.has(name)) columns.set(name, e.pos);
          const full = e.parts.map((p) => p.name).join('.');
          if (!columns.has(full)) columns.set(full, e.pos);
        }
        if (e.k === 'func' && !functions.has(e.name)) functions.set(e.name, e.pos);
      },
    };
    const walkAny = (value: unknown): void => {
      // Statements hold queries, relations and expressions in different fields: walk whatever is there.
      if (!value || typeof value !== 'object') return;
      if (Array.isArray(value)) return value.forEach(walkAny);
      const node = value as { k?: string; body?: unknown };
      if (node.body && 'pos' in node && !('k' in node))
        return walkQuery(value as Parameters<typeof walkQuery>[0], visitor);
      if (typeof node.k === 'string' && EXPR_KINDS.has(node.k))
        return walkExpr(value as Parameters<typeof walkExpr>[0], visitor);
      Object.values(value).forEach(walkAny);
    };
    walkAny(this.statement);
    this.index = { columns, functions };
    return this.index;
  }

  column(name: string): SourcePosition | undefined {
    return this.columns.get(name.toLowerCase());
  }

  /** The first column reference qualified by `qualifier` (`z.a` for `z`), with its position. */
  qualified(qualifier: string): { name: string; pos: SourcePosition } | undefined {
    const prefix = `${qualifier.toLowerCase()}.`;
    for (const [name, pos] of this.columns) if (name.startsWith(prefix)) return { name, pos };
    return undefined;
  }

  func(name: string): SourcePosition | undefined {
    return this.functions.get(name.toLowerCase());
  }
}
