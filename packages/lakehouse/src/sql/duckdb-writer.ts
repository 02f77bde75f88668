// Writes the parsed Trino query back out as DuckDB SQL: same structure, every operator parenthesised,
// functions and types translated, each table reference replaced by the relation the binder planned for it.
import type { Expr, Query, QueryBody, QuerySpec, Relation, SortItem, WindowSpec } from './ast';
import { sqlIdent as ident, sqlString as literal } from '../duckdb/duckdb-session';
import { NotSupportedError } from './errors';
import { duckdbFunctionName, translateFunctionCall } from './functions';
import { duckdbType } from './types';

export type TableRelation = Extract<Relation, { k: 'table' }>;

/** Supplies the DuckDB text for a table reference (`(<relation>) AS "alias"`) or a `TABLE t` body. */
export interface RelationResolver {
  relation(ref: TableRelation): string;
}

/** The name a table reference is known by in its query: its alias, else its table name. */
export const aliasOf = (ref: TableRelation): string =>
  ref.alias?.name ?? (ref.name.parts[ref.name.parts.length - 1] as { name: string }).name;

/** ` AS "alias"("c1", ...)`, or nothing without an alias. */
export function aliasClause(alias?: { name: string }, columns?: { name: string }[]): string {
  if (!alias) return '';
  return ` AS ${ident(alias.name)}${columns ? `(${columns.map((c) => ident(c.name)).join(', ')})` : ''}`;
}

/** Trino names an unaliased, non-column select item `_colN` (N = its position). */
export function outputName(expr: Expr, alias: string | undefined, index: number): string {
  if (alias) return alias;
  if (expr.k === 'column') return (expr.parts[expr.parts.length - 1] as { name: string }).name;
  if (expr.k === 'dereference') return expr.field.name;
  return `_col${index}`;
}

export class DuckdbWriter {
  constructor(private readonly resolver: RelationResolver) {}

  query(query: Query): string {
    let sql = '';
    if (query.with) {
      const ctes = query.with.ctes.map(
        (cte) =>
          `${ident(cte.name.name)}${cte.columns ? `(${cte.columns.map((c) => ident(c.name)).join(', ')})` : ''} AS (${this.query(cte.query)})`,
      );
      sql += `WITH ${query.with.recursive ? 'RECURSIVE ' : ''}${ctes.join(', ')} `;
    }
    sql += this.body(query.body);
    if (query.orderBy) sql += ` ORDER BY ${this.sortItems(query.orderBy)}`;
    if (query.limit) sql += ` LIMIT ${this.expr(query.limit)}`;
    if (query.offset) sql += ` OFFSET ${this.expr(query.offset)}`;
    return sql;
  }

  body(body: QueryBody): string {
    switch (body.k) {
      case 'select':
        return this.select(body);
      case 'setop':
        return `(${this.body(body.left)}) ${body.op.toUpperCase()}${body.all ? ' ALL' : ''} (${this.body(body.right)})`;
      case 'values':
        return `VALUES ${body.rows.map((row) => (row.k === 'row' ? `(${row.items.map((e) => this.expr(e)).join(', ')})` : `(${this.expr(row)})`)).join(', ')}`;
      case 'table':
        return `SELECT * FROM ${this.resolver.relation({ k: 'table', name: body.name, pos: body.pos })}`;
      case 'nested':
        return `SELECT * FROM (${this.query(body.query)})`;
    }
  }

  select(spec: QuerySpec): string {
    const items = spec.items.map((item, index) => {
      if (item.expr.k === 'star') return this.expr(item.expr);
      return `${this.expr(item.expr)} AS ${ident(outputName(item.expr, item.alias?.name, index))}`;
    });
    let sql = `SELECT ${spec.distinct ? 'DISTINCT ' : ''}${items.join(', ')}`;
    if (spec.from.length) sql += ` FROM ${spec.from.map((r) => this.relation(r)).join(', ')}`;
    if (spec.where) sql += ` WHERE ${this.expr(spec.where)}`;
    if (spec.groupBy) {
      if (spec.groupBy.distinct) throw new NotSupportedError('GROUP BY DISTINCT', spec.pos);
      sql += ` GROUP BY ${spec.groupBy.items.map((e) => this.expr(e)).join(', ')}`;
    }
    if (spec.having) sql += ` HAVING ${this.expr(spec.having)}`;
    if (spec.windows?.length) {
      sql += ` WINDOW ${spec.windows.map((w) => `${ident(w.name)} AS (${this.windowSpec(w.spec)})`).join(', ')}`;
    }
    return sql;
  }

