// The parsed form of the Trino statements the front end understands (the bottom layer of sql/, as Trino's
// io.trino.sql.tree: it imports nothing above it). Expressions are kept structurally so they can be analyzed,
// re-emitted as DuckDB SQL and inspected for pushdown.
import type { SourcePosition } from '../errors';

export interface Identifier {
  /** Lower-cased (Athena's catalog is case-insensitive, quoted or not). */
  name: string;
  quoted: boolean;
  pos: SourcePosition;
}

export interface QualifiedName {
  parts: Identifier[];
  pos: SourcePosition;
}

/** A type as written: `varchar`, `decimal(10,2)`, `array(varchar)`, `timestamp(3) with time zone`. */
export interface TypeName {
  base: string;
  params: (number | TypeName)[];
  /** row(a int, b varchar) field names. */
  fieldNames?: string[];
  withTimeZone?: boolean;
  pos: SourcePosition;
}

export type Expr =
  | { k: 'string'; value: string; pos: SourcePosition }
  | { k: 'number'; text: string; pos: SourcePosition }
  | { k: 'bool'; value: boolean; pos: SourcePosition }
  | { k: 'null'; pos: SourcePosition }
  | { k: 'typed'; type: string; value: string; pos: SourcePosition }
  | { k: 'interval'; value: string; negative: boolean; from: string; to?: string; pos: SourcePosition }
  | { k: 'column'; parts: Identifier[]; pos: SourcePosition }
  | { k: 'star'; qualifier?: Identifier[]; pos: SourcePosition }
  | {
      k: 'func';
      name: string;
      args: Expr[];
      distinct: boolean;
      orderBy?: SortItem[];
      filter?: Expr;
      over?: WindowSpec;
      nullTreatment?: 'ignore' | 'respect';
      pos: SourcePosition;
    }
  | { k: 'binary'; op: string; left: Expr; right: Expr; pos: SourcePosition }
  | { k: 'unary'; op: '-' | '+' | 'not'; arg: Expr; pos: SourcePosition }
  | { k: 'between'; arg: Expr; low: Expr; high: Expr; not: boolean; pos: SourcePosition }
  | { k: 'in-list'; arg: Expr; list: Expr[]; not: boolean; pos: SourcePosition }
  | { k: 'in-query'; arg: Expr; query: Query; not: boolean; pos: SourcePosition }
  | { k: 'like'; arg: Expr; pattern: Expr; escape?: Expr; not: boolean; pos: SourcePosition }
  | { k: 'is-null'; arg: Expr; not: boolean; pos: SourcePosition }
  | { k: 'is-distinct'; left: Expr; right: Expr; not: boolean; pos: SourcePosition }
  | { k: 'case'; operand?: Expr; whens: { when: Expr; then: Expr }[]; else?: Expr; pos: SourcePosition }
  | { k: 'cast'; arg: Expr; type: TypeName; safe: boolean; pos: SourcePosition }
  | { k: 'extract'; field: string; arg: Expr; pos: SourcePosition }
  | { k: 'subquery'; query: Query; pos: SourcePosition }
  | { k: 'exists'; query: Query; pos: SourcePosition }
  | {
      k: 'quantified';
      op: string;
      arg: Expr;
      quantifier: 'any' | 'all' | 'some';
      query: Query;
      pos: SourcePosition;
    }
  | { k: 'array'; items: Expr[]; pos: SourcePosition }
  | { k: 'row'; items: Expr[]; pos: SourcePosition }
  | { k: 'subscript'; arg: Expr; index: Expr; pos: SourcePosition }
  | { k: 'dereference'; arg: Expr; field: Identifier; pos: SourcePosition }
  | { k: 'lambda'; params: Identifier[]; body: Expr; pos: SourcePosition }
  | { k: 'at-time-zone'; arg: Expr; zone: Expr; pos: SourcePosition }
  | {
      k: 'current';
      what: 'current_timestamp' | 'current_date' | 'current_time' | 'localtimestamp' | 'localtime';
      /** `current_timestamp(6)`: the precision asked for (Trino's default is 3). */
      precision?: number;
      pos: SourcePosition;
    }
  | { k: 'grouping-sets'; kind: 'rollup' | 'cube' | 'sets'; sets: Expr[][]; pos: SourcePosition };

