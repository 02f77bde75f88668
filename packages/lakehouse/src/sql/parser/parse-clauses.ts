// Clause-level pieces shared by expressions and queries: types (Trino and Hive spellings), ORDER BY items, window
// specifications with frames.
import type { Expr, FrameBound, SortItem, TypeName, WindowSpec } from '../tree/ast';
import { TokenCursor } from './token-cursor';

export abstract class ClauseParser extends TokenCursor {
  abstract parseExpression(): Expr;

  protected parseWindowSpec(): WindowSpec {
    const spec: WindowSpec = { partitionBy: [], orderBy: [] };
    if (
      this.isIdentifier() &&
      !this.is('partition') &&
      !this.is('rows') &&
      !this.is('range') &&
      !this.is('groups')
    )
      spec.name = this.identifier().name;
    if (this.acceptSeq('partition', 'by')) {
      spec.partitionBy.push(this.parseExpression());
      while (this.accept(',')) spec.partitionBy.push(this.parseExpression());
    }
    if (this.acceptSeq('order', 'by')) spec.orderBy = this.parseSortItems();
    if (this.is('rows') || this.is('range') || this.is('groups')) {
      const unit = this.next().value as 'rows' | 'range' | 'groups';
      if (this.accept('between')) {
        const start = this.parseFrameBound();
        this.expect('and');
        spec.frame = { unit, start, end: this.parseFrameBound() };
      } else spec.frame = { unit, start: this.parseFrameBound() };
    }
    return spec;
  }

  protected parseFrameBound(): FrameBound {
    if (this.acceptSeq('unbounded', 'preceding')) return { kind: 'unbounded-preceding' };
    if (this.acceptSeq('unbounded', 'following')) return { kind: 'unbounded-following' };
    if (this.acceptSeq('current', 'row')) return { kind: 'current' };
    const offset = this.parseExpression();
    if (this.accept('preceding')) return { kind: 'preceding', offset };
    this.expect('following', "'PRECEDING', 'FOLLOWING'");
    return { kind: 'following', offset };
  }

  protected parseSortItems(): SortItem[] {
    const items: SortItem[] = [];
    do {
      const expr = this.parseExpression();
      let desc = false;
      if (this.accept('desc')) desc = true;
      else this.accept('asc');
      let nulls: 'first' | 'last' | undefined;
      if (this.accept('nulls')) {
        if (this.accept('first')) nulls = 'first';
        else {
          this.expect('last', "'FIRST', 'LAST'");
          nulls = 'last';
        }
      }
      items.push({ expr, desc, nulls });
    } while (this.accept(','));
    return items;
  }

  parseType(): TypeName {
    const pos = this.pos;
    const base = this.identifier(true).name;
    if (base === 'double' && this.accept('precision')) return { base: 'double', params: [], pos };
    const type: TypeName = { base, params: [], pos };
    if (this.accept('(')) {
      if (base === 'row' || base === 'struct') {
        type.fieldNames = [];
        do {
          type.fieldNames.push(this.identifier(true).name);
          type.params.push(this.parseType());
        } while (this.accept(','));
      } else {
        do {
          if (this.peek().kind === 'number') type.params.push(this.integer());
          else type.params.push(this.parseType());
        } while (this.accept(','));
      }
      this.expect(')');
    } else if (this.accept('<')) {
      // Hive-style array<string>, map<string,int>, struct<a:int> as Athena DDL writes them.
      if (base === 'struct') {
        type.fieldNames = [];
        do {
          type.fieldNames.push(this.identifier(true).name);
          this.expect(':');
          type.params.push(this.parseType());
        } while (this.accept(','));
      } else {
        do type.params.push(this.parseType());
        while (this.accept(','));
      }
      this.expect('>');
    }
    if (this.isSeq('with', 'time', 'zone')) {
      this.acceptSeq('with', 'time', 'zone');
      type.withTimeZone = true;
    } else this.acceptSeq('without', 'time', 'zone');
    return type;
  }
}
