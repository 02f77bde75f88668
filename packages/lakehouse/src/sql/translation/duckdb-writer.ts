// Writes the parsed Trino query back out as DuckDB SQL: same structure, every operator parenthesised,
// functions and types translated, each table reference replaced by the relation the binder bound to it.
// Where Trino's meaning depends on a type (a map subscript, a zoned timestamp, an IPADDRESS) the analyzer's
// expression types decide; without them the plain translation is written.
import { sqlIdent as ident, sqlString as literal } from '../../duckdb/duckdb-session';
import type { Bindings } from '../analyzer/binder';
import type { ExpressionTypes } from '../analyzer/expression-types';
import { parseTimestampLiteral } from '../analyzer/timestamp-literal';
import { decimalLiteralType, decimalOf } from '../analyzer/arithmetic-types';
import { hasZone, isCharacter, type SqlType } from '../analyzer/types';
import { GenericUserError, NotSupportedError } from '../errors';
import {
  aliasOf,
  outputName,
  type Expr,
  type Query,
  type QueryBody,
  type QuerySpec,
  type Relation,
  type SortItem,
  type TableRelation,
  type WindowSpec,
} from '../tree/ast';
import { duckdbType } from './duckdb-types';
import { duckdbFunctionName, raise, translateFunctionCall } from './functions';
import { decimalDivide } from './decimal-arithmetic';
import { ipFromText, ipToText } from '../functions/ip-address';
import { integerCast } from './integer-casts';
import { jsonFromText, jsonToText } from '../functions/json';
import { fraction, localTime, toInstant } from '../functions/time-zones';

/** ` AS "alias"("c1", ...)`, or nothing without an alias. */
export function aliasClause(alias?: { name: string }, columns?: { name: string }[]): string {
  if (!alias) return '';
  return ` AS ${ident(alias.name)}${columns ? `(${columns.map((c) => ident(c.name)).join(', ')})` : ''}`;
}

const NO_TYPES: Pick<ExpressionTypes, 'typeOf'> = { typeOf: () => undefined };
const RANK = '__loglake_rank';

/**
 * Trino's timestamp literal as DuckDB values: the wall clock as a TIMESTAMP (TIMESTAMP_NS beyond microseconds),
 * and for a literal with a zone the instant that wall clock is in that zone (DuckDB's own TIMESTAMPTZ literal
 * does not read a fixed offset after a space, `... 23:15:05 +01:00`).
 */
function timestampLiteral(e: Extract<Expr, { k: 'typed' }>): string {
  const parsed = parseTimestampLiteral(e.value);
  if (!parsed)
    throw new GenericUserError('INVALID_LITERAL', `'${e.value}' is not a valid TIMESTAMP literal`, {
      position: e.pos,
      value: e.value,
    });
  const local = `${parsed.precision > 6 ? 'TIMESTAMP_NS' : 'TIMESTAMP'} ${literal(parsed.local)}`;
  return parsed.zone === undefined ? local : toInstant(local, parsed.zone);
}

/** Trino functions whose lambda takes a map's (key, value): written over DuckDB's map entries. */
const MAP_LAMBDAS = new Set(['map_filter', 'transform_values', 'transform_keys']);

export class DuckdbWriter {
  private tryDepth = 0;
  /** Lambda parameters written as other SQL (a map entry's key/value, a reduced state), innermost last. */
  private readonly rewrites: Map<string, string>[] = [];

  constructor(
    private readonly bindings: Bindings,
    private readonly types: Pick<ExpressionTypes, 'typeOf'> = NO_TYPES,
  ) {}

  private typeOf(e: Expr): SqlType | undefined {
    return this.types.typeOf(e);
  }

  private get inTry(): boolean {
    return this.tryDepth > 0;
  }

