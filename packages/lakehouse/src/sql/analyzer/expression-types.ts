// Trino's types for the expressions of a statement, as far as they can be told before running it: literals,
// columns of bound tables (and of subqueries, VALUES and UNNEST built from them), casts and the functions whose
// result type follows from their arguments. The translation layer asks these types where Trino's meaning
// depends on them (a map subscript, contains(cidr, ip), a timestamp's precision or zone) and the analysis
// refuses, as Trino's analyzer does, an operator applied to a character and a numeric or temporal value.
// Function return types are their entries' in the function table (functions/). Where a type cannot be told (a function without a type rule, a
// correlated name) it is left unknown and nothing is checked or changed on its account: DuckDB's own typing applies.
import type { Schema } from '../../contract';
import { GenericUserError } from '../errors';
import {
  aliasOf,
  outputName,
  type Expr,
  type Identifier,
  type Query,
  type QueryBody,
  type QuerySpec,
  type Relation,
  type TableRelation,
} from '../tree/ast';
import {
  BIGINT,
  BOOLEAN,
  commonType,
  DATE,
  DOUBLE,
  INTEGER,
  UNKNOWN,
  VARCHAR,
  isCharacter,
  isNumeric,
  sqlTypeOfIceberg,
  sqlTypeOfName,
  typeName,
  type SqlType,
} from './types';
import { checkArguments, checkConcat, checkLike } from './argument-checks';
import { arithmeticType, decimalLiteralType } from './arithmetic-types';
import type { TypedColumn } from './column-types';
import { functionType } from '../functions/catalog';
import { literalPrecision, parseTimestampLiteral } from './timestamp-literal';

/** The columns a table reference reads (undefined for WITH query names and metadata tables). */
export interface TableSchemas {
  columnsOf(ref: TableRelation): TypedColumn[] | undefined;
}

interface ScopeColumn {
  name: string;
  type?: SqlType;
}

interface ScopeRelation {
  alias?: string;
  /** Undefined when the relation's columns are not known (nothing is resolved through it then). */
  columns?: ScopeColumn[];
}

interface Scope {
  relations: ScopeRelation[];
  lambda?: Map<string, SqlType | undefined>;
  parent?: Scope;
}

const ROW_FIELD = (i: number): string => `field${i}`;

function numberType(text: string): SqlType {
  if (/[eE]/.test(text)) return DOUBLE;
  if (text.includes('.')) return decimalLiteralType(text, false);
  const value = BigInt(text);
  return value <= 2147483647n ? INTEGER : BIGINT;
}

function typedLiteralType(type: string, value: string): SqlType | undefined {
  switch (type) {
    case 'timestamp': {
      const literal = parseTimestampLiteral(value);
      if (!literal) return undefined;
      const { zone, precision } = literal;
      return zone === undefined ? { k: 'timestamp', precision } : { k: 'timestamp', precision, zone };
    }
    case 'time':
      return { k: 'time', precision: literalPrecision(value) };
    case 'date':
      return DATE;
    case 'decimal':
      return decimalLiteralType(value, true);
    case 'varchar':
    case 'char':
      return { k: 'varchar', length: [...value].length };
    case 'double':
    case 'real':
    case 'bigint':
    case 'json':
    case 'varbinary':
    case 'ipaddress':
      return { k: type };
    case 'integer':
      return INTEGER;
    default:
      return undefined;
  }
}

/** Families Trino never converts between implicitly (an operator over two of them is a TYPE_MISMATCH). */
function family(t: SqlType): string | undefined {
  if (isCharacter(t)) return 'character';
  if (isNumeric(t)) return 'numeric';
  if (t.k === 'boolean') return 'boolean';
  if (t.k === 'date' || t.k === 'timestamp') return 'datetime';
  // Trino has no implicit cast from varchar to IPADDRESS (only CAST): `ip = '10.0.0.1'` is a TYPE_MISMATCH.
  if (t.k === 'ipaddress') return 'ipaddress';
  return undefined;
}

const COMPARISONS = new Set(['=', '<>', '<', '<=', '>', '>=']);
const ARITHMETIC = new Set(['+', '-', '*', '/', '%']);

export class ExpressionTypes {
  private readonly types = new Map<Expr, SqlType | undefined>();
  /** The scope entry of each FROM item analyzed (for `SELECT *`). */
  private readonly relations = new Map<Relation, ScopeRelation>();
  /** The output column names of each SELECT analyzed (stars expanded), undefined where they cannot be told. */
  private readonly outputs = new Map<QuerySpec, string[] | undefined>();

  constructor(private readonly tables: TableSchemas) {}

