// Trino's expression grammar (precedence: OR < AND < NOT < predicates < || < + - < * / % < unary < AT TIME ZONE
// < postfix), producing the Expr tree. Subqueries are delegated to the query parser through parseQuery().
import type { Expr, Identifier, Query, WindowSpec } from '../tree/ast';
import { NotSupportedError } from '../errors';
import { ClauseParser } from './parse-clauses';
import { EXPRESSION_RESERVED } from './token-cursor';

const TYPED_LITERALS = new Set([
  'timestamp',
  'date',
  'time',
  'decimal',
  'real',
  'double',
  'varchar',
  'char',
  'bigint',
  'integer',
  'json',
  'varbinary',
  'ipaddress',
]);
const INTERVAL_UNITS = new Set([
  'year',
  'month',
  'day',
  'hour',
  'minute',
  'second',
  'years',
  'months',
  'days',
  'hours',
  'minutes',
  'seconds',
]);
const COMPARISON = new Set(['=', '<>', '!=', '<', '<=', '>', '>=']);

export abstract class ExpressionParser extends ClauseParser {
  protected abstract parseQuery(): Query;

  /** Does a subquery start here (after an opening parenthesis)? */
  protected startsQuery(ahead = 0): boolean {
    return (
      this.is('select', ahead) ||
      this.is('with', ahead) ||
      this.is('values', ahead) ||
      this.is('table', ahead)
    );
  }

  parseExpression(): Expr {
    return this.parseOr();
  }

  private parseOr(): Expr {
    let left = this.parseAnd();
    while (this.is('or')) {
      const pos = this.next().pos;
      left = { k: 'binary', op: 'or', left, right: this.parseAnd(), pos };
    }
    return left;
  }

  private parseAnd(): Expr {
    let left = this.parseNot();
    while (this.is('and')) {
      const pos = this.next().pos;
      left = { k: 'binary', op: 'and', left, right: this.parseNot(), pos };
    }
    return left;
  }

  private parseNot(): Expr {
    if (this.is('not')) {
      const pos = this.next().pos;
      return { k: 'unary', op: 'not', arg: this.parseNot(), pos };
    }
    return this.parsePredicate();
  }

  private parsePredicate(): Expr {
    let left = this.parseConcat();
    for (;;) {
      const pos = this.pos;
      const token = this.peek();
      if (token.kind === 'op' && COMPARISON.has(token.value)) {
        this.next();
        const op = token.value === '!=' ? '<>' : token.value;
        if (this.is('any') || this.is('all') || this.is('some')) {
          const quantifier = this.next().value as 'any' | 'all' | 'some';
          this.expect('(');
          const query = this.parseQuery();
          this.expect(')');
          left = { k: 'quantified', op, arg: left, quantifier, query, pos };
          continue;
        }
        left = { k: 'binary', op, left, right: this.parseConcat(), pos };
        continue;
      }
      if (this.is('is')) {
        this.next();
        const not = this.accept('not');
        if (this.accept('null')) {
          left = { k: 'is-null', arg: left, not, pos };
          continue;
        }
        if (this.acceptSeq('distinct', 'from')) {
          left = { k: 'is-distinct', left, right: this.parseConcat(), not, pos };
          continue;
        }
        this.fail("'NULL', 'DISTINCT'");
      }
      const not = this.is('not') && (this.is('between', 1) || this.is('in', 1) || this.is('like', 1));
      if (not) this.next();
      if (this.accept('between')) {
        const low = this.parseConcat();
        this.expect('and');
        left = { k: 'between', arg: left, low, high: this.parseConcat(), not, pos };
        continue;
      }
      if (this.accept('in')) {
        this.expect('(');
        if (this.startsQuery()) {
          const query = this.parseQuery();
          this.expect(')');
          left = { k: 'in-query', arg: left, query, not, pos };
          continue;
        }
        const list = [this.parseExpression()];
        while (this.accept(',')) list.push(this.parseExpression());
        this.expect(')');
        left = { k: 'in-list', arg: left, list, not, pos };
        continue;
      }
      if (this.accept('like')) {
        const pattern = this.parseConcat();
        const escape = this.accept('escape') ? this.parseConcat() : undefined;
        left = { k: 'like', arg: left, pattern, escape, not, pos };
        continue;
      }
      return left;
    }
  }

  private parseConcat(): Expr {
    let left = this.parseAdditive();
    while (this.is('||')) {
      const pos = this.next().pos;
      left = { k: 'binary', op: '||', left, right: this.parseAdditive(), pos };
    }
    return left;
  }