  query(query: Query): string {
    let sql = '';
    if (query.with) {
      const ctes = query.with.ctes.map(
        (cte) =>
          `${ident(cte.name.name)}${cte.columns ? `(${cte.columns.map((c) => ident(c.name)).join(', ')})` : ''} AS (${this.query(cte.query)})`,
      );
      sql += `WITH ${query.with.recursive ? 'RECURSIVE ' : ''}${ctes.join(', ')} `;
    }
    if (query.withTies) return sql + this.withTies(query);
    sql += this.body(query.body);
    if (query.orderBy) sql += ` ORDER BY ${this.sortItems(query.orderBy)}`;
    if (query.limit) sql += ` LIMIT ${this.expr(query.limit)}`;
    if (query.offset) sql += ` OFFSET ${this.expr(query.offset)}`;
    return sql;
  }

  /** FETCH FIRST n ROWS WITH TIES: the rows whose rank in ORDER BY is within the first n (DuckDB's QUALIFY). */
  private withTies(query: Query): string {
    const orderBy = query.orderBy as SortItem[];
    if (query.offset) throw new NotSupportedError('OFFSET with FETCH FIRST ... WITH TIES', query.pos);
    const limit = this.expr(query.limit as Expr);
    const qualify = `rank() OVER (ORDER BY ${this.sortItems(orderBy)}) <= ${limit}`;
    // The ranking reads the query's own columns: in its SELECT when it has one, else over its result.
    const body =
      query.body.k === 'select'
        ? `${this.select(query.body)} QUALIFY ${qualify}`
        : `SELECT * FROM (${this.body(query.body)}) QUALIFY ${qualify}`;
    return `SELECT * FROM (${body}) AS ${ident(RANK)} ORDER BY ${orderBy
      .map(
        (item, i) =>
          `${this.orderKey(query, item, i)} ${item.desc ? 'DESC' : 'ASC'} NULLS ${(item.nulls ?? 'last').toUpperCase()}`,
      )
      .join(', ')}`;
  }

