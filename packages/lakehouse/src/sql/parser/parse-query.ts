// Trino's query grammar: WITH, set operations (INTERSECT binds tighter than UNION/EXCEPT), SELECT with
// FROM/joins/WHERE/GROUP BY/HAVING/WINDOW, ORDER BY, OFFSET, LIMIT/FETCH, table references with version clauses.
import type {
  Cte,
  Expr,
  Identifier,
  QualifiedName,
  Query,
  QueryBody,
  QuerySpec,
  Relation,
  SelectItem,
  VersionClause,
} from '../tree/ast';
import { NotSupportedError, SqlSyntaxError } from '../errors';
import { ExpressionParser } from './parse-expression';

export class QueryParser extends ExpressionParser {
  parseQuery(): Query {
    const pos = this.pos;
    let withClause: Query['with'];
    if (this.accept('with')) {
      const recursive = this.accept('recursive');
      const ctes: Cte[] = [];
      do {
        const name = this.identifier();
        const columns = this.optionalIdentifierList();
        this.expect('as');
        this.expect('(');
        const query = this.parseQuery();
        this.expect(')');
        ctes.push({ name, columns, query });
      } while (this.accept(','));
      withClause = { recursive, ctes };
    }
    const body = this.parseSetOperation();
    const query: Query = { with: withClause, body, pos };
    if (this.acceptSeq('order', 'by')) query.orderBy = this.parseSortItems();
    if (this.accept('offset')) {
      query.offset = this.parseExpression();
      if (!this.accept('row')) this.accept('rows');
    }
    if (this.accept('limit')) {
      if (!this.accept('all')) query.limit = this.parseExpression();
    } else if (this.accept('fetch')) {
      if (!this.accept('first')) this.expect('next', "'FIRST', 'NEXT'");
      query.limit =
        this.peek().kind === 'number' ? this.parseExpression() : { k: 'number', text: '1', pos: this.pos };
      if (!this.accept('row')) this.expect('rows', "'ROW', 'ROWS'");
      if (this.acceptSeq('with', 'ties')) {
        // Trino: "If the argument WITH TIES is specified, it is required that the ORDER BY clause be present."
        if (!query.orderBy) throw new SqlSyntaxError('FETCH FIRST WITH TIES clause requires ORDER BY', pos);
        query.withTies = true;
      } else this.expect('only', "'ONLY', 'WITH'");
    }
    return query;
  }

  private parseSetOperation(): QueryBody {
    let left = this.parseIntersect();
    while (this.is('union') || this.is('except')) {
      const token = this.next();
      const all = this.accept('all');
      if (!all) this.accept('distinct');
      left = {
        k: 'setop',
        op: token.value as 'union' | 'except',
        all,
        left,
        right: this.parseIntersect(),
        pos: token.pos,
      };
    }
    return left;
  }

  private parseIntersect(): QueryBody {
    let left = this.parseQueryPrimary();
    while (this.is('intersect')) {
      const token = this.next();
      const all = this.accept('all');
      if (!all) this.accept('distinct');
      left = { k: 'setop', op: 'intersect', all, left, right: this.parseQueryPrimary(), pos: token.pos };
    }
    return left;
  }

  private parseQueryPrimary(): QueryBody {
    const pos = this.pos;
    if (this.is('select')) return this.parseQuerySpec();
    if (this.accept('table')) return { k: 'table', name: this.parseQualifiedName(), pos };
    if (this.accept('values')) {
      const rows: Expr[] = [this.parseExpression()];
      while (this.accept(',')) rows.push(this.parseExpression());
      return { k: 'values', rows, pos };
    }
    if (this.accept('(')) {
      const query = this.parseQuery();
      this.expect(')');
      return { k: 'nested', query, pos };
    }
    this.fail("'SELECT', 'TABLE', 'VALUES', 'WITH', '('");
  }

  private parseQuerySpec(): QuerySpec {
    const pos = this.expect('select').pos;
    const distinct = this.accept('distinct');
    if (!distinct) this.accept('all');
    const items: SelectItem[] = [];
    do {
      const expr = this.parseExpression();
      let alias: Identifier | undefined;
      if (this.accept('as')) alias = this.identifier(true);
      else if (this.isIdentifier()) alias = this.identifier();
      items.push({ expr, alias });
    } while (this.accept(','));
    const spec: QuerySpec = { k: 'select', distinct, items, from: [], pos };
    if (this.accept('from')) {
      spec.from.push(this.parseRelation());
      while (this.accept(',')) spec.from.push(this.parseRelation());
    }
    if (this.accept('where')) spec.where = this.parseExpression();
    if (this.acceptSeq('group', 'by')) {
      const groupDistinct = this.accept('distinct');
      if (!groupDistinct) this.accept('all');
      const groupItems: Expr[] = [];
      do groupItems.push(this.parseGroupingElement());
      while (this.accept(','));
      spec.groupBy = { distinct: groupDistinct, items: groupItems };
    }
    if (this.accept('having')) spec.having = this.parseExpression();
    if (this.accept('window')) {
      spec.windows = [];
      do {
        const name = this.identifier().name;
        this.expect('as');
        this.expect('(');
        spec.windows.push({ name, spec: this.parseWindowSpec() });
        this.expect(')');
      } while (this.accept(','));
    }
    return spec;
  }