  private parseAdditive(): Expr {
    let left = this.parseMultiplicative();
    while (this.is('+') || this.is('-')) {
      const token = this.next();
      left = { k: 'binary', op: token.value, left, right: this.parseMultiplicative(), pos: token.pos };
    }
    return left;
  }

  private parseMultiplicative(): Expr {
    let left = this.parseUnary();
    while (this.is('*') || this.is('/') || this.is('%')) {
      const token = this.next();
      left = { k: 'binary', op: token.value, left, right: this.parseUnary(), pos: token.pos };
    }
    return left;
  }

  private parseUnary(): Expr {
    if (this.is('-') || this.is('+')) {
      const token = this.next();
      return { k: 'unary', op: token.value as '-' | '+', arg: this.parseUnary(), pos: token.pos };
    }
    let expr = this.parsePostfix();
    while (this.isSeq('at', 'time', 'zone')) {
      const pos = this.pos;
      this.acceptSeq('at', 'time', 'zone');
      expr = { k: 'at-time-zone', arg: expr, zone: this.parsePostfix(), pos };
    }
    return expr;
  }

  private parsePostfix(): Expr {
    let expr = this.parsePrimary();
    for (;;) {
      if (this.is('[')) {
        const pos = this.next().pos;
        const index = this.parseExpression();
        this.expect(']');
        expr = { k: 'subscript', arg: expr, index, pos };
        continue;
      }
      if (this.is('.') && expr.k !== 'column') {
        const pos = this.next().pos;
        if (this.is('*')) throw new NotSupportedError('Expanding a row expression into columns (row.*)', pos);
        expr = { k: 'dereference', arg: expr, field: this.identifier(true), pos };
        continue;
      }
      return expr;
    }
  }

  private parsePrimary(): Expr {
    const token = this.peek();
    const pos = token.pos;
    if (token.kind === 'number') {
      this.next();
      return { k: 'number', text: token.value, pos };
    }
    if (token.kind === 'string') {
      this.next();
      return { k: 'string', value: token.value, pos };
    }
    if (token.kind === 'op' && token.value === '(') return this.parseParenthesized();
    if (token.kind === 'op' && token.value === '?') throw new NotSupportedError('Query parameters (?)', pos);
    if (token.kind === 'op' && token.value === '*') {
      this.next();
      return { k: 'star', pos };
    }
    if (token.kind === 'quoted') return this.parseNameOrCall();
    if (token.kind !== 'ident') this.fail('<expression>');
    if (token.value === 'normalize' && this.is('(', 1)) return this.parseNormalize();
    // grouping(a, b) is Trino's GROUPING operation; GROUPING SETS only follows GROUP BY.
    const groupingCall = token.value === 'grouping' && this.is('(', 1);
    if (
      EXPRESSION_RESERVED.has(token.value) &&
      !groupingCall &&
      !['null', 'true', 'false', 'case', 'cast', 'extract', 'exists'].includes(token.value)
    ) {
      this.fail('<expression>');
    }
    const word = token.value;
    const nextToken = this.peek(1);
    if (word === 'null') return (this.next(), { k: 'null', pos });
    if (word === 'true' || word === 'false') return (this.next(), { k: 'bool', value: word === 'true', pos });
    if (TYPED_LITERALS.has(word) && nextToken.kind === 'string') {
      this.next();
      const value = this.next().value;
      return { k: 'typed', type: word, value, pos };
    }
    if (word === 'interval') return this.parseInterval();
    if (word === 'case') return this.parseCase();
    if ((word === 'cast' || word === 'try_cast') && this.is('(', 1)) {
      this.next();
      this.expect('(');
      const arg = this.parseExpression();
      this.expect('as');
      const type = this.parseType();
      this.expect(')');
      return { k: 'cast', arg, type, safe: word === 'try_cast', pos };
    }
    if (word === 'extract' && this.is('(', 1)) {
      this.next();
      this.expect('(');
      const field = this.identifier(true).name;
      this.expect('from');
      const arg = this.parseExpression();
      this.expect(')');
      return { k: 'extract', field, arg, pos };
    }
    if (word === 'exists' && this.is('(', 1)) {
      this.next();
      this.expect('(');
      const query = this.parseQuery();
      this.expect(')');
      return { k: 'exists', query, pos };
    }
    if (word === 'array' && this.is('[', 1)) {
      this.next();
      this.next();
      const items: Expr[] = [];
      if (!this.is(']')) {
        items.push(this.parseExpression());
        while (this.accept(',')) items.push(this.parseExpression());
      }
      this.expect(']');
      return { k: 'array', items, pos };
    }
    if (word === 'row' && this.is('(', 1)) {
      this.next();
      this.next();
      const items = [this.parseExpression()];
      while (this.accept(',')) items.push(this.parseExpression());
      this.expect(')');
      return { k: 'row', items, pos };
    }
    if (['current_timestamp', 'current_date', 'current_time', 'localtimestamp', 'localtime'].includes(word)) {
      this.next();
      let precision: number | undefined;
      if (this.is('(') && word !== 'current_date') {
        this.next();
        precision = this.integer();
        this.expect(')');
      }
      return { k: 'current', what: word as 'current_timestamp', precision, pos };
    }
    if (word === 'trim' && this.is('(', 1)) {
      const special = this.parseTrim();
      if (special) return special;
    }
    if (word === 'substring' && this.is('(', 1)) {
      const special = this.parseSubstring();
      if (special) return special;
    }
    if (word === 'overlay' && this.is('(', 1)) {
      const special = this.parseOverlay();
      if (special) return special;
    }
    if (word === 'position' && this.is('(', 1)) {
      // position(needle IN haystack) is special syntax; strpos(haystack, needle) is the same function.
      const save = this.index;
      this.next();
      this.next();
      const needle = this.parseConcat();
      if (this.accept('in')) {
        const haystack = this.parseConcat();
        this.expect(')');
        return { k: 'func', name: 'strpos', args: [haystack, needle], distinct: false, pos };
      }
      this.index = save;
    }
    if (this.is('->', 1)) {
      const param = this.identifier(true);
      this.next();
      return { k: 'lambda', params: [param], body: this.parseExpression(), pos };
    }
    return this.parseNameOrCall();
  }