  relation(rel: Relation): string {
    switch (rel.k) {
      case 'table':
        return this.resolver.relation(rel);
      case 'subquery':
        return `${rel.lateral ? 'LATERAL ' : ''}(${this.query(rel.query)})${aliasClause(rel.alias, rel.columnAliases)}`;
      case 'join': {
        const right = this.relation(rel.right);
        const left = this.relation(rel.left);
        if (rel.type === 'cross') return `${left} CROSS JOIN ${right}`;
        const type = { inner: 'INNER', left: 'LEFT', right: 'RIGHT', full: 'FULL' }[rel.type];
        const condition = rel.on
          ? ` ON ${this.expr(rel.on)}`
          : ` USING (${(rel.using ?? []).map((c) => ident(c.name)).join(', ')})`;
        return `${left} ${type} JOIN ${right}${condition}`;
      }
      case 'unnest': {
        const names = rel.columnAliases?.map((c) => c.name) ?? rel.args.map((_, i) => `_col${i}`);
        const items = rel.args.map(
          (arg, i) => `unnest(${this.expr(arg)}) AS ${ident(names[i] ?? `_col${i}`)}`,
        );
        if (rel.ordinality) {
          const first = rel.args[0] as Expr;
          items.push(
            `generate_subscripts(${this.expr(first)}, 1) AS ${ident(names[rel.args.length] ?? 'ordinality')}`,
          );
        }
        return `LATERAL (SELECT ${items.join(', ')})${rel.alias ? ` AS ${ident(rel.alias.name)}` : ''}`;
      }
    }
  }

  sortItems(items: SortItem[]): string {
    // Trino sorts NULLs last in both directions unless told otherwise; DuckDB's default is the same since 0.8,
    // but say it explicitly so a changed default cannot change answers.
    return items
      .map(
        (item) =>
          `${this.expr(item.expr)} ${item.desc ? 'DESC' : 'ASC'} NULLS ${(item.nulls ?? 'last').toUpperCase()}`,
      )
      .join(', ');
  }

  windowSpec(spec: WindowSpec): string {
    const parts: string[] = [];
    if (spec.name) parts.push(ident(spec.name));
    if (spec.partitionBy.length)
      parts.push(`PARTITION BY ${spec.partitionBy.map((e) => this.expr(e)).join(', ')}`);
    if (spec.orderBy.length) parts.push(`ORDER BY ${this.sortItems(spec.orderBy)}`);
    if (spec.frame) {
      const bound = (b: NonNullable<WindowSpec['frame']>['start']): string => {
        switch (b.kind) {
          case 'unbounded-preceding':
            return 'UNBOUNDED PRECEDING';
          case 'unbounded-following':
            return 'UNBOUNDED FOLLOWING';
          case 'current':
            return 'CURRENT ROW';
          default:
            return `${this.expr(b.offset as Expr)} ${b.kind === 'preceding' ? 'PRECEDING' : 'FOLLOWING'}`;
        }
      };
      const unit = spec.frame.unit.toUpperCase();
      parts.push(
        spec.frame.end
          ? `${unit} BETWEEN ${bound(spec.frame.start)} AND ${bound(spec.frame.end)}`
          : `${unit} ${bound(spec.frame.start)}`,
      );
    }
    return parts.join(' ');
  }