export interface SortItem {
  expr: Expr;
  desc: boolean;
  nulls?: 'first' | 'last';
}

export interface FrameBound {
  kind: 'unbounded-preceding' | 'preceding' | 'current' | 'following' | 'unbounded-following';
  offset?: Expr;
}

export interface WindowSpec {
  name?: string;
  partitionBy: Expr[];
  orderBy: SortItem[];
  frame?: { unit: 'rows' | 'range' | 'groups'; start: FrameBound; end?: FrameBound };
}

export interface VersionClause {
  kind: 'version' | 'timestamp';
  expr: Expr;
  pos: SourcePosition;
}

export type Relation =
  | {
      k: 'table';
      name: QualifiedName;
      version?: VersionClause;
      alias?: Identifier;
      columnAliases?: Identifier[];
      pos: SourcePosition;
    }
  | {
      k: 'subquery';
      query: Query;
      lateral: boolean;
      alias?: Identifier;
      columnAliases?: Identifier[];
      pos: SourcePosition;
    }
  | {
      k: 'join';
      type: 'inner' | 'left' | 'right' | 'full' | 'cross';
      left: Relation;
      right: Relation;
      on?: Expr;
      using?: Identifier[];
      pos: SourcePosition;
    }
  | {
      k: 'unnest';
      args: Expr[];
      ordinality: boolean;
      alias?: Identifier;
      columnAliases?: Identifier[];
      pos: SourcePosition;
    };

export interface SelectItem {
  expr: Expr;
  alias?: Identifier;
}

export interface QuerySpec {
  k: 'select';
  distinct: boolean;
  items: SelectItem[];
  from: Relation[];
  where?: Expr;
  groupBy?: { distinct: boolean; items: Expr[] };
  having?: Expr;
  windows?: { name: string; spec: WindowSpec }[];
  pos: SourcePosition;
}

export type QueryBody =
  | QuerySpec
  | {
      k: 'setop';
      op: 'union' | 'except' | 'intersect';
      all: boolean;
      left: QueryBody;
      right: QueryBody;
      pos: SourcePosition;
    }
  | { k: 'values'; rows: Expr[]; pos: SourcePosition }
  | { k: 'table'; name: QualifiedName; pos: SourcePosition }
  | { k: 'nested'; query: Query; pos: SourcePosition };

export interface Cte {
  name: Identifier;
  columns?: Identifier[];
  query: Query;
}

export interface Query {
  with?: { recursive: boolean; ctes: Cte[] };
  body: QueryBody;
  orderBy?: SortItem[];
  offset?: Expr;
  limit?: Expr;
  /** FETCH FIRST n ROWS WITH TIES: the limit keeps the rows that tie with the last one in ORDER BY. */
  withTies?: boolean;
  pos: SourcePosition;
}

export interface ColumnDef {
  name: Identifier;
  type: TypeName;
  comment?: string;
  notNull: boolean;
}

/** A partition transform as written in PARTITIONED BY / partitioning: `hour(c)`, `bucket(16, c)`, `c`. */
export interface PartitionSpecItem {
  transform: 'identity' | 'year' | 'month' | 'day' | 'hour' | 'bucket' | 'truncate' | 'void';
  column: string;
  param?: number;
  pos: SourcePosition;
}

export interface MergeClause {
  matched: boolean;
  condition?: Expr;
  action: 'update' | 'delete' | 'insert';
  set?: { column: Identifier; value: Expr }[];
  insertColumns?: Identifier[];
  insertValues?: Expr[];
  pos: SourcePosition;
}