  /**
   * trim([[BOTH | LEADING | TRAILING] [chars] FROM] source): Trino's SQL-standard form, as a call of trim, ltrim
   * or rtrim with the characters second. The plain trim(s) call is left to the generic parser (undefined).
   */
  private parseTrim(): Expr | undefined {
    const save = this.index;
    const pos = this.next().pos;
    this.next();
    let name = 'trim';
    if (this.accept('both')) name = 'trim';
    else if (this.accept('leading')) name = 'ltrim';
    else if (this.accept('trailing')) name = 'rtrim';
    const explicit = name !== 'trim' || this.tokens[save + 2]?.value === 'both';
    const chars = this.is('from') ? undefined : this.parseConcat();
    if (!this.accept('from')) {
      if (explicit) this.fail("'FROM'");
      this.index = save;
      return undefined;
    }
    const source = this.parseConcat();
    this.expect(')');
    return { k: 'func', name, args: chars ? [source, chars] : [source], distinct: false, pos };
  }

  /**
   * normalize(string [, NFC | NFD | NFKC | NFKD]): NORMALIZE is a reserved word of Trino's grammar with its own
   * form (the normal form is a word, not a string); read as a call of `normalize` with the form as a string.
   */
  private parseNormalize(): Expr {
    const pos = this.next().pos;
    this.expect('(');
    const args: Expr[] = [this.parseExpression()];
    if (this.accept(',')) {
      const form = this.peek();
      if (form.kind !== 'ident' || !['nfc', 'nfd', 'nfkc', 'nfkd'].includes(form.value))
        this.fail("'NFC', 'NFD', 'NFKC', 'NFKD'");
      this.next();
      args.push({ k: 'string', value: form.value.toUpperCase(), pos: form.pos });
    }
    this.expect(')');
    return { k: 'func', name: 'normalize', args, distinct: false, pos };
  }

  /** substring(string FROM start [FOR length]), as a call of `substring`; the plain call is left to the caller. */
  private parseSubstring(): Expr | undefined {
    const save = this.index;
    const pos = this.next().pos;
    this.next();
    const source = this.parseExpression();
    if (!this.accept('from')) {
      this.index = save;
      return undefined;
    }
    const args = [source, this.parseExpression()];
    if (this.accept('for')) args.push(this.parseExpression());
    this.expect(')');
    return { k: 'func', name: 'substring', args, distinct: false, pos };
  }

  /** overlay(string PLACING replacement FROM start [FOR length]), as a call of `overlay` with 3 or 4 arguments. */
  private parseOverlay(): Expr | undefined {
    const save = this.index;
    const pos = this.next().pos;
    this.next();
    const source = this.parseConcat();
    if (!this.accept('placing')) {
      this.index = save;
      return undefined;
    }
    const replacement = this.parseConcat();
    this.expect('from');
    const args = [source, replacement, this.parseConcat()];
    if (this.accept('for')) args.push(this.parseConcat());
    this.expect(')');
    return { k: 'func', name: 'overlay', args, distinct: false, pos };
  }