  expr(e: Expr): string {
    switch (e.k) {
      case 'string':
        return literal(e.value);
      case 'number':
        return e.text;
      case 'bool':
        return e.value ? 'true' : 'false';
      case 'null':
        return 'NULL';
      case 'typed':
        return this.typedLiteral(e);
      case 'interval':
        if (e.to)
          throw new NotSupportedError(`INTERVAL ... ${e.from.toUpperCase()} TO ${e.to.toUpperCase()}`, e.pos);
        return `${e.negative ? '-' : ''}INTERVAL ${literal(e.value)} ${e.from.toUpperCase()}`;
      case 'column':
        return e.parts
          .slice(-2)
          .map((p) => ident(p.name))
          .join('.');
      case 'star':
        return e.qualifier
          ? `${ident((e.qualifier[e.qualifier.length - 1] as { name: string }).name)}.*`
          : '*';
      case 'func':
        return this.functionCall(e);
      case 'binary': {
        const op = e.op === 'and' || e.op === 'or' ? e.op.toUpperCase() : e.op;
        const left = this.expr(e.left);
        const right = this.expr(e.right);
        if (op === '/' || op === '%') {
          // Trino fails exact division by zero; DuckDB would answer NULL. (Doubles: Trino gives Infinity/NaN,
          // DuckDB NULL — a documented difference.)
          const exact = `typeof(${left}) NOT IN ('DOUBLE', 'FLOAT') AND typeof(${right}) NOT IN ('DOUBLE', 'FLOAT')`;
          return `(${left} ${op} (CASE WHEN (${right}) = 0 AND ${exact} THEN error('Division by zero') ELSE ${right} END))`;
        }
        return `(${left} ${op} ${right})`;
      }
      case 'unary':
        return e.op === 'not' ? `(NOT ${this.expr(e.arg)})` : `(${e.op}${this.expr(e.arg)})`;
      case 'between':
        return `(${this.expr(e.arg)}${e.not ? ' NOT' : ''} BETWEEN ${this.expr(e.low)} AND ${this.expr(e.high)})`;
      case 'in-list':
        return `(${this.expr(e.arg)}${e.not ? ' NOT' : ''} IN (${e.list.map((x) => this.expr(x)).join(', ')}))`;
      case 'in-query':
        return `(${this.expr(e.arg)}${e.not ? ' NOT' : ''} IN (${this.query(e.query)}))`;
      case 'like':
        return `(${this.expr(e.arg)}${e.not ? ' NOT' : ''} LIKE ${this.expr(e.pattern)}${e.escape ? ` ESCAPE ${this.expr(e.escape)}` : ''})`;
      case 'is-null':
        return `(${this.expr(e.arg)} IS${e.not ? ' NOT' : ''} NULL)`;
      case 'is-distinct':
        return `(${this.expr(e.left)} IS${e.not ? ' NOT' : ''} DISTINCT FROM ${this.expr(e.right)})`;
      case 'case': {
        const whens = e.whens.map((w) => `WHEN ${this.expr(w.when)} THEN ${this.expr(w.then)}`).join(' ');
        return `(CASE${e.operand ? ` ${this.expr(e.operand)}` : ''} ${whens}${e.else ? ` ELSE ${this.expr(e.else)}` : ''} END)`;
      }
      case 'cast': {
        // CAST(ROW(...) AS ROW(a ..., b ...)) names the fields by position: keep the row unnamed for DuckDB.
        const arg =
          e.arg.k === 'row' ? `row(${e.arg.items.map((x) => this.expr(x)).join(', ')})` : this.expr(e.arg);
        const cast = e.safe ? 'TRY_CAST' : 'CAST';
        if (e.type.base === 'timestamp' && !e.type.withTimeZone) {
          // Trino's `timestamp` is timestamp(3): truncate to that precision, keep DuckDB's comparable TIMESTAMP.
          const precision = typeof e.type.params[0] === 'number' ? e.type.params[0] : 3;
          const variant = precision === 0 ? 'TIMESTAMP_S' : precision <= 3 ? 'TIMESTAMP_MS' : 'TIMESTAMP';
          return variant === 'TIMESTAMP'
            ? `${cast}(${arg} AS TIMESTAMP)`
            : `CAST(${cast}(${arg} AS ${variant}) AS TIMESTAMP)`;
        }
        if ((e.type.base === 'varchar' || e.type.base === 'char') && e.arg.k !== 'string')
          return this.castToVarchar(arg, cast);
        return `${cast}(${arg} AS ${duckdbType(e.type)})`;
      }
      case 'extract': {
        const fields: Record<string, string> = {
          day_of_week: 'isodow',
          dow: 'isodow',
          day_of_year: 'doy',
          doy: 'doy',
          year_of_week: 'isoyear',
          yow: 'isoyear',
        };
        return `date_part(${literal(fields[e.field] ?? e.field)}, ${this.expr(e.arg)})`;
      }
      case 'subquery':
        return `(${this.query(e.query)})`;
      case 'exists':
        return `(EXISTS (${this.query(e.query)}))`;
      case 'quantified':
        return `(${this.expr(e.arg)} ${e.op} ${e.quantifier.toUpperCase()} (${this.query(e.query)}))`;
      case 'array':
        return `[${e.items.map((x) => this.expr(x)).join(', ')}]`;
      case 'row':
        // Trino's anonymous row fields are field0, field1...; DuckDB's unnamed struct fields would collide.
        return `struct_pack(${e.items.map((x, i) => `"field${i}" := ${this.expr(x)}`).join(', ')})`;
      case 'subscript':
        return `${this.expr(e.arg)}[${this.expr(e.index)}]`;
      case 'dereference':
        return `struct_extract(${this.expr(e.arg)}, ${literal(e.field.name)})`;
      case 'lambda':
        return `lambda ${e.params.map((p) => ident(p.name)).join(', ')}: ${this.expr(e.body)}`;
      case 'at-time-zone':
        if (e.zone.k === 'string' && e.zone.value.toUpperCase() === 'UTC')
          return `CAST(${this.expr(e.arg)} AS TIMESTAMPTZ)`;
        throw new NotSupportedError("AT TIME ZONE other than 'UTC'", e.pos);
      case 'current':
        return {
          current_timestamp: 'current_timestamp',
          current_date: 'current_date',
          current_time: 'current_time',
          localtimestamp: 'CAST(current_timestamp AS TIMESTAMP)',
          localtime: 'CAST(current_time AS TIME)',
        }[e.what];
      case 'grouping-sets': {
        if (e.kind === 'sets')
          return `GROUPING SETS (${e.sets.map((set) => `(${set.map((x) => this.expr(x)).join(', ')})`).join(', ')})`;
        return `${e.kind.toUpperCase()} (${e.sets.map((set) => this.expr(set[0] as Expr)).join(', ')})`;
      }
    }
  }