export type Statement =
  | { k: 'query'; query: Query; pos: SourcePosition }
  | {
      k: 'create-table';
      name: QualifiedName;
      ifNotExists: boolean;
      columns: ColumnDef[];
      partitioning: PartitionSpecItem[];
      properties: Record<string, Expr>;
      location?: string;
      comment?: string;
      pos: SourcePosition;
    }
  | {
      k: 'ctas';
      name: QualifiedName;
      ifNotExists: boolean;
      columnAliases?: Identifier[];
      properties: Record<string, Expr>;
      query: Query;
      withData: boolean;
      pos: SourcePosition;
    }
  | { k: 'drop-table'; name: QualifiedName; ifExists: boolean; pos: SourcePosition }
  | { k: 'show-tables'; schema?: QualifiedName; like?: string; pos: SourcePosition }
  | { k: 'describe'; name: QualifiedName; pos: SourcePosition }
  | { k: 'insert'; target: QualifiedName; columns?: Identifier[]; query: Query; pos: SourcePosition }
  | { k: 'delete'; target: QualifiedName; alias?: Identifier; where?: Expr; pos: SourcePosition }
  | {
      k: 'update';
      target: QualifiedName;
      alias?: Identifier;
      set: { column: Identifier; value: Expr }[];
      where?: Expr;
      pos: SourcePosition;
    }
  | {
      k: 'merge';
      target: QualifiedName;
      targetAlias?: Identifier;
      source: Relation;
      on: Expr;
      clauses: MergeClause[];
      pos: SourcePosition;
    }
  | { k: 'alter-add-columns'; name: QualifiedName; columns: ColumnDef[]; pos: SourcePosition }
  | { k: 'alter-drop-column'; name: QualifiedName; column: Identifier; pos: SourcePosition }
  | {
      k: 'alter-change-column';
      name: QualifiedName;
      column: Identifier;
      definition: ColumnDef;
      position?: { first: true } | { after: Identifier };
      pos: SourcePosition;
    }
  | { k: 'alter-set-properties'; name: QualifiedName; properties: Record<string, Expr>; pos: SourcePosition }
  | { k: 'alter-unset-properties'; name: QualifiedName; keys: string[]; pos: SourcePosition }
  | { k: 'show-columns'; name: QualifiedName; pos: SourcePosition }
  | { k: 'show-create-table'; name: QualifiedName; pos: SourcePosition }
  | { k: 'show-tblproperties'; name: QualifiedName; key?: string; pos: SourcePosition }
  | RefusedStatement;

/**
 * A statement Athena documents and the local engine parses only to refuse it: what it is, the object it names
 * (a table for OPTIMIZE/VACUUM/ALTER TABLE, a view or database otherwise) and where.
 */
export interface RefusedStatement {
  k: 'refused';
  what:
    | 'OPTIMIZE'
    | 'VACUUM'
    | 'ALTER TABLE RENAME TO'
    | 'ALTER TABLE REPLACE COLUMNS'
    | 'CREATE VIEW'
    | 'ALTER DATABASE';
  /** The table the statement acts on (absent for views and databases). */
  table?: QualifiedName;
  pos: SourcePosition;
}

export type TableRelation = Extract<Relation, { k: 'table' }>;

/** The name a table reference is known by in its query: its alias, else its table name. */
export const aliasOf = (ref: TableRelation): string =>
  ref.alias?.name ?? (ref.name.parts[ref.name.parts.length - 1] as Identifier).name;

/** Trino's name of a select item's output column: its alias, a column's or field's name, else `_colN`. */
export function outputName(expr: Expr, alias: string | undefined, index: number): string {
  if (alias) return alias;
  if (expr.k === 'column') return (expr.parts[expr.parts.length - 1] as Identifier).name;
  if (expr.k === 'dereference') return expr.field.name;
  return `_col${index}`;
}