  /** The Trino type of an expression analyzed before, when it could be told. */
  typeOf(expr: Expr): SqlType | undefined {
    return this.types.get(expr);
  }

  /** Analyzes a query; returns the types of its output columns. */
  query(query: Query, outer?: Scope): (SqlType | undefined)[] {
    const ctes = new Map<string, ScopeColumn[] | undefined>();
    return this.queryWith(query, outer, ctes);
  }

  /** Analyzes expressions evaluated over one table (UPDATE's SET and WHERE, MERGE's clauses). */
  expressions(exprs: Expr[], relations: { alias: string; schema?: Schema }[]): void {
    const scope: Scope = {
      relations: relations.map((r) => ({
        alias: r.alias,
        columns: r.schema?.fields.map((f) => ({
          name: f.name.toLowerCase(),
          type: sqlTypeOfIceberg(f.type),
        })),
      })),
    };
    for (const e of exprs) this.expr(e, scope);
  }

  private queryWith(
    query: Query,
    outer: Scope | undefined,
    inherited: Map<string, ScopeColumn[] | undefined>,
  ): (SqlType | undefined)[] {
    const ctes = new Map(inherited);
    for (const cte of query.with?.ctes ?? []) {
      const types = this.queryWith(cte.query, outer, ctes);
      const names = cte.columns?.map((c) => c.name) ?? this.outputNames(cte.query.body);
      ctes.set(cte.name.name, names ? names.map((name, i) => ({ name, type: types[i] })) : undefined);
    }
    const { types, scope } = this.body(query.body, outer, ctes);
    const orderScope: Scope = scope ?? { relations: [], parent: outer };
    for (const item of query.orderBy ?? []) this.expr(item.expr, orderScope);
    if (query.limit) this.expr(query.limit, { relations: [], parent: outer });
    if (query.offset) this.expr(query.offset, { relations: [], parent: outer });
    return types;
  }

  private outputNames(body: QueryBody): string[] | undefined {
    switch (body.k) {
      case 'select':
        return this.outputs.get(body);
      case 'setop':
        return this.outputNames(body.left);
      case 'nested':
        return this.outputNames(body.query.body);
      default:
        return undefined;
    }
  }

  private body(
    body: QueryBody,
    outer: Scope | undefined,
    ctes: Map<string, ScopeColumn[] | undefined>,
  ): { types: (SqlType | undefined)[]; scope?: Scope } {
    switch (body.k) {
      case 'select':
        return this.spec(body, outer, ctes);
      case 'setop': {
        const left = this.body(body.left, outer, ctes).types;
        const right = this.body(body.right, outer, ctes).types;
        return { types: left.map((t, i) => commonType([t, right[i]])) };
      }
      case 'values': {
        const rows = body.rows.map((row) => {
          this.expr(row, { relations: [], parent: outer });
          return row.k === 'row' ? row.items.map((e) => this.typeOf(e)) : [this.typeOf(row)];
        });
        const width = rows[0]?.length ?? 0;
        return {
          types: Array.from({ length: width }, (_, i) => commonType(rows.map((r) => r[i]))),
        };
      }
      case 'table':
        return { types: [] };
      case 'nested':
        return { types: this.queryWith(body.query, outer, ctes) };
    }
  }

  private spec(
    spec: QuerySpec,
    outer: Scope | undefined,
    ctes: Map<string, ScopeColumn[] | undefined>,
  ): { types: (SqlType | undefined)[]; scope: Scope } {
    const scope: Scope = { relations: [], parent: outer };
    for (const rel of spec.from) this.relation(rel, scope, ctes);
    if (spec.where) this.expr(spec.where, scope);
    for (const e of spec.groupBy?.items ?? []) this.expr(e, scope);
    const columns = this.selectColumns(spec, scope);
    this.outputs.set(
      spec,
      columns?.map((c) => c.name),
    );
    if (spec.having) this.expr(spec.having, scope);
    // ORDER BY may name output aliases: they resolve to the select items' types.
    const output: ScopeRelation = { columns };
    return {
      types: columns?.map((c) => c.type) ?? [],
      scope: { relations: [output, ...scope.relations], parent: outer },
    };
  }