  private parseParenthesized(): Expr {
    const pos = this.next().pos;
    if (this.startsQuery()) {
      const query = this.parseQuery();
      this.expect(')');
      return { k: 'subquery', query, pos };
    }
    // (a, b) -> expr : a lambda with several parameters.
    const save = this.index;
    if (this.isIdentifier(0, true)) {
      const params: Identifier[] = [this.identifier(true)];
      while (this.accept(',') && this.isIdentifier(0, true)) params.push(this.identifier(true));
      if (this.accept(')') && this.accept('->'))
        return { k: 'lambda', params, body: this.parseExpression(), pos };
      this.index = save;
    }
    const first = this.parseExpression();
    if (this.accept(')')) return first;
    const items = [first];
    while (this.accept(',')) items.push(this.parseExpression());
    this.expect(')', "')', ','");
    return { k: 'row', items, pos };
  }

  private parseInterval(): Expr {
    const pos = this.next().pos;
    let negative = false;
    if (this.is('-') || this.is('+')) negative = this.next().value === '-';
    const value = this.stringLiteral();
    const unit = (): string => {
      const token = this.peek();
      if (token.kind !== 'ident' || !INTERVAL_UNITS.has(token.value))
        this.fail("'YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND'");
      this.next();
      return token.value.replace(/s$/, '');
    };
    const from = unit();
    const to = this.accept('to') ? unit() : undefined;
    return { k: 'interval', value, negative, from, to, pos };
  }

  private parseCase(): Expr {
    const pos = this.next().pos;
    const operand = this.is('when') ? undefined : this.parseExpression();
    const whens: { when: Expr; then: Expr }[] = [];
    while (this.accept('when')) {
      const when = this.parseExpression();
      this.expect('then');
      whens.push({ when, then: this.parseExpression() });
    }
    if (whens.length === 0) this.fail("'WHEN'");
    const elseExpr = this.accept('else') ? this.parseExpression() : undefined;
    this.expect('end');
    return { k: 'case', operand, whens, else: elseExpr, pos };
  }

  private parseNameOrCall(): Expr {
    const pos = this.pos;
    const parts: Identifier[] = [this.identifier(true)];
    while (this.is('.') && (this.isIdentifier(1, true) || this.is('*', 1))) {
      this.next();
      if (this.accept('*')) return { k: 'star', qualifier: parts, pos };
      parts.push(this.identifier(true));
    }
    if (!this.is('(')) return { k: 'column', parts, pos };
    if (parts.length > 1)
      throw new NotSupportedError(`Qualified function name ${parts.map((p) => p.name).join('.')}`, pos);
    const name = (parts[0] as Identifier).name;
    this.next();
    const distinct = this.accept('distinct');
    if (!distinct) this.accept('all');
    const args: Expr[] = [];
    if (!this.is(')')) {
      args.push(this.parseExpression());
      while (this.accept(',')) args.push(this.parseExpression());
    }
    let orderBy = this.acceptSeq('order', 'by') ? this.parseSortItems() : undefined;
    this.expect(')', "')', ','");
    // listagg(x, ',') WITHIN GROUP (ORDER BY ...): the ordering of the aggregation, written after the call.
    if (this.isSeq('within', 'group', '(')) {
      this.next();
      this.next();
      this.next();
      this.expect('order');
      this.expect('by');
      orderBy = this.parseSortItems();
      this.expect(')');
    }
    let filter: Expr | undefined;
    if (this.isSeq('filter', '(')) {
      this.next();
      this.next();
      this.expect('where');
      filter = this.parseExpression();
      this.expect(')');
    }
    let nullTreatment: 'ignore' | 'respect' | undefined;
    if (this.isSeq('ignore', 'nulls') || this.isSeq('respect', 'nulls')) {
      nullTreatment = this.next().value as 'ignore' | 'respect';
      this.next();
    }
    let over: WindowSpec | undefined;
    if (this.accept('over')) {
      if (this.isIdentifier()) over = { name: this.identifier().name, partitionBy: [], orderBy: [] };
      else {
        this.expect('(');
        over = this.parseWindowSpec();
        this.expect(')');
      }
    }
    return { k: 'func', name, args, distinct, orderBy, filter, over, nullTreatment, pos };
  }
}