  /** Trino prints timestamps in CAST(... AS varchar) at their precision and zone (`... 10:00:00.000000`,
   * `... 10:00:00.000 UTC`); DuckDB would drop the fraction. The type is only known at run time, so branch on it
   * (each branch re-parses the value from text, which binds for any argument type). */
  private castToVarchar(arg: string, cast: string): string {
    const text = `CAST(${arg} AS VARCHAR)`;
    return (
      `(CASE typeof(${arg}) ` +
      `WHEN 'TIMESTAMP' THEN strftime(CAST(${text} AS TIMESTAMP), '%Y-%m-%d %H:%M:%S.%f') ` +
      `WHEN 'TIMESTAMP WITH TIME ZONE' THEN strftime(CAST(${text} AS TIMESTAMPTZ), '%Y-%m-%d %H:%M:%S.%g UTC') ` +
      `ELSE ${cast}(${arg} AS VARCHAR) END)`
    );
  }

  private typedLiteral(e: Extract<Expr, { k: 'typed' }>): string {
    switch (e.type) {
      case 'timestamp':
        // A zone inside the literal makes it `timestamp with time zone` in Trino. Zone-less literals stay DuckDB
        // TIMESTAMP (printed as timestamp(6)): the narrower variants cannot be compared with TIMESTAMPTZ.
        return /(\s[A-Za-z]|[+-]\d\d:?\d\d$|Z$)/.test(e.value.trim().slice(10))
          ? `TIMESTAMPTZ ${literal(e.value)}`
          : `TIMESTAMP ${literal(e.value)}`;
      case 'date':
        return `DATE ${literal(e.value)}`;
      case 'time':
        return `TIME ${literal(e.value)}`;
      case 'decimal': {
        const [whole = '', fraction = ''] = e.value.trim().replace(/^[-+]/, '').split('.');
        const scale = fraction.length;
        const precision = Math.max(1, whole.replace(/^0+/, '').length + scale);
        return `CAST(${literal(e.value)} AS DECIMAL(${Math.min(38, precision)},${scale}))`;
      }
      case 'varchar':
      case 'char':
        return literal(e.value);
      case 'double':
        return `CAST(${literal(e.value)} AS DOUBLE)`;
      case 'real':
        return `CAST(${literal(e.value)} AS FLOAT)`;
      case 'bigint':
        return `CAST(${literal(e.value)} AS BIGINT)`;
      case 'integer':
        return `CAST(${literal(e.value)} AS INTEGER)`;
      case 'json':
        return `CAST(${literal(e.value)} AS JSON)`;
      default:
        throw new NotSupportedError(`${e.type.toUpperCase()} literal`, e.pos);
    }
  }

  private functionCall(e: Extract<Expr, { k: 'func' }>): string {
    const args = e.args.map((a) => (a.k === 'star' ? '*' : this.expr(a)));
    let call: string;
    if (e.orderBy || e.nullTreatment) {
      const inner = `${e.distinct ? 'DISTINCT ' : ''}${args.join(', ')}`;
      const order = e.orderBy ? ` ORDER BY ${this.sortItems(e.orderBy)}` : '';
      const nulls = e.nullTreatment ? ` ${e.nullTreatment.toUpperCase()} NULLS` : '';
      call = `${duckdbFunctionName(e)}(${inner}${order}${nulls})`;
    } else call = translateFunctionCall(e, args);
    if (e.filter) call += ` FILTER (WHERE ${this.expr(e.filter)})`;
    if (e.over) {
      call +=
        e.over.name && !e.over.partitionBy.length && !e.over.orderBy.length && !e.over.frame
          ? ` OVER ${ident(e.over.name)}`
          : ` OVER (${this.windowSpec(e.over)})`;
    }
    return call;
  }
}