  /**
   * The output columns of a SELECT list, `*` and `t.*` expanded to the columns of the relations they name (in
   * FROM order); undefined when a star names a relation whose columns are not known, so the output's positions
   * cannot be told.
   */
  private selectColumns(spec: QuerySpec, scope: Scope): ScopeColumn[] | undefined {
    const columns: ScopeColumn[] = [];
    let known = true;
    spec.items.forEach((item, i) => {
      const e = item.expr;
      if (e.k !== 'star') {
        this.expr(e, scope);
        columns.push({ name: outputName(e, item.alias?.name, i), type: this.typeOf(e) });
        return;
      }
      const qualifier = e.qualifier?.[e.qualifier.length - 1]?.name;
      const expanded =
        qualifier === undefined
          ? spec.from.map((rel) => this.fromColumns(rel))
          : scope.relations.filter((r) => r.alias === qualifier).map((r) => r.columns);
      if (expanded.length === 0 || expanded.some((c) => c === undefined)) known = false;
      else for (const c of expanded) columns.push(...(c as ScopeColumn[]));
    });
    return known ? columns : undefined;
  }

  private relation(rel: Relation, scope: Scope, ctes: Map<string, ScopeColumn[] | undefined>): void {
    switch (rel.k) {
      case 'table': {
        const single = rel.name.parts.length === 1 ? (rel.name.parts[0] as Identifier).name : undefined;
        let columns: ScopeColumn[] | undefined;
        if (single !== undefined && ctes.has(single)) columns = ctes.get(single);
        else {
          columns = this.tables.columnsOf(rel);
        }
        if (rel.version) this.expr(rel.version.expr, { relations: [], parent: scope.parent });
        this.push(scope, rel, { alias: aliasOf(rel), columns: renamed(columns, rel.columnAliases) });
        return;
      }
      case 'subquery': {
        const inner = this.queryWith(rel.query, rel.lateral ? scope : scope.parent, ctes);
        const names = rel.columnAliases?.map((c) => c.name) ?? this.outputNames(rel.query.body);
        this.push(scope, rel, {
          alias: rel.alias?.name,
          columns: names?.map((name, i) => ({ name, type: inner[i] })),
        });
        return;
      }
      case 'join':
        this.relation(rel.left, scope, ctes);
        this.relation(rel.right, scope, ctes);
        if (rel.on) this.expr(rel.on, scope);
        return;
      case 'unnest': {
        const columns: ScopeColumn[] = [];
        for (const arg of rel.args) {
          this.expr(arg, scope);
          columns.push(...unnestColumns(this.typeOf(arg)));
        }
        if (rel.ordinality) columns.push({ name: 'ordinality', type: BIGINT });
        const known = rel.args.every((a) => this.typeOf(a) !== undefined);
        this.push(scope, rel, {
          alias: rel.alias?.name,
          columns: known ? renamed(columns, rel.columnAliases) : undefined,
        });
      }
    }
  }

  private push(scope: Scope, rel: Relation, relation: ScopeRelation): void {
    scope.relations.push(relation);
    this.relations.set(rel, relation);
  }

  /**
   * The columns `SELECT *` reads from a FROM item, in order: a join's USING columns once, first, then the rest of
   * the left side's and the right side's (Trino's and DuckDB's order); undefined when a relation's are not known.
   */
  private fromColumns(rel: Relation): ScopeColumn[] | undefined {
    if (rel.k !== 'join') return this.relations.get(rel)?.columns;
    const left = this.fromColumns(rel.left);
    const right = this.fromColumns(rel.right);
    if (!left || !right) return undefined;
    if (!rel.using) return [...left, ...right];
    const using = rel.using.map((c) => c.name);
    const merged = using.map((name) => left.find((c) => c.name === name));
    if (merged.some((c) => c === undefined)) return undefined;
    const rest = (cols: ScopeColumn[]) => cols.filter((c) => !using.includes(c.name));
    return [...(merged as ScopeColumn[]), ...rest(left), ...rest(right)];
  }

  private column(parts: Identifier[], scope: Scope | undefined): SqlType | undefined {
    const name = (parts[parts.length - 1] as Identifier).name;
    for (let s = scope; s; s = s.parent) {
      if (parts.length === 1 && s.lambda?.has(name)) return s.lambda.get(name);
      const qualifier = parts.length >= 2 ? (parts[parts.length - 2] as Identifier).name : undefined;
      const candidates = s.relations.filter((r) => qualifier === undefined || r.alias === qualifier);
      if (candidates.some((r) => r.columns === undefined)) return undefined;
      const matches = candidates.flatMap((r) => r.columns?.filter((c) => c.name === name) ?? []);
      if (matches.length === 1) return matches[0]?.type;
      if (matches.length > 1) return undefined;
    }
    return undefined;
  }

  private set(e: Expr, t: SqlType | undefined): void {
    this.types.set(e, t);
  }