  /** An ORDER BY item as the wrapped query's output names it (a column or an ordinal). */
  private orderKey(query: Query, item: SortItem, index: number): string {
    const e = item.expr;
    if (e.k === 'number') return e.text;
    if (e.k === 'column') return ident((e.parts[e.parts.length - 1] as { name: string }).name);
    if (query.body.k === 'select') {
      const position = query.body.items.findIndex((i) => JSON.stringify(i.expr) === JSON.stringify(e));
      if (position >= 0) return String(position + 1);
    }
    throw new NotSupportedError(
      `FETCH FIRST ... WITH TIES ordered by an expression that is not a selected column (ORDER BY item ${index + 1})`,
      query.pos,
    );
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
        return `SELECT * FROM ${this.tableRelation({ k: 'table', name: body.name, pos: body.pos })}`;
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

  /** A table reference: the relation bound to it, or a WITH query by name. */
  tableRelation(ref: TableRelation): string {
    const aliasText = aliasClause({ name: aliasOf(ref) }, ref.columnAliases);
    const bound = this.bindings.relationOf(ref);
    if (bound !== undefined) return `${bound}${aliasText}`;
    // A WITH query name: it has no snapshots to travel to.
    if (ref.version) throw new NotSupportedError('A version clause on a WITH query name', ref.version.pos);
    const name = (ref.name.parts[0] as { name: string }).name;
    return `${ident(name)}${aliasClause(ref.alias, ref.columnAliases)}`;
  }

  relation(rel: Relation): string {
    switch (rel.k) {
      case 'table':
        return this.tableRelation(rel);
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
      case 'unnest':
        return this.unnest(rel);
    }
  }

  /**
   * UNNEST(a, b, ...) [WITH ORDINALITY]: one row per position up to the longest argument (shorter ones padded
   * with NULL), an array of rows expanded into one column per field, a map into key and value columns, and the
   * ordinality numbering every row, padded ones included.
   */
  private unnest(rel: Extract<Relation, { k: 'unnest' }>): string {
    const names = rel.columnAliases?.map((c) => c.name) ?? [];
    const inner: string[] = [];
    const outer: string[] = [];
    const lengths: string[] = [];
    let column = 0;
    const nextName = (): string => names[column] ?? `_col${column}`;
    rel.args.forEach((arg, i) => {
      const type = this.typeOf(arg);
      const value = this.expr(arg);
      const u = ident(`__u${i}`);
      if (type?.k === 'map') {
        inner.push(`unnest(map_entries(${value})) AS ${u}`);
        lengths.push(`coalesce(cardinality(${value}), 0)`);
        for (const field of ['key', 'value']) {
          outer.push(`${u}.${ident(field)} AS ${ident(nextName())}`);
          column++;
        }
        return;
      }
      inner.push(`unnest(${value}) AS ${u}`);
      lengths.push(`coalesce(len(${value}), 0)`);
      if (type?.k === 'array' && type.element.k === 'row') {
        type.element.fields.forEach((f, j) => {
          outer.push(`struct_extract(${u}, ${literal(f.name ?? `field${j}`)}) AS ${ident(nextName())}`);
          column++;
        });
        return;
      }
      outer.push(`${u} AS ${ident(nextName())}`);
      column++;
    });
    if (rel.ordinality) {
      const longest = lengths.length === 1 ? lengths[0] : `greatest(${lengths.join(', ')})`;
      inner.push(`unnest(range(1, ${longest} + 1)) AS ${ident('__ordinality')}`);
      outer.push(`${ident('__ordinality')} AS ${ident(names[column] ?? 'ordinality')}`);
    }
    const alias = rel.alias ? ` AS ${ident(rel.alias.name)}` : '';
    return `LATERAL (SELECT ${outer.join(', ')} FROM (SELECT ${inner.join(', ')}))${alias}`;
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
      case 'column': {
        if (e.parts.length === 1) {
          const name = (e.parts[0] as { name: string }).name;
          for (let i = this.rewrites.length - 1; i >= 0; i--) {
            const rewritten = this.rewrites[i]?.get(name);
            if (rewritten !== undefined) return rewritten;
          }
        }
        return e.parts
          .slice(-2)
          .map((p) => ident(p.name))
          .join('.');
      }
      case 'star':
        return e.qualifier
          ? `${ident((e.qualifier[e.qualifier.length - 1] as { name: string }).name)}.*`
          : '*';
      case 'func':
        return this.functionCall(e);
      case 'binary':
        return this.binary(e);
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
      case 'cast':
        return this.cast(e);
      case 'extract': {
        const fields: Record<string, string> = {
          day_of_week: 'isodow',
          dow: 'isodow',
          day_of_year: 'doy',
          doy: 'doy',
          year_of_week: 'isoyear',
          yow: 'isoyear',
          day_of_month: 'day',
        };
        const value = localTime(this.expr(e.arg), this.typeOf(e.arg));
        return `date_part(${literal(fields[e.field] ?? e.field)}, ${value})`;
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
        return this.subscript(e);
      case 'dereference':
        return `struct_extract(${this.expr(e.arg)}, ${literal(e.field.name)})`;
      case 'lambda':
        return `lambda ${e.params.map((p) => ident(p.name)).join(', ')}: ${this.expr(e.body)}`;
      case 'at-time-zone':
        // The value stays the same instant; the analyzer's type carries the zone it displays in.
        if (e.zone.k !== 'string') throw new NotSupportedError('AT TIME ZONE with a non-literal zone', e.pos);
        return `CAST(${this.expr(e.arg)} AS TIMESTAMPTZ)`;
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

  private binary(e: Extract<Expr, { k: 'binary' }>): string {
    const op = e.op === 'and' || e.op === 'or' ? e.op.toUpperCase() : e.op;
    const left = this.expr(e.left);
    const right = this.expr(e.right);
    const decimal = this.decimalArithmetic(e, left, right);
    if (decimal !== undefined) return decimal;
    if (op === '/' || op === '%') {
      // Trino fails exact division by zero; DuckDB would answer NULL (as TRY does, so inside TRY keep it).
      // (Doubles: Trino gives Infinity/NaN, DuckDB NULL — a documented difference.)
      if (this.inTry) return `(${left} ${op} ${right})`;
      const exact = `typeof(${left}) NOT IN ('DOUBLE', 'FLOAT') AND typeof(${right}) NOT IN ('DOUBLE', 'FLOAT')`;
      return `(${left} ${op} (CASE WHEN (${right}) = 0 AND ${exact} THEN error('Division by zero') ELSE ${right} END))`;
    }
    if (op === '||') {
      // Trino's || also appends an element to an array (ARRAY[1] || 2) or prepends one (2 || ARRAY[1]).
      const l = this.typeOf(e.left);
      const r = this.typeOf(e.right);
      if (l?.k === 'array' && r && r.k !== 'array') return `list_append(${left}, ${right})`;
      if (r?.k === 'array' && l && l.k !== 'array') return `list_prepend(${left}, ${right})`;
    }
    // date ± interval is a date in Trino; DuckDB widens it to a timestamp.
    if ((op === '+' || op === '-') && this.typeOf(e)?.k === 'date')
      return `CAST((${left} ${op} ${right}) AS DATE)`;
    return `(${left} ${op} ${right})`;
  }

  /**
   * Decimal arithmetic at Trino's result type (analyzer/arithmetic-types.ts): division exact and rounded half up
   * (DuckDB divides decimals as doubles), the other operators cast to the type Trino gives them.
   */
  private decimalArithmetic(
    e: Extract<Expr, { k: 'binary' }>,
    left: string,
    right: string,
  ): string | undefined {
    const result = this.typeOf(e);
    if (result?.k !== 'decimal' || !['+', '-', '*', '/', '%'].includes(e.op)) return undefined;
    const l = this.typeOf(e.left);
    const r = this.typeOf(e.right);
    const x = l && decimalOf(l);
    const y = r && decimalOf(r);
    if (!x || !y) return undefined;
    if (e.op === '/') {
      return decimalDivide({
        left,
        leftScale: x.scale,
        right,
        rightScale: y.scale,
        result,
        onZero: 'error',
        inTry: this.inTry,
      });
    }
    const divisor =
      e.op === '%'
        ? `(CASE WHEN (${right}) = 0 THEN ${raise({ inTry: this.inTry }, "'Division by zero'")} ELSE ${right} END)`
        : right;
    return `CAST((${left} ${e.op} ${divisor}) AS DECIMAL(${result.precision},${result.scale}))`;
  }

  /** Trino's [] fails on a missing map key or an index outside the array; element_at answers NULL. */
  private subscript(e: Extract<Expr, { k: 'subscript' }>): string {
    const arg = this.expr(e.arg);
    const index = this.expr(e.index);
    const type = this.typeOf(e.arg);
    if (type?.k === 'map') {
      const missing = raise({ inTry: this.inTry }, `'Key not present in map: ' || CAST(${index} AS VARCHAR)`);
      return `(CASE WHEN map_contains(${arg}, ${index}) THEN ${arg}[${index}] ELSE ${missing} END)`;
    }
    if (type?.k === 'array') {
      const beyond = raise(
        { inTry: this.inTry },
        `'Array subscript must be less than or equal to array length: ' || CAST(${index} AS VARCHAR) || ' > ' || CAST(len(${arg}) AS VARCHAR)`,
      );
      const zero = raise({ inTry: this.inTry }, literal('SQL array indices start at 1'));
      const negative = raise(
        { inTry: this.inTry },
        `'Array subscript is negative: ' || CAST(${index} AS VARCHAR)`,
      );
      return `(CASE WHEN (${index}) = 0 THEN ${zero} WHEN (${index}) < 0 THEN ${negative} WHEN (${index}) > len(${arg}) THEN ${beyond} ELSE ${arg}[${index}] END)`;
    }
    if (type?.k === 'row' && e.index.k === 'number') {
      const field = type.fields[Number(e.index.text) - 1];
      if (field)
        return `struct_extract(${arg}, ${literal(field.name ?? `field${Number(e.index.text) - 1}`)})`;
    }
    return `${arg}[${index}]`;
  }

  private cast(e: Extract<Expr, { k: 'cast' }>): string {
    // CAST(ROW(...) AS ROW(a ..., b ...)) names the fields by position: keep the row unnamed for DuckDB.
    const arg =
      e.arg.k === 'row' ? `row(${e.arg.items.map((x) => this.expr(x)).join(', ')})` : this.expr(e.arg);
    const source = this.typeOf(e.arg);
    const wrap = (sql: string): string => (e.safe ? `try(${sql})` : sql);
    if (e.type.base === 'ipaddress') {
      if (source?.k === 'ipaddress') return arg;
      return wrap(ipFromText(source && !isCharacter(source) ? `CAST(${arg} AS VARCHAR)` : arg));
    }
    const integer = integerCast(arg, source, e.type.base, { safe: e.safe, inTry: this.inTry });
    if (integer !== undefined) return integer;
    const cast = e.safe ? 'TRY_CAST' : 'CAST';
    if (e.type.base === 'timestamp' && !e.type.withTimeZone) {
      // Trino's `timestamp` is timestamp(3): truncate to that precision, keep DuckDB's comparable TIMESTAMP.
      const precision = typeof e.type.params[0] === 'number' ? e.type.params[0] : 3;
      const value = localTime(arg, source);
      const variant = precision === 0 ? 'TIMESTAMP_S' : precision <= 3 ? 'TIMESTAMP_MS' : 'TIMESTAMP';
      return variant === 'TIMESTAMP'
        ? `${cast}(${value} AS TIMESTAMP)`
        : `CAST(${cast}(${value} AS ${variant}) AS TIMESTAMP)`;
    }
    if (e.type.base === 'date' && hasZone(source)) return `${cast}(${localTime(arg, source)} AS DATE)`;
    if (e.type.base === 'json' && source && isCharacter(source)) return jsonFromText(arg);
    if ((e.type.base === 'varchar' || e.type.base === 'char') && source?.k === 'json')
      return jsonToText(arg, this.inTry || e.safe);
    if ((e.type.base === 'varchar' || e.type.base === 'char') && e.arg.k !== 'string')
      return this.castToVarchar(arg, cast, source);
    return `${cast}(${arg} AS ${duckdbType(e.type)})`;
  }

  /** Trino prints timestamps in CAST(... AS varchar) at their precision and zone (`... 10:00:00.000000`,
   * `... 10:00:00.000 UTC`); DuckDB would drop the fraction. With the type known the text is written for it;
   * otherwise the type is only known at run time, so branch on it. */
  private castToVarchar(arg: string, cast: string, type: SqlType | undefined): string {
    if (type?.k === 'ipaddress') return ipToText(arg);
    if (type?.k === 'timestamp') {
      const local = localTime(arg, type);
      const text = `strftime(${local}, '%Y-%m-%d %H:%M:%S')${fraction(local, type.precision)}`;
      return hasZone(type) ? `(${text} || ' ' || ${literal(type.zone)})` : `(${text})`;
    }
    if (type && type.k !== 'unknown') return `${cast}(${arg} AS VARCHAR)`;
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
        // Zone-less literals stay DuckDB TIMESTAMP (comparable with TIMESTAMPTZ); the analyzer carries their
        // precision (the digits written) for printing.
        return timestampLiteral(e);
      case 'date':
        return `DATE ${literal(e.value)}`;
      case 'time':
        return `TIME ${literal(e.value)}`;
      case 'decimal': {
        const { precision, scale } = decimalLiteralType(e.value, true);
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
      case 'ipaddress':
        return ipFromText(literal(e.value));
      default:
        throw new NotSupportedError(`${e.type.toUpperCase()} literal`, e.pos);
    }
  }

  /** An expression with lambda parameters standing for other SQL. */
  private rewritten(rewrites: Record<string, string>, e: Expr): string {
    this.rewrites.push(new Map(Object.entries(rewrites)));
    try {
      return this.expr(e);
    } finally {
      this.rewrites.pop();
    }
  }

  /**
   * Calls whose lambda DuckDB cannot take as written: map_filter / transform_values / transform_keys (a lambda of
   * key and value, over DuckDB's map entries), zip_with (over list_zip's pairs) and reduce (DuckDB's list_reduce,
   * then the output function).
   */
  private lambdaCall(e: Extract<Expr, { k: 'func' }>): string | undefined {
    const [first, second, third, fourth] = e.args;
    if (MAP_LAMBDAS.has(e.name) && first && second?.k === 'lambda' && second.params.length === 2) {
      const [k, v] = second.params as unknown as [{ name: string }, { name: string }];
      const entries = `map_entries(${this.expr(first)})`;
      const body = this.rewritten({ [k.name]: '__e.key', [v.name]: '__e.value' }, second.body);
      if (e.name === 'map_filter') return `map_from_entries(list_filter(${entries}, lambda __e: ${body}))`;
      const entry =
        e.name === 'transform_values'
          ? `struct_pack(key := __e.key, value := ${body})`
          : `struct_pack(key := ${body}, value := __e.value)`;
      return `map_from_entries(list_transform(${entries}, lambda __e: ${entry}))`;
    }
    if (e.name === 'zip_with' && first && second && third?.k === 'lambda' && third.params.length === 2) {
      // Pairs padded with NULL to the longer array, as Trino pads them.
      const [x, y] = third.params as unknown as [{ name: string }, { name: string }];
      const body = this.rewritten(
        { [x.name]: 'struct_extract(__z, 1)', [y.name]: 'struct_extract(__z, 2)' },
        third.body,
      );
      return `list_transform(list_zip(${this.expr(first)}, ${this.expr(second)}), lambda __z: ${body})`;
    }
    if (e.name === 'reduce' && first && second && third?.k === 'lambda' && fourth?.k === 'lambda') {
      const reduced = `list_reduce(${this.expr(first)}, ${this.expr(third)}, ${this.expr(second)})`;
      const state = (fourth.params[0] as { name: string }).name;
      return this.rewritten({ [state]: `(${reduced})` }, fourth.body);
    }
    return undefined;
  }

  private functionCall(e: Extract<Expr, { k: 'func' }>): string {
    const lambda = e.over || e.filter ? undefined : this.lambdaCall(e);
    if (lambda !== undefined) return lambda;
    if (e.name === 'try') this.tryDepth++;
    let args: string[];
    try {
      args = e.args.map((a) => (a.k === 'star' ? '*' : this.expr(a)));
    } finally {
      if (e.name === 'try') this.tryDepth--;
    }
    let suffix = e.filter ? ` FILTER (WHERE ${this.expr(e.filter)})` : '';
    if (e.over) {
      suffix +=
        e.over.name && !e.over.partitionBy.length && !e.over.orderBy.length && !e.over.frame
          ? ` OVER ${ident(e.over.name)}`
          : ` OVER (${this.windowSpec(e.over)})`;
    }
    const average = this.decimalAverage(e, args, suffix);
    if (average !== undefined) return average;
    if (e.orderBy || e.nullTreatment) {
      const inner = `${e.distinct ? 'DISTINCT ' : ''}${args.join(', ')}`;
      const order = e.orderBy ? ` ORDER BY ${this.sortItems(e.orderBy)}` : '';
      const nulls = e.nullTreatment ? ` ${e.nullTreatment.toUpperCase()} NULLS` : '';
      return `${duckdbFunctionName(e)}(${inner}${order}${nulls})${suffix}`;
    }
    const call = translateFunctionCall(e, args, {
      argTypes: e.args.map((a) => this.typeOf(a)),
      inTry: this.inTry,
    });
    return `${call}${suffix}`;
  }

  /**
   * avg of a decimal(p,s) is Trino's decimal(p,s), the exact mean rounded half up (DecimalAverageAggregation);
   * DuckDB's is a double. Written as the decimal quotient of the sum and the count over the same rows.
   */
  private decimalAverage(
    e: Extract<Expr, { k: 'func' }>,
    args: string[],
    suffix: string,
  ): string | undefined {
    const result = this.typeOf(e);
    if (e.name !== 'avg' || result?.k !== 'decimal' || args.length !== 1 || e.orderBy) return undefined;
    const distinct = e.distinct ? 'DISTINCT ' : '';
    return decimalDivide({
      left: `sum(${distinct}${args[0]})${suffix}`,
      leftScale: result.scale,
      right: `count(${distinct}${args[0]})${suffix}`,
      rightScale: 0,
      result,
      onZero: 'null',
      inTry: this.inTry,
    });
  }
}