  private parseGroupingElement(): Expr {
    const pos = this.pos;
    const list = (): Expr[] => {
      this.expect('(');
      const exprs: Expr[] = [];
      if (!this.is(')')) {
        exprs.push(this.parseExpression());
        while (this.accept(',')) exprs.push(this.parseExpression());
      }
      this.expect(')');
      return exprs;
    };
    if (this.isSeq('rollup', '(') || this.isSeq('cube', '(')) {
      const kind = this.next().value as 'rollup' | 'cube';
      return { k: 'grouping-sets', kind, sets: list().map((e) => [e]), pos };
    }
    if (this.acceptSeq('grouping', 'sets')) {
      this.expect('(');
      const sets: Expr[][] = [];
      do {
        if (this.is('(')) sets.push(list());
        else sets.push([this.parseExpression()]);
      } while (this.accept(','));
      this.expect(')');
      return { k: 'grouping-sets', kind: 'sets', sets, pos };
    }
    return this.parseExpression();
  }

  protected parseQualifiedName(): QualifiedName {
    const pos = this.pos;
    const parts = [this.identifier(true)];
    while (this.is('.') && this.isIdentifier(1, true)) {
      this.next();
      parts.push(this.identifier(true));
    }
    return { parts, pos };
  }

  protected parseRelation(): Relation {
    let left = this.parseAliasedRelation();
    for (;;) {
      const pos = this.pos;
      if (this.acceptSeq('cross', 'join')) {
        left = { k: 'join', type: 'cross', left, right: this.parseAliasedRelation(), pos };
        continue;
      }
      if (this.is('natural')) throw new NotSupportedError('NATURAL JOIN', pos);
      let type: 'inner' | 'left' | 'right' | 'full' | undefined;
      if (this.is('join')) type = 'inner';
      else if (this.isSeq('inner', 'join')) {
        type = 'inner';
        this.next();
      } else if (this.is('left') || this.is('right') || this.is('full')) {
        type = this.next().value as 'left' | 'right' | 'full';
        this.accept('outer');
      }
      if (!type) return left;
      this.expect('join');
      const right = this.parseAliasedRelation();
      if (this.accept('on')) {
        left = { k: 'join', type, left, right, on: this.parseExpression(), pos };
      } else if (this.accept('using')) {
        this.expect('(');
        const using = this.identifierList();
        this.expect(')');
        left = { k: 'join', type, left, right, using, pos };
      } else this.fail("'ON', 'USING'");
    }
  }

  private parseAliasedRelation(): Relation {
    const pos = this.pos;
    let relation: Relation;
    if (this.isSeq('unnest', '(')) {
      this.next();
      this.next();
      const args = [this.parseExpression()];
      while (this.accept(',')) args.push(this.parseExpression());
      this.expect(')');
      const ordinality = this.acceptSeq('with', 'ordinality');
      relation = { k: 'unnest', args, ordinality, pos };
    } else if (this.isSeq('lateral', '(')) {
      this.next();
      this.next();
      const query = this.parseQuery();
      this.expect(')');
      relation = { k: 'subquery', query, lateral: true, pos };
    } else if (this.is('(')) {
      relation = this.parseParenthesizedRelation();
    } else {
      const name = this.parseQualifiedName();
      const version = this.parseVersionClause();
      relation = { k: 'table', name, version, pos };
    }
    if (this.is('tablesample')) throw new NotSupportedError('TABLESAMPLE', this.pos);
    let alias: Identifier | undefined;
    if (this.accept('as')) alias = this.identifier(true);
    else if (this.isIdentifier()) alias = this.identifier();
    if (alias) {
      const columnAliases = this.optionalIdentifierList();
      if (relation.k === 'join') throw new NotSupportedError('An alias on a parenthesised join', pos);
      relation = { ...relation, alias, columnAliases };
    }
    return relation;
  }

  private parseParenthesizedRelation(): Relation {
    const pos = this.expect('(').pos;
    const save = this.index;
    const plainQuery = this.startsQuery();
    if (plainQuery || this.is('(')) {
      try {
        const query = this.parseQuery();
        this.expect(')');
        return { k: 'subquery', query, lateral: false, pos };
      } catch (error) {
        // `((a JOIN b))` is a parenthesised relation, not a query: retry as one.
        if (!(error instanceof SqlSyntaxError) || plainQuery) throw error;
        this.index = save;
      }
    }
    const relation = this.parseRelation();
    this.expect(')');
    return relation;
  }

  private parseVersionClause(): VersionClause | undefined {
    if (!this.is('for')) return undefined;
    const pos = this.next().pos;
    let kind: 'version' | 'timestamp';
    if (this.accept('version') || this.accept('system_version')) kind = 'version';
    else if (this.accept('timestamp') || this.accept('system_time')) kind = 'timestamp';
    else this.fail("'VERSION', 'TIMESTAMP'");
    this.expect('as');
    this.expect('of');
    return { kind, expr: this.parseExpression(), pos };
  }
}