  private expr(e: Expr, scope: Scope): void {
    const sub = (x: Expr | undefined): SqlType | undefined => {
      if (!x) return undefined;
      this.expr(x, scope);
      return this.typeOf(x);
    };
    switch (e.k) {
      case 'string':
        return this.set(e, { k: 'varchar', length: [...e.value].length });
      case 'number':
        return this.set(e, numberType(e.text));
      case 'bool':
        return this.set(e, BOOLEAN);
      case 'null':
        return this.set(e, UNKNOWN);
      case 'typed':
        return this.set(e, typedLiteralType(e.type, e.value));
      case 'interval':
        return this.set(e, {
          k: ['year', 'month'].includes(e.from) ? 'interval year to month' : 'interval day to second',
        });
      case 'column':
        return this.set(e, this.column(e.parts, scope));
      case 'star':
        return this.set(e, undefined);
      case 'func':
        return this.set(e, this.call(e, scope));
      case 'binary': {
        const left = sub(e.left);
        const right = sub(e.right);
        if (e.op === 'and' || e.op === 'or') return this.set(e, BOOLEAN);
        if (COMPARISONS.has(e.op) || ARITHMETIC.has(e.op)) checkOperator(e.op, left, right, e.pos);
        if (COMPARISONS.has(e.op)) return this.set(e, BOOLEAN);
        if (e.op === '||') {
          if (left?.k === 'array') return this.set(e, left);
          if (right?.k === 'array') return this.set(e, right);
          checkConcat([left, right], e.pos);
          return this.set(e, left && right ? VARCHAR : undefined);
        }
        return this.set(e, arithmeticType(e.op, left, right));
      }
      case 'unary': {
        const arg = sub(e.arg);
        return this.set(e, e.op === 'not' ? BOOLEAN : arg);
      }
      case 'between':
        sub(e.arg);
        sub(e.low);
        sub(e.high);
        return this.set(e, BOOLEAN);
      case 'in-list':
        sub(e.arg);
        e.list.forEach(sub);
        return this.set(e, BOOLEAN);
      case 'in-query':
      case 'quantified':
        sub(e.arg);
        this.queryWith(e.query, scope, new Map());
        return this.set(e, BOOLEAN);
      case 'exists':
        this.queryWith(e.query, scope, new Map());
        return this.set(e, BOOLEAN);
      case 'like':
        checkLike([
          { role: 'Left side', type: sub(e.arg), position: e.arg.pos },
          { role: 'Pattern', type: sub(e.pattern), position: e.pattern.pos },
          ...(e.escape ? [{ role: 'Escape', type: sub(e.escape), position: e.escape.pos }] : []),
        ]);
        return this.set(e, BOOLEAN);
      case 'is-null':
        sub(e.arg);
        return this.set(e, BOOLEAN);
      case 'is-distinct':
        checkOperator('IS DISTINCT FROM', sub(e.left), sub(e.right), e.pos);
        return this.set(e, BOOLEAN);
      case 'case': {
        sub(e.operand);
        const results: (SqlType | undefined)[] = [];
        for (const w of e.whens) {
          sub(w.when);
          results.push(sub(w.then));
        }
        results.push(e.else ? sub(e.else) : UNKNOWN);
        return this.set(e, commonType(results));
      }
      case 'cast':
        sub(e.arg);
        return this.set(e, sqlTypeOfName(e.type));
      case 'extract':
        sub(e.arg);
        return this.set(e, BIGINT);
      case 'subquery':
        return this.set(e, this.queryWith(e.query, scope, new Map())[0]);
      case 'array': {
        const items = e.items.map((x) => sub(x));
        const element = items.length === 0 ? UNKNOWN : commonType(items);
        return this.set(e, element && { k: 'array', element });
      }
      case 'row': {
        const items = e.items.map((x) => sub(x));
        return this.set(
          e,
          items.every((t) => t !== undefined)
            ? { k: 'row', fields: items.map((t) => ({ type: t as SqlType })) }
            : undefined,
        );
      }
      case 'subscript': {
        const arg = sub(e.arg);
        const index = sub(e.index);
        if (arg?.k === 'array') return this.set(e, arg.element);
        if (arg?.k === 'map') return this.set(e, arg.value);
        if (arg?.k === 'row' && e.index.k === 'number') {
          return this.set(e, arg.fields[Number(e.index.text) - 1]?.type);
        }
        return this.set(e, index && undefined);
      }
      case 'dereference': {
        const arg = sub(e.arg);
        if (arg?.k !== 'row') return this.set(e, undefined);
        const field = arg.fields.find((f, i) => (f.name ?? ROW_FIELD(i)) === e.field.name);
        return this.set(e, field?.type);
      }
      case 'lambda':
        return this.set(e, undefined);
      case 'at-time-zone': {
        const arg = sub(e.arg);
        sub(e.zone);
        const zone = e.zone.k === 'string' ? e.zone.value : undefined;
        const precision = arg?.k === 'timestamp' ? arg.precision : 3;
        return this.set(e, zone === undefined ? undefined : { k: 'timestamp', precision, zone });
      }
      case 'current': {
        // Trino's current_timestamp / localtimestamp / current_time are precision 3 unless asked otherwise.
        const precision = e.precision ?? 3;
        // (current_time is a time with time zone, a type the local engine does not print as Trino does.)
        const types: Record<typeof e.what, SqlType | undefined> = {
          current_date: DATE,
          current_timestamp: { k: 'timestamp', precision, zone: 'UTC' },
          localtimestamp: { k: 'timestamp', precision },
          current_time: undefined,
          localtime: { k: 'time', precision },
        };
        return this.set(e, types[e.what]);
      }
      case 'grouping-sets':
        for (const set of e.sets) set.forEach(sub);
        return this.set(e, undefined);
    }
  }

  /** A lambda's body, with its parameters typed as the function passes them. */
  private lambda(e: Expr | undefined, params: (SqlType | undefined)[], scope: Scope): SqlType | undefined {
    if (e?.k !== 'lambda') {
      if (e) this.expr(e, scope);
      return e && this.typeOf(e);
    }
    const lambda = new Map<string, SqlType | undefined>();
    e.params.forEach((p, i) => lambda.set(p.name, params[i]));
    this.expr(e.body, { relations: [], lambda, parent: scope });
    return this.typeOf(e.body);
  }

  private call(e: Extract<Expr, { k: 'func' }>, scope: Scope): SqlType | undefined {
    const lambdaAt = (fn: string): number => (['reduce'].includes(fn) ? 2 : 1);
    const args: (SqlType | undefined)[] = [];
    const first = e.args[0];
    const firstType =
      first && first.k !== 'lambda' ? (this.expr(first, scope), this.typeOf(first)) : undefined;
    const element = firstType?.k === 'array' ? firstType.element : undefined;
    e.args.forEach((arg, i) => {
      if (i === 0 && arg.k !== 'lambda') return args.push(firstType);
      if (arg.k === 'lambda') {
        const params =
          firstType?.k === 'map'
            ? [firstType.key, firstType.value]
            : i === lambdaAt(e.name) || e.name === 'array_sort'
              ? [element, element]
              : [];
        return args.push(this.lambda(arg, params, scope));
      }
      this.expr(arg, scope);
      args.push(this.typeOf(arg));
    });
    for (const o of e.orderBy ?? []) this.expr(o.expr, scope);
    if (e.filter) this.expr(e.filter, scope);
    for (const p of e.over?.partitionBy ?? []) this.expr(p, scope);
    for (const o of e.over?.orderBy ?? []) this.expr(o.expr, scope);
    checkArguments(e.name, args, e.pos);
    return functionType(e, args);
  }
}

function renamed(columns: ScopeColumn[] | undefined, aliases?: Identifier[]): ScopeColumn[] | undefined {
  if (!columns || !aliases) return columns;
  return columns.map((c, i) => ({ name: aliases[i]?.name ?? c.name, type: c.type }));
}

/** The columns UNNEST makes of one argument: an array's elements (a row's fields each), a map's key and value. */
function unnestColumns(t: SqlType | undefined): ScopeColumn[] {
  if (t?.k === 'map')
    return [
      { name: 'key', type: t.key },
      { name: 'value', type: t.value },
    ];
  if (t?.k === 'array' && t.element.k === 'row')
    return t.element.fields.map((f, i) => ({ name: f.name ?? ROW_FIELD(i), type: f.type }));
  if (t?.k === 'array') return [{ name: 'unnest', type: t.element }];
  return [{ name: 'unnest' }];
}

/** Trino's analyzer: no implicit conversion between character, numeric, boolean and date/time values. */
function checkOperator(
  op: string,
  left: SqlType | undefined,
  right: SqlType | undefined,
  pos: Expr['pos'],
): void {
  if (!left || !right) return;
  const a = family(left);
  const b = family(right);
  if (!a || !b || a === b) return;
  // date/time ± interval is arithmetic Trino defines; numbers and intervals multiply.
  if (ARITHMETIC.has(op) && (left.k.startsWith('interval') || right.k.startsWith('interval'))) return;
  const text =
    op === 'IS DISTINCT FROM'
      ? `Cannot check if ${typeName(left)} is distinct from ${typeName(right)}`
      : `Cannot apply operator: ${typeName(left)} ${op} ${typeName(right)}`;
  throw new GenericUserError('TYPE_MISMATCH', text, { position: pos, value: [left, right] });
}
